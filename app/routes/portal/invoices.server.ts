import { dayOf } from '../../../domain/billing/calendar';
import type { invoices } from '../../../domain/entities/invoices';
import type { orders as orderDefinition } from '../../../domain/entities/orders';
import type { RecordOf } from '../../../domain/entities/types';
import { invoiceKind, type InvoiceKind, type InvoiceLineFacts } from '../../../domain/invoices/lines';
import { invoiceShownStatus, type InvoiceShownStatus } from '../../../domain/invoices/status';
import { forLocale, type Locale } from '../../../domain/locales';
import type { ServerContext, SessionUser } from '../../context';

type InvoiceRecord = RecordOf<typeof invoices>;

/** How many invoices the page lists, newest first (decision 029): a member has one per charge, so years of them fit. */
export const INVOICES_LISTED = 100;

export type InvoiceLineRow = InvoiceLineFacts & Pick<InvoiceRecord['lines'][number], 'key' | 'name'>;

/**
 * An invoice as the page lists it: the record's figures (`taxRate` in basis points, 0 where no tax
 * is shown; `balanceApplied`, what the account's balance paid of the total, negative for an amount
 * due added to the charge), with the Hong Kong day it was issued, its kind, and its order's number
 * and the months a plan's order paid ahead (its lines' wording; null if the order is not readable).
 */
export type InvoiceRow = Pick<
  InvoiceRecord,
  '_id' | 'number' | 'currency' | 'subtotal' | 'taxRate' | 'tax' | 'total' | 'balanceApplied'
> & {
  /** As the page words it: paid, issued (not paid yet), void (decision 063) or refunded (decision 069). */
  status: InvoiceShownStatus;
  issuedOn: string;
  /** The Hong Kong day it was paid, and the card that paid it (none when the account's credit paid it all). */
  paidOn: string | null;
  /** The Hong Kong day its payment was refunded in full. */
  refundedOn: string | null;
  card: { brand: string; last4: string } | null;
  kind: InvoiceKind;
  lines: InvoiceLineRow[];
  order: Pick<RecordOf<typeof orderDefinition>, 'number' | 'prepaidMonths'> | null;
};

export interface InvoicesData {
  invoices: InvoiceRow[];
  /** How many the member has in all (more than listed when they have over `INVOICES_LISTED`). */
  total: number;
}

/**
 * The member's newest invoices with their orders' numbers, read as the member (provider `ssr`),
 * so the definitions' owner rules keep every row to their own; the queries name the member too,
 * so a staff account sees its own invoices here, not everyone's. Two reads whatever the count.
 */
export async function loadInvoices(
  ctx: Pick<ServerContext, 'api'>,
  user: SessionUser,
  locale: Locale,
): Promise<InvoicesData> {
  const asMember = () => ({ provider: 'ssr', user });
  const page = await ctx.api
    .service('invoices')
    .find({ ...asMember(), query: { user: user._id, $sort: { issuedAt: -1 }, $limit: INVOICES_LISTED } });
  const orderIds = [...new Set(page.data.map((invoice) => invoice.order))];
  const orders =
    orderIds.length === 0
      ? []
      : (
          await ctx.api.service('orders').find({
            ...asMember(),
            query: {
              user: user._id,
              _id: { $in: orderIds },
              $select: ['_id', 'number', 'prepaidMonths'],
              $limit: INVOICES_LISTED,
            },
          })
        ).data;
  const orderOf = new Map(
    orders.map((order) => [order._id, { number: order.number, prepaidMonths: order.prepaidMonths }]),
  );
  const rows = page.data.map((invoice): InvoiceRow => ({
    _id: invoice._id,
    number: invoice.number,
    issuedOn: dayOf(invoice.issuedAt),
    status: invoiceShownStatus(invoice),
    paidOn: invoice.paidAt ? dayOf(invoice.paidAt) : null,
    refundedOn: invoice.refundedAt ? dayOf(invoice.refundedAt) : null,
    card:
      invoice.card && invoice.total - invoice.balanceApplied > 0
        ? { brand: invoice.card.brand, last4: invoice.card.last4 }
        : null,
    kind: invoiceKind(invoice.lines),
    currency: invoice.currency,
    lines: invoice.lines.map((line) => ({
      key: line.key,
      kind: line.kind,
      name: line.name,
      billing: line.billing,
      unitPrice: line.unitPrice,
      count: line.count,
      amount: line.amount,
      ...(line.from && line.to ? { from: line.from, to: line.to } : {}),
    })),
    subtotal: invoice.subtotal,
    taxRate: invoice.taxRate,
    tax: invoice.tax,
    total: invoice.total,
    balanceApplied: invoice.balanceApplied,
    order: orderOf.get(invoice.order) ?? null,
  }));
  // Names travel in the page's language only.
  return { invoices: forLocale(rows, locale), total: page.total };
}
