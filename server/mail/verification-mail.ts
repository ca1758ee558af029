import type { Locale } from '../../domain/locales.ts';
import { translate } from '../i18n.ts';
import type { Mail } from './mailer.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The address a mailed link opens: `{PUBLIC_URL}/{locale}/verify?token=…`. */
export function verificationLink(baseUrl: string, locale: Locale, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${locale}/verify?token=${encodeURIComponent(token)}`;
}

/** The mail with a verification code and its link, in the account's language. */
export function verificationMail(options: {
  to: string;
  locale: Locale;
  code: string;
  link: string;
  brand: string;
  minutes: number;
}): Mail {
  const { to, locale, code, link, brand, minutes } = options;
  const values = { code, brand, minutes };
  const subject = translate(locale, 'verification.mail.subject', values);
  const greeting = translate(locale, 'verification.mail.greeting', values);
  const codeLine = translate(locale, 'verification.mail.code', values);
  const linkLine = translate(locale, 'verification.mail.link', values);
  const expiry = translate(locale, 'verification.mail.expiry', values);
  const ignore = translate(locale, 'verification.mail.ignore', values);
  const text = [greeting, '', codeLine, '', linkLine, link, '', expiry, ignore].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(codeLine.replace(code, '').trim())}</p>`,
    `<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${escapeHtml(code)}</p>`,
    `<p>${escapeHtml(linkLine)}<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    `<p>${escapeHtml(expiry)}<br>${escapeHtml(ignore)}</p>`,
  ].join('\n');
  return { to, subject, text, html };
}
