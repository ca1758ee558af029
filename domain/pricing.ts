import { CURRENCIES, type CurrencyCode, type Money } from './money.ts';

/** Calculator defaults (spec section 9): 24 months prepaid; counters from 1 to 10, step 1. */
export const DEFAULT_PREPAID_MONTHS = 24;
export const COUNTER_MAX = 10;
export const COUNTER_STEP = 1;

export type Billing = 'monthly' | 'yearly' | 'one_time';

/** One chosen add-on, at the price the plan offers it (integer minor units of the plan's currency). */
export interface ChosenAddOn {
  price: number;
  billing: Billing;
  /** Counter modules (KDS screens, kiosks) are priced per device; others count once. */
  counter: boolean;
  count: number;
}

export interface PlanToPrice {
  /** Base price per month in minor units; ignored for enterprise plans, which are negotiated. */
  monthPrice: number;
  currency: CurrencyCode;
  type: string;
  addOns: readonly ChosenAddOn[];
  /** Months paid ahead; defaults to the plan's own prepaid months, else 24. */
  prepaidMonths?: number;
}

export interface Quote {
  currency: CurrencyCode;
  /** Recurring each month: the base plus the monthly add-ons. */
  monthly: number;
  /** Recurring each year: the yearly add-ons. */
  yearly: number;
  /** Paid once: the one-time add-ons. */
  oneTime: number;
  prepaidMonths: number;
  /** What the prepaid term costs: monthly x months, the yearly add-ons for each year begun, the one-time ones once. */
  prepaid: number;
  /** Enterprise plans (Flexi+) have no list price: the quote covers the add-ons only. */
  negotiable: boolean;
}

/**
 * How many units of a currency one Hong Kong dollar buys. Prices are set in HKD; quotes in another
 * currency convert with these (a setting staff can change later), then round to that currency.
 */
export type ExchangeRates = Partial<Record<CurrencyCode, number>>;

export const DEFAULT_EXCHANGE_RATES: ExchangeRates = {
  HKD: 1,
  SGD: 0.172,
  USD: 0.128,
  MYR: 0.6,
  TWD: 4.1,
  THB: 4.6,
  JPY: 19.2,
  AUD: 0.196,
  CNY: 0.92,
  VND: 3250,
};

export class PricingError extends Error {}

function units(count: number): number {
  if (!Number.isInteger(count) || count < 0) throw new PricingError('A count is a whole number of at least 0');
  return count;
}

/** Converts minor units between currencies and rounds to what the target currency can show. */
export function convert(
  amount: number,
  from: CurrencyCode,
  to: CurrencyCode,
  rates: ExchangeRates = DEFAULT_EXCHANGE_RATES,
): number {
  if (from === to) return amount;
  const fromRate = rates[from];
  const toRate = rates[to];
  if (!fromRate || !toRate) throw new PricingError(`No exchange rate for ${from} to ${to}`);
  const exact = (amount / fromRate) * toRate;
  // Stored x100 for every currency; JPY and VND show whole units, so they round to 100.
  const step = CURRENCIES[to].decimals === 0 ? 100 : 1;
  return Math.round(exact / step) * step;
}

/**
 * The one pricing function: the calculator shows its answer and the server prices orders with it.
 * All amounts are integer minor units; conversion happens per line, before any multiplication,
 * so the monthly price times the months is exactly the prepaid figure the visitor sees.
 */
export function quote(
  plan: PlanToPrice,
  currency: CurrencyCode = plan.currency,
  rates: ExchangeRates = DEFAULT_EXCHANGE_RATES,
): Quote {
  const prepaidMonths = plan.prepaidMonths ?? DEFAULT_PREPAID_MONTHS;
  if (!Number.isInteger(prepaidMonths) || prepaidMonths < 1 || prepaidMonths > 120)
    throw new PricingError('Prepaid months are 1 to 120');
  const negotiable = plan.type === 'enterprise';
  const toTarget = (amount: number) => convert(amount, plan.currency, currency, rates);
  let monthly = negotiable ? 0 : toTarget(plan.monthPrice);
  let yearly = 0;
  let oneTime = 0;
  for (const addOn of plan.addOns) {
    const line = toTarget(addOn.price) * (addOn.counter ? units(addOn.count) : Math.min(units(addOn.count), 1));
    if (addOn.billing === 'monthly') monthly += line;
    else if (addOn.billing === 'yearly') yearly += line;
    else oneTime += line;
  }
  const prepaid = monthly * prepaidMonths + yearly * Math.ceil(prepaidMonths / 12) + oneTime;
  return { currency, monthly, yearly, oneTime, prepaidMonths, prepaid, negotiable };
}

export function asMoney(amount: number, currency: CurrencyCode): Money {
  return { amount, currency };
}
