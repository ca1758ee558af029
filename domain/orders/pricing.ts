import { PREPAID_OPTIONS } from '../calculator.ts';
import type { I18nText } from '../locales.ts';
import type { CurrencyCode } from '../money.ts';
import { type Billing, convert, COUNTER_MAX, DEFAULT_EXCHANGE_RATES, type ExchangeRates, quote } from '../pricing.ts';
import { offeredToIndustry } from '../billing/offered.ts';
import { taxFor } from '../tax.ts';
import { marketOf, type Seller, type ShippingCountry } from './countries.ts';

/** A plan template as pricing reads it (an `appTemplates` record). */
export interface TemplateToPrice {
  _id: string;
  key?: string | null;
  name: I18nText;
  type: string;
  monthPrice: number;
  currency: CurrencyCode | string;
  contractMonths: number;
  /** The modules the plan includes (decision 013): never priced again, never add-ons. */
  modules: readonly { id: string; count?: number }[];
  /** The plan's industry: modules sold to other industries only are not add-ons of it. */
  industry?: string;
}

/** A catalogue module as pricing reads it (a `modules` record). */
export interface ModuleToPrice {
  _id: string;
  key?: string | null;
  name: I18nText;
  counter: boolean;
  monthPrice: number;
  currency: CurrencyCode | string;
  billing: Billing | string;
  released: boolean;
  /** The industries it is sold to; none: every industry. */
  industries?: readonly string[] | null;
}

/** What the buyer chose: add-ons (by module id or key) with counts, and the months paid ahead. */
export interface OrderChoice {
  addOns: readonly { id: string; count?: number }[];
  prepaidMonths: number;
}

/** One line of an order: the plan, or an add-on; `amount` is what it adds to the total due now. */
export interface OrderLine {
  key: string;
  /** `termination`: the fee for ending a plan inside its minimum term (decision 044). */
  kind: 'plan' | 'addon' | 'termination';
  /** The module's id, for add-ons. */
  module?: string;
  name: I18nText;
  billing: Billing;
  /** Price per billing period (a month, a year, or once) of one unit, in the order's currency. */
  unitPrice: number;
  count: number;
  amount: number;
  /** For a share of a period (an add-on bought mid-period): the days it pays for, `to` exclusive. */
  from?: string;
  to?: string;
}

/** An order's price (the `quotes` service's answer, and the totals an order stores). */
export interface OrderPrice {
  seller: Seller;
  currency: CurrencyCode;
  items: OrderLine[];
  monthly: number;
  yearly: number;
  oneTime: number;
  prepaidMonths: number;
  contractMonths: number;
  /** The lines added up: the quote's prepaid figure. */
  subtotal: number;
  /** Basis points (900 = 9%). */
  taxRate: number;
  tax: number;
  /** Due now. Singapore prices include GST, so the total is the subtotal there too. */
  total: number;
  taxInclusive: boolean;
}

export type OrderPricingProblem =
  'enterprise' | 'prepaidMonths' | 'unknownAddOn' | 'includedAddOn' | 'duplicateAddOn' | 'count' | 'currency';

/** A choice that cannot be priced; `field` names where the problem is (`addOns.1`). */
export class OrderPricingError extends Error {
  readonly problem: OrderPricingProblem;
  readonly field: string;
  constructor(problem: OrderPricingProblem, field: string) {
    super(`Cannot price the order: ${problem} (${field})`);
    this.problem = problem;
    this.field = field;
  }
}

const BILLINGS: readonly string[] = ['monthly', 'yearly', 'one_time'];

/** How many periods of a billing the prepaid months pay for: every month, each year begun, once. */
function periods(billing: Billing, prepaidMonths: number): number {
  if (billing === 'monthly') return prepaidMonths;
  if (billing === 'yearly') return Math.ceil(prepaidMonths / 12);
  return 1;
}

/**
 * Prices an order with the calculator's own function (`quote()`), in the seller's currency of the
 * shipping country, line by line, with its tax. The browser shows it; the server prices every
 * order again with it, whatever the browser sent. Enterprise plans are never sold here.
 */
