/** Currencies the product prices in. Every amount is an integer of minor units (x100), JPY and VND too. */
export const CURRENCIES = {
  HKD: { symbol: 'HK$', decimals: 2 },
  SGD: { symbol: 'S$', decimals: 2 },
  USD: { symbol: 'US$', decimals: 2 },
  TWD: { symbol: 'NT$', decimals: 2 },
  MYR: { symbol: 'RM', decimals: 2 },
  VND: { symbol: '₫', decimals: 0 },
  THB: { symbol: '฿', decimals: 2 },
  JPY: { symbol: '¥', decimals: 0 },
  AUD: { symbol: 'A$', decimals: 2 },
  CNY: { symbol: 'CN¥', decimals: 2 },
} as const;

export type CurrencyCode = keyof typeof CURRENCIES;
export const CURRENCY_CODES = Object.keys(CURRENCIES) as CurrencyCode[];
/** Stored amounts are the displayed amount x 100 for every currency (spec section 3). */
export const CURRENCY_MULTIPLIER = 100;

export interface Money {
  currency: CurrencyCode;
  amount: number;
}

export function isCurrency(value: unknown): value is CurrencyCode {
  return typeof value === 'string' && value in CURRENCIES;
}
