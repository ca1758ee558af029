import { addDays, type IsoDay } from '../billing/calendar.ts';

/** What an invoice line holds (domain/orders/records.ts `orderLineSchema`), as far as its wording needs. */
export interface InvoiceLineFacts {
  kind: 'plan' | 'addon' | 'termination';
  billing: 'monthly' | 'yearly' | 'one_time';
  unitPrice: number;
  count: number;
  amount: number;
  /** A share of a period (an add-on bought mid-period): the days it pays for, `to` exclusive. */
  from?: IsoDay | undefined;
  to?: IsoDay | undefined;
}

/** A message key of the `invoices` group and the values it is filled with. */
export interface LineBasis {
  key: string;
  values: Record<string, string | number>;
}

/** An invoice is for a plan (its order bought or renewed one), for add-ons to a plan bought before, or for ending a plan early. */
export type InvoiceKind = 'plan' | 'addOns' | 'termination';

export function invoiceKind(lines: readonly Pick<InvoiceLineFacts, 'kind'>[]): InvoiceKind {
  if (lines.some((line) => line.kind === 'termination')) return 'termination';
  return lines.some((line) => line.kind === 'plan') ? 'plan' : 'addOns';
}

/**
 * How a line's amount comes about, worded the same on the portal page and in the PDF: a plan's
 * order pays its monthly lines for the prepaid months and its yearly ones for each contract year
 * begun in them (decision 018); an add-on bought mid-period pays its share of the days from
 * `from` to the day before `to` (decision 028); a one-time line is paid once. `money` and `day`
 * write an amount and a Hong Kong calendar day in the reader's language.
 */
export function lineBasis(
  line: InvoiceLineFacts,
  prepaidMonths: number,
  format: { money: (amount: number) => string; day: (day: IsoDay) => string },
): LineBasis {
  const values = { count: line.count, price: format.money(line.unitPrice) };
  // The termination fee: the monthly charge for each month of the minimum term left, the order's months (decision 044).
  if (line.kind === 'termination')
    return {
      key: 'invoices.basis.termination',
      values: { months: prepaidMonths, price: format.money(line.unitPrice) },
    };
  if (line.billing === 'one_time') return { key: 'invoices.basis.once', values };
  if (line.from && line.to) {
    const period = { from: format.day(line.from), to: format.day(addDays(line.to, -1)) };
    return {
      key: line.billing === 'yearly' ? 'invoices.basis.shareYearly' : 'invoices.basis.shareMonthly',
      values: { ...values, ...period },
    };
  }
  if (prepaidMonths > 0) {
    if (line.billing === 'yearly')
      return { key: 'invoices.basis.yearly', values: { ...values, years: Math.ceil(prepaidMonths / 12) } };
    return { key: 'invoices.basis.monthly', values: { ...values, months: prepaidMonths } };
  }
  // A recurring line with neither prepaid months nor a period: its count and price alone.
  return { key: 'invoices.basis.unit', values };
}
