import type { Seller } from './orders/countries.ts';

/**
 * Singapore's Goods and Services Tax, in basis points (9.00%), in force since 1 January 2024.
 * Singapore prices are GST-inclusive (decision 018): the price shown is the price paid, and the
 * GST it contains is shown beside it.
 */
export const GST_RATE_BP = 900;
export const GST_EFFECTIVE_FROM = '2024-01-01';

/** One whole in basis points. */
const BASIS = 10_000;

export interface TaxLine {
  /** Basis points (900 = 9%); 0 where no tax is shown. */
  taxRate: number;
  /** The tax the total contains (inclusive) or adds (never today), in minor units. */
  tax: number;
  /** True when the total already contains the tax (Singapore), so the total paid is unchanged. */
  inclusive: boolean;
}

/**
 * The tax of a total sold by a seller: Singapore's GST contained in a GST-inclusive price
 * (`round(total × 900 / 10 900)`); Hong Kong has no sales tax, so no tax line.
 */
export function taxFor(seller: Seller, total: number): TaxLine {
  if (!Number.isInteger(total) || total < 0)
    throw new RangeError('A total is a whole number of minor units, at least 0');
  if (seller === 'SG')
    return { taxRate: GST_RATE_BP, tax: Math.round((total * GST_RATE_BP) / (BASIS + GST_RATE_BP)), inclusive: true };
  return { taxRate: 0, tax: 0, inclusive: false };
}
