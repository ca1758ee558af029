import { formatMoney } from '../../domain/format.ts';
import type { Locale } from '../../domain/locales.ts';
import type { CurrencyCode } from '../../domain/money.ts';
import { translate } from '../i18n.ts';
import type { Mail } from './mailer.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface RenewalMailInput {
  kind: 'failed' | 'suspended';
  to: string;
  name: string | null;
  locale: Locale;
  brand: string;
  order: string;
  amount: number;
  currency: CurrencyCode;
  /** The day the charge is tried again (`failed`), `YYYY-MM-DD`. */
  retryOn?: string;
  /** Why the card was refused: a `purchase.card.*` key. */
  reason?: string | null;
  /** The site's address, for the link to the card page; none when unknown. */
  publicUrl?: string;
}

/**
 * The member's notice that a renewal charge failed (with the day it is tried again), or that the
 * last try failed and the add-ons are suspended (decision 031), in the member's language, with
 * the way to put in another card.
 */
export function renewalMail(input: RenewalMailInput): Mail {
  const { kind, locale, brand } = input;
  const values = {
    brand,
    name: input.name || input.to,
    order: input.order,
    amount: formatMoney({ amount: input.amount, currency: input.currency }, locale),
    date: input.retryOn ?? '',
  };
  const line = (key: string) => translate(locale, `renewal.mail.${key}`, values);
  const subject = line(`${kind}Subject`);
  const paragraphs = [
    line('greeting'),
    line(`${kind}Lead`),
    ...(input.reason ? [translate(locale, input.reason)] : []),
    line(`${kind}Next`),
  ];
  const link = input.publicUrl ? `${input.publicUrl.replace(/\/+$/, '')}/${locale}/portal/plan` : null;
  const text = [...paragraphs.flatMap((paragraph) => [paragraph, '']), ...(link ? [`${line('action')}: ${link}`] : [])]
    .join('\n')
    .trim();
  const html = [
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link)}">${escapeHtml(line('action'))}</a></p>`] : []),
  ].join('\n');
  return { to: input.to, subject, text, html };
}
