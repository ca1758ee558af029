import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../domain/locales.ts';
import { translate } from '../i18n.ts';
import { passwordResetLink, passwordResetMail } from './password-reset-mail.ts';

describe('the password reset mail', () => {
  it('links to the reset page of the language, under the site’s address', () => {
    expect(passwordResetLink('https://tillpoint.example/', 'zh-hk', 'abc_DEF-123')).toBe(
      'https://tillpoint.example/zh-hk/reset-password?token=abc_DEF-123',
    );
    expect(passwordResetLink('http://localhost:3000', 'en', 'a+b/c')).toBe(
      'http://localhost:3000/en/reset-password?token=a%2Bb%2Fc',
    );
  });

  it('is written in the account’s language, with the link and its life in text and HTML', () => {
    for (const locale of LOCALES) {
      const link = passwordResetLink('https://tillpoint.example', locale, 'token123');
      const mail = passwordResetMail({ to: 'mei@example.test', locale, link, brand: 'Tillpoint', minutes: 60 });
      expect(mail.to).toBe('mei@example.test');
      expect(mail.subject).toBe(translate(locale, 'reset.mail.subject', { brand: 'Tillpoint' }));
      expect(mail.subject).not.toContain('{');
      expect(mail.text).toContain(link);
      expect(mail.text).toContain(translate(locale, 'reset.mail.expiry', { minutes: 60 }));
      expect(mail.html).toContain(`<a href="${link}">${link}</a>`);
    }
  });

  it('links an app user to the apps’ page, with the apps’ own text in every language', () => {
    expect(passwordResetLink('https://tillpoint.example', 'zh-cn', 'abc', 'app/reset-password')).toBe(
      'https://tillpoint.example/zh-cn/app/reset-password?token=abc',
    );
    for (const locale of LOCALES) {
      const link = passwordResetLink('https://tillpoint.example', locale, 'token123', 'app/reset-password');
      const mail = passwordResetMail({
        to: 'mei@example.test',
        locale,
        link,
        brand: 'Tillpoint',
        minutes: 60,
        messages: 'appUsers',
      });
      expect(mail.subject).toBe(translate(locale, 'appReset.mail.subject', { brand: 'Tillpoint' }));
      expect(mail.subject).not.toBe(translate(locale, 'reset.mail.subject', { brand: 'Tillpoint' }));
      expect(mail.text).toContain(translate(locale, 'appReset.mail.link', { brand: 'Tillpoint' }));
      expect(mail.text).toContain(translate(locale, 'appReset.mail.expiry', { minutes: 60 }));
      expect(mail.text).not.toMatch(/\{\w+\}/);
      expect(mail.html).toContain(`<a href="${link}">${link}</a>`);
    }
  });

  it('escapes what it puts into HTML', () => {
    const mail = passwordResetMail({
      to: 'a@example.test',
      locale: 'en',
      link: 'https://x.example/en/reset-password?token=a&b="c"<i>',
      brand: 'Tillpoint',
      minutes: 60,
    });
    expect(mail.html).toContain('href="https://x.example/en/reset-password?token=a&amp;b=&quot;c&quot;&lt;i&gt;"');
    expect(mail.html).not.toContain('<i>');
  });
});
