import type { Locale } from '../../domain/locales.ts';
import { translate } from '../i18n.ts';
import type { Mail } from './mailer.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The page a mailed reset link opens, after the language: the members' (`reset-password`), or the
 * one where a user of the company's apps sets theirs (`app/reset-password`).
 */
export type ResetPage = 'reset-password' | 'app/reset-password';

/** The address a mailed reset link opens: `{PUBLIC_URL}/{locale}/reset-password?token=…` (or the apps' page). */
export function passwordResetLink(
  baseUrl: string,
  locale: Locale,
  token: string,
  page: ResetPage = 'reset-password',
): string {
  return `${baseUrl.replace(/\/+$/, '')}/${locale}/${page}?token=${encodeURIComponent(token)}`;
}

/** A reset mail's message keys, by whose mail it is: the members' or the apps' users'. */
const MAIL_MESSAGES = {
  members: (line: string) => `reset.mail.${line}`,
  appUsers: (line: string) => `appReset.mail.${line}`,
} as const;
export type ResetMailMessages = keyof typeof MAIL_MESSAGES;

/** The mail with a link that sets a new password, in the account's language. */
export function passwordResetMail(options: {
  to: string;
  locale: Locale;
  link: string;
  brand: string;
  minutes: number;
  messages?: ResetMailMessages;
}): Mail {
  const { to, locale, link, brand, minutes, messages = 'members' } = options;
  const values = { brand, minutes };
  const line = (key: string) => translate(locale, MAIL_MESSAGES[messages](key), values);
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
