/**
 * What an invoice's status reads as (decision 063): `refunded` when its payment was refunded in
 * full (the invoice is void then, decision 069); `void` when voided otherwise; `paid` once paid (every
 * invoice today: one is issued when its order is paid, by card or by the account's credit);
 * `issued` for one not paid. The portal's lists and the PDF word it the same way
 * (`invoices.statuses.*`, `dashboard.invoiceStatuses.*`).
 */
export type InvoiceShownStatus = 'paid' | 'issued' | 'void' | 'refunded';

export function invoiceShownStatus(invoice: {
  status: string;
  paidAt?: Date | string | null;
  refundedAt?: Date | string | null;
}): InvoiceShownStatus {
  if (invoice.refundedAt) return 'refunded';
  if (invoice.status === 'void') return 'void';
  return invoice.paidAt ? 'paid' : 'issued';
}
