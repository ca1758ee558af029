import type { CurrencyCode } from '../money.ts';

/** Countries an order ships to (spec section 3, shipping address). */
export const SHIPPING_COUNTRIES = ['SG', 'HK', 'MY', 'TW', 'AU'] as const;
export type ShippingCountry = (typeof SHIPPING_COUNTRIES)[number];

/** The selling entities: the Singapore company and the Hong Kong one, each numbering its own invoices. */
export const SELLERS = ['HK', 'SG'] as const;
export type Seller = (typeof SELLERS)[number];

export interface Market {
  seller: Seller;
  currency: CurrencyCode;
}

/**
 * Who sells, and in which currency, by the country the order ships to (decision 018): Singapore
 * buys from the Singapore company in SGD; everywhere else from the Hong Kong company in HKD.
 */
export function marketOf(country: ShippingCountry): Market {
  return country === 'SG' ? { seller: 'SG', currency: 'SGD' } : { seller: 'HK', currency: 'HKD' };
}

export function isShippingCountry(value: unknown): value is ShippingCountry {
  return typeof value === 'string' && (SHIPPING_COUNTRIES as readonly string[]).includes(value);
}
