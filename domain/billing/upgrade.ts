import type { I18nText } from '../locales.ts';
import { type CurrencyCode, isCurrency } from '../money.ts';
import type { Seller } from '../orders/countries.ts';
import { type Billing, convert, COUNTER_MAX, DEFAULT_EXCHANGE_RATES, type ExchangeRates } from '../pricing.ts';
import { taxFor } from '../tax.ts';
import type { IsoDay } from './calendar.ts';
import { offeredToIndustry } from './offered.ts';
import type { CatalogueModule } from './overview.ts';
import { prorate, recurringAfter } from './proration.ts';
import type { BillingTerms } from './schedule.ts';

/*
 * The price of adding modules to a subscription (issue 16, decision 026): one function for the
 * order summary's preview and the order the member pays. Each add-on costs its prorated share of
 * the current period (`prorate`), a one-time add-on its full price; the monthly charge grows by
 * the monthly add-ons from the next period on.
 */

const BILLINGS: readonly string[] = ['monthly', 'yearly', 'one_time'];

export type UpgradeProblem = 'empty' | 'unknownAddOn' | 'alreadyActive' | 'duplicateAddOn' | 'count' | 'notForIndustry';

export { offeredToIndustry };

/** A choice that cannot be priced; `field` names where (`addOns.1`). */
export class UpgradePricingError extends Error {
  readonly problem: UpgradeProblem;
  readonly field: string;
  constructor(problem: UpgradeProblem, field: string) {
    super(`Cannot price the upgrade: ${problem} (${field})`);
    this.problem = problem;
    this.field = field;
  }
}

/** What pricing needs of the subscription being upgraded. */
export interface UpgradeSubject {
  terms: BillingTerms;
  seller: Seller;
  currency: CurrencyCode;
  industry: string;
  /** The monthly charge now: the plan's fee and its monthly add-ons. */
  monthly: number;
  /** Modules it has (included, bought, or bought and not yet available). */
  modules: readonly { id: string }[];
}

/** A catalogue module as the upgrade prices it; `industries` empty means every industry. */
export type UpgradeModule = CatalogueModule & { industries?: readonly string[] | null };

export interface UpgradeLine {
  key: string;
  kind: 'addon';
  module: string;
  name: I18nText;
  billing: Billing;
  /** Per unit and billing period (a month, a year, or once), in the subscription's currency. */
  unitPrice: number;
  count: number;
  /** Charged now: the share of the current period (all of it for a one-time add-on). */
  amount: number;
  /** The days the share is of: the rest of the period, and the whole period (0 and 0 for one-time add-ons). */
  remainingDays: number;
  periodDays: number;
  periodEnd: IsoDay | null;
}

export interface UpgradePrice {
  seller: Seller;
  currency: CurrencyCode;
  items: UpgradeLine[];
  /** The monthly charge before and after the add-ons. */
  monthlyBefore: number;
  monthlyAfter: number;
  /** Added each contract year (yearly add-ons), and once (one-time add-ons). */
  yearly: number;
  oneTime: number;
  subtotal: number;
  taxRate: number;
  tax: number;
  total: number;
  taxInclusive: boolean;
}

/**
 * Prices adding `addOns` (module ids or keys, with counts) to a subscription on `today`. Refuses
 * an empty choice, a module not on sale, one the subscription already has, one not sold to its
 * industry, the same module twice and a count a module does not take.
 */
export function priceUpgrade(
  subject: UpgradeSubject,
  catalogue: readonly UpgradeModule[],
  addOns: readonly { id: string; count?: number }[],
  today: IsoDay,
  rates: ExchangeRates = DEFAULT_EXCHANGE_RATES,
): UpgradePrice {
  if (addOns.length === 0) throw new UpgradePricingError('empty', 'addOns');
  const has = new Set(subject.modules.map((module) => module.id));
  const seen = new Set<string>();
  const items = addOns.map((addOn, index): UpgradeLine => {
    const field = `addOns.${index}`;
    const module = catalogue.find(
      (candidate) => candidate._id === addOn.id || (candidate.key != null && candidate.key === addOn.id),
    );
    if (
      !module ||
      !module.released ||
      !BILLINGS.includes(module.billing) ||
      !isCurrency(module.currency) ||
      !(module.currency in rates)
    ) {
      throw new UpgradePricingError('unknownAddOn', field);
    }
    if (has.has(module._id)) throw new UpgradePricingError('alreadyActive', field);
    if (!offeredToIndustry(module, subject.industry)) throw new UpgradePricingError('notForIndustry', field);
    if (seen.has(module._id)) throw new UpgradePricingError('duplicateAddOn', field);
    seen.add(module._id);
    const count = addOn.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > (module.counter ? COUNTER_MAX : 1))
      throw new UpgradePricingError('count', `${field}.count`);
    const unitPrice = convert(module.monthPrice, module.currency, subject.currency, rates);
    const share = prorate(subject.terms, { billing: module.billing, unitPrice, count, change: 'add' }, today);
    return {
      key: module.key ?? module._id,
      kind: 'addon',
      module: module._id,
      name: module.name,
      billing: module.billing,
      unitPrice,
      count,
      amount: share.amount,
      remainingDays: share.remainingDays,
      periodDays: share.periodDays,
      periodEnd: share.period?.end ?? null,
    };
  });
  const sum = (billing: Billing) =>
    items.filter((line) => line.billing === billing).reduce((total, line) => total + line.unitPrice * line.count, 0);
  const subtotal = items.reduce((total, line) => total + line.amount, 0);
  const tax = taxFor(subject.seller, subtotal);
  return {
    seller: subject.seller,
    currency: subject.currency,
    items,
    monthlyBefore: subject.monthly,
    monthlyAfter: recurringAfter(
      subject.monthly,
      items.map((line) => ({
        billing: line.billing,
        unitPrice: line.unitPrice,
        count: line.count,
        change: 'add' as const,
      })),
    ),
    yearly: sum('yearly'),
    oneTime: sum('one_time'),
    subtotal,
    taxRate: tax.taxRate,
    tax: tax.tax,
    total: tax.inclusive ? subtotal : subtotal + tax.tax,
    taxInclusive: tax.inclusive,
  };
}
