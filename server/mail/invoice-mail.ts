import type { Definitions } from '../../domain/entities/index.ts';
import type { RecordOf } from '../../domain/entities/types.ts';
import { formatDate, formatMoney } from '../../domain/format.ts';
import { type Locale, localized } from '../../domain/locales.ts';
import { isCurrency } from '../../domain/money.ts';
import { translate } from '../i18n.ts';
import type { Mail } from './mailer.ts';

type Invoice = RecordOf<Definitions['invoices']>;
type Order = RecordOf<Definitions['orders']>;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A message with its placeholders and plurals filled in. */
function message(locale: Locale, key: string, values: Record<string, string | number> = {}): string {
  return translate(locale, key, values);
}

export interface InvoiceMailInput {
  invoice: Invoice;
  order: Order;
  buyer: { email: string; name: string | null; locale: Locale };
  brand: string;
  /** The site's address, for the link to the portal; none when unknown. */
  publicUrl?: string;
}

/** The invoice mailed to the buyer when an order is paid, in the buyer's language. */
export function invoiceMail({ invoice, order, buyer, brand, publicUrl }: InvoiceMailInput): Mail {
  const { locale } = buyer;
  const currency = isCurrency(invoice.currency) ? invoice.currency : 'HKD';
  const money = (amount: number) => formatMoney({ amount, currency }, locale);
  const lines = invoice.lines.map((line) => {
    const years = Math.ceil(order.prepaidMonths / 12);
    const detail = message(locale, `purchase.mail.billing.${line.billing}`, {
      count: line.count,
      price: money(line.unitPrice),
      months: order.prepaidMonths,
      years,
    });
    return [`${localized(line.name, locale)} (${detail})`, money(line.amount)] as const;
  });
  const totals: (readonly [string, string])[] = [
    [translate(locale, 'purchase.mail.subtotal'), money(invoice.subtotal)],
  ];
  if (invoice.taxRate > 0) {
    totals.push([
      message(locale, 'purchase.mail.gstIncluded', { rate: `${invoice.taxRate / 100}%` }),
      money(invoice.tax),
    ]);
  }
  totals.push([translate(locale, 'purchase.mail.total'), money(invoice.total)]);
  const facts: (readonly [string, string])[] = [
    [translate(locale, 'purchase.mail.invoiceNumber'), invoice.number],
    [translate(locale, 'purchase.mail.issuedAt'), formatDate(invoice.issuedAt, locale)],
    [translate(locale, 'purchase.mail.seller'), message(locale, `purchase.mail.sellers.${invoice.seller}`, { brand })],
  ];
  if (invoice.card)
    facts.push([translate(locale, 'purchase.mail.paidBy'), `${invoice.card.brand} •••• ${invoice.card.last4}`]);
  facts.push([translate(locale, 'purchase.mail.delivery'), order.shipping.shippingDate]);

  const subject = message(locale, 'purchase.mail.invoiceSubject', {
    brand,
    number: invoice.number,
    order: order.number,
  });
  const greeting = message(locale, 'purchase.mail.greeting', { name: buyer.name || buyer.email });
  const intro = message(locale, 'purchase.mail.invoiceIntro', { order: order.number });
  const next = translate(locale, 'purchase.mail.next');
  const portal = publicUrl ? `${publicUrl.replace(/\/$/, '')}/${locale}/portal` : null;
  const pairs = (rows: readonly (readonly [string, string])[]) => rows.map(([label, value]) => `${label}: ${value}`);

  const text = [
    greeting,
    '',
    intro,
    '',
    ...pairs(facts),
    '',
    ...pairs(lines),
    '',
    ...pairs(totals),
    '',
    next,
    ...(portal ? [`${translate(locale, 'purchase.mail.portal')}: ${portal}`] : []),
  ].join('\n');
  const row = ([label, value]: readonly [string, string], bold = false) =>
    `<tr><${bold ? 'th' : 'td'} align="left">${escapeHtml(label)}</${bold ? 'th' : 'td'}><td align="right">${escapeHtml(value)}</td></tr>`;
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...facts.map((fact) => row(fact, true)),
    '</table>',
    '<table cellpadding="4" style="border-collapse:collapse">',
    `<tr><th align="left">${escapeHtml(translate(locale, 'purchase.mail.item'))}</th><th align="right">${escapeHtml(translate(locale, 'purchase.mail.amount'))}</th></tr>`,
    ...lines.map((line) => row(line)),
    ...totals.map((total) => row(total, true)),
    '</table>',
    `<p>${escapeHtml(next)}</p>`,
    ...(portal
      ? [`<p><a href="${escapeHtml(portal)}">${escapeHtml(translate(locale, 'purchase.mail.portal'))}</a></p>`]
      : []),
  ].join('\n');
  return { to: buyer.email, subject, text, html };
}

/** Staff hear of each paid order, in English. */
export function paidOrderStaffMail(
  order: Order,
  invoice: Invoice,
  buyerEmail: string,
  to: string,
  brand: string,
): Mail {
  const currency = isCurrency(order.currency) ? order.currency : 'HKD';
  const total = formatMoney({ amount: order.total, currency }, 'en');
  const subject = `${brand}: order ${order.number} paid (${total})`;
  const rows: [string, string][] = [
    ['Order', order.number],
    ['Invoice', invoice.number],
    ['Buyer', buyerEmail],
    ['Plan', order.items.map((line) => `${localized(line.name, 'en')} × ${line.count}`).join(', ')],
    ['Total', total],
    [
      'Ship to',
      [
        order.shipping.contactPerson,
        order.shipping.contactNumber,
        order.shipping.room,
        order.shipping.street,
        order.shipping.district,
        order.shipping.city,
        order.shipping.zipcode,
        order.shipping.country,
      ]
        .filter(Boolean)
        .join(', '),
    ],
    ['Delivery date', order.shipping.shippingDate],
    ['Note', order.shipping.note ?? '-'],
    ['Order id', order._id],
  ];
  const text = rows.map(([label, value]) => `${label}: ${value}`).join('\n');
  const html = [
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...rows.map(
      ([label, value]) =>
        `<tr><th align="left">${escapeHtml(label)}</th><td style="white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
  ].join('\n');
  return { to, subject, text, html };
}