export function priceOrder(
  template: TemplateToPrice,
  catalogue: readonly ModuleToPrice[],
  choice: OrderChoice,
  country: ShippingCountry,
  rates: ExchangeRates = DEFAULT_EXCHANGE_RATES,
): OrderPrice {
  if (template.type === 'enterprise') throw new OrderPricingError('enterprise', 'plan');
  if (!(PREPAID_OPTIONS as readonly number[]).includes(choice.prepaidMonths))
    throw new OrderPricingError('prepaidMonths', 'prepaidMonths');
  const { seller, currency } = marketOf(country);
  const planCurrency = template.currency as CurrencyCode;
  if (!(planCurrency in rates)) throw new OrderPricingError('currency', 'plan');

  const included = new Set(template.modules.map((item) => item.id));
  const seen = new Set<string>();
  const chosen = choice.addOns.map((addOn, index) => {
    const field = `addOns.${index}`;
    const module = catalogue.find((m) => m._id === addOn.id || (m.key != null && m.key === addOn.id));
    if (!module || !module.released || !BILLINGS.includes(module.billing) || !(module.currency in rates))
      throw new OrderPricingError('unknownAddOn', field);
    if (template.industry && !offeredToIndustry(module, template.industry))
      throw new OrderPricingError('unknownAddOn', field);
    if (included.has(module._id)) throw new OrderPricingError('includedAddOn', field);
    if (seen.has(module._id)) throw new OrderPricingError('duplicateAddOn', field);
    seen.add(module._id);
    const count = addOn.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > (module.counter ? COUNTER_MAX : 1))
      throw new OrderPricingError('count', `${field}.count`);
    // Priced in the plan's currency, as the calculator does, then converted once by `quote()`.
    return { module, count, price: convert(module.monthPrice, module.currency as CurrencyCode, planCurrency, rates) };
  });

  const priced = quote(
    {
      monthPrice: template.monthPrice,
      currency: planCurrency,
      type: template.type,
      prepaidMonths: choice.prepaidMonths,
      addOns: chosen.map(({ module, count, price }) => ({
        price,
        billing: module.billing as Billing,
        counter: module.counter,
        count,
      })),
    },
    currency,
    rates,
  );

  const planPrice = convert(template.monthPrice, planCurrency, currency, rates);
  const items: OrderLine[] = [
    {
      key: template.key ?? template._id,
      kind: 'plan',
      name: template.name,
      billing: 'monthly',
      unitPrice: planPrice,
      count: 1,
      amount: planPrice * choice.prepaidMonths,
    },
    ...chosen.map(({ module, count, price }): OrderLine => {
      const billing = module.billing as Billing;
      const unitPrice = convert(price, planCurrency, currency, rates);
      return {
        key: module.key ?? module._id,
        kind: 'addon',
        module: module._id,
        name: module.name,
        billing,
        unitPrice,
        count,
        amount: unitPrice * count * periods(billing, choice.prepaidMonths),
      };
    }),
  ];
  const subtotal = items.reduce((sum, line) => sum + line.amount, 0);
  // The lines are the quote taken apart; they must add up to what the calculator shows.
  if (subtotal !== priced.prepaid) throw new Error(`Order lines add up to ${subtotal}, the quote to ${priced.prepaid}`);
  const tax = taxFor(seller, subtotal);
  return {
    seller,
    currency,
    items,
    monthly: priced.monthly,
    yearly: priced.yearly,
    oneTime: priced.oneTime,
    prepaidMonths: choice.prepaidMonths,
    contractMonths: template.contractMonths,
    subtotal,
    taxRate: tax.taxRate,
    tax: tax.tax,
    total: tax.inclusive ? subtotal : subtotal + tax.tax,
    taxInclusive: tax.inclusive,
  };
}

/** How long the contract runs, in months from the start: the contract, or the prepaid term if longer (decision 018). */
export function termMonths(contractMonths: number, prepaidMonths: number): number {
  return Math.max(contractMonths, prepaidMonths);
}
