import type { Locale } from '../../domain/locales.ts';
import { translate } from '../i18n.ts';
import type { Mail } from './mailer.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The address a mailed reset link opens: `{PUBLIC_URL}/{locale}/reset-password?token=…`. */
export function passwordResetLink(baseUrl: string, locale: Locale, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${locale}/reset-password?token=${encodeURIComponent(token)}`;
}

/** The mail with a link that sets a new password, in the account's language. */
export function passwordResetMail(options: {
  to: string;
  locale: Locale;
  link: string;
  brand: string;
  minutes: number;
}): Mail {
  const { to, locale, link, brand, minutes } = options;
  const values = { brand, minutes };
  const line = (key: string) => translate(locale, `reset.mail.${key}`, values);
  const [subject, greeting, lead, expiry, ignore] = ['subject', 'greeting', 'link', 'expiry', 'ignore'].map(line) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const text = [greeting, '', lead, link, '', expiry, ignore].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(lead)}<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    `<p>${escapeHtml(expiry)}<br>${escapeHtml(ignore)}</p>`,
  ].join('\n');
  return { to, subject, text, html };
}
