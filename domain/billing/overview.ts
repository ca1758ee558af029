import type { I18nText } from '../locales.ts';
import { type CurrencyCode, isCurrency } from '../money.ts';
import { type Billing, convert, DEFAULT_EXCHANGE_RATES, type ExchangeRates } from '../pricing.ts';
import { dayOf, type IsoDay } from './calendar.ts';
import { offeredToIndustry } from './offered.ts';
import { type Balance, balanceOf, type LedgerEntry, ledgerOf, nextChargeAmount } from './ledger.ts';
import {
  type BillingPeriodKind,
  type BillingTerms,
  contractEnd,
  currentPeriod,
  prepaidEnd,
  prepaidUsage,
  type PrepaidUsage,
  recurringChargeAt,
} from './schedule.ts';

/*
 * The figures of a member's subscription dashboard (decision 023), worked out from the stored
 * records alone: the subscription (term, modules, monthly charge), its invoices and payments
 * (the balance), and the module catalogue (what could be added).
 */

export interface SubscriptionFacts {
  contractStart: Date;
  billingAnchorDay: number;
  prepaidMonths: number;
  contractMonths: number;
  period: BillingPeriodKind;
  currency: CurrencyCode;
  /** The monthly charge: the plan's fee and the monthly add-ons. */
  monthly: number;
  modules: readonly {
    id: string;
    count: number;
    monthPrice: number;
    billing?: Billing | null;
    status?: 'pending' | 'active' | 'suspended' | 'ended' | null;
    availableOn?: string | null;
  }[];
  /** The plan's industry: add-ons sold to other industries only are not offered. */
  industry?: string;
}

export interface CatalogueModule {
  _id: string;
  key?: string | null;
  name: I18nText;
  counter: boolean;
  monthPrice: number;
  currency: string;
  billing: Billing;
  released: boolean;
  /** The industries it is sold to; none: every industry. */
  industries?: readonly string[] | null;
}

export interface ActiveModule {
  id: string;
  count: number;
  /** Included in the plan (no price of its own). */
  included: boolean;
  billing: Billing;
  /** Per unit and billing period, in the subscription's currency. */
  unitPrice: number;
  /** Bought on an upgrade and not yet set up; `availableOn` is the day it is expected. */
  pending: boolean;
  availableOn: IsoDay | null;
  /** Stopped while a renewal is unpaid (decision 031). */
  suspended: boolean;
  /** Ended with the plan when it was terminated (decision 044). */
  ended: boolean;
}

export interface InactiveAddOn {
  id: string;
  key: string | null;
  name: I18nText;
  counter: boolean;
  billing: Billing;
  /** Per unit and billing period, in the subscription's currency. */
  unitPrice: number;
}

export interface SubscriptionOverview {
  currency: CurrencyCode;
  period: BillingPeriodKind;
  contractStart: IsoDay;
  contractEnd: IsoDay;
  /** The contract's own length (0: none, as Lite) and the months paid ahead with the order. */
  contractMonths: number;
  prepaidMonths: number;
  /** The day the prepaid months end and regular billing starts (null with none paid ahead). */
  prepaidEnd: IsoDay | null;
  billingAnchorDay: number;
  /** The period today falls in. */
  currentPeriod: { start: IsoDay; end: IsoDay; prepaid: boolean };
  nextPayDate: IsoDay;
  /** What the next charge takes, the balance applied. */
  nextPayAmount: number;
  balance: Balance;
  /** The plan's own monthly fee, add-ons left out. */
  basicMonthlyFee: number;
  monthly: number;
  /** Null once the prepaid months are over. */
  prepaid: PrepaidUsage | null;
  activated: ActiveModule[];
  inactiveAddOns: InactiveAddOn[];
}

export function billingTermsOf(subscription: SubscriptionFacts): BillingTerms {
  return {
    start: dayOf(subscription.contractStart),
    anchorDay: subscription.billingAnchorDay,
    prepaidMonths: subscription.prepaidMonths,
    contractMonths: subscription.contractMonths,
    period: subscription.period,
  };
}

export function subscriptionOverview(
  subscription: SubscriptionFacts,
  records: {
    invoices: readonly { total: number; currency: string; status: string }[];
    payments: readonly { amount: number; currency: string; status: string }[];
    catalogue: readonly CatalogueModule[];
    /** The balance's own entries (decision 031): a removed add-on's credit. */
    balanceEntries?: readonly LedgerEntry[];
  },
  now: Date,
  rates: ExchangeRates = DEFAULT_EXCHANGE_RATES,
): SubscriptionOverview {
  const today = dayOf(now);
  const terms = billingTermsOf(subscription);
  const period = currentPeriod(terms, today);
  const currency = subscription.currency;
  const activated = subscription.modules.map((module): ActiveModule => ({
    id: module.id,
    count: module.count,
    included: module.monthPrice === 0,
    billing: module.billing ?? 'monthly',
    unitPrice: module.monthPrice,
    pending: module.status === 'pending',
    availableOn: module.status === 'pending' ? (module.availableOn ?? null) : null,
    suspended: module.status === 'suspended',
    ended: module.status === 'ended',
  }));
  const chargeOf = (billing: Billing) =>
    activated
      .filter((module) => module.billing === billing)
      .reduce((sum, module) => sum + module.unitPrice * module.count, 0);
  const balance = balanceOf(
    ledgerOf(
      records.invoices.filter((invoice) => invoice.currency === currency),
      records.payments.filter((payment) => payment.currency === currency),
      (records.balanceEntries ?? []).filter((entry) => entry.currency === currency),
    ),
    currency,
  );
  const usage = prepaidUsage(terms, today);
  const active = new Set(activated.map((module) => module.id));
  return {
    currency,
    period: subscription.period,
    contractStart: terms.start,
    contractEnd: contractEnd(terms),
    contractMonths: terms.contractMonths,
    prepaidMonths: terms.prepaidMonths,
    prepaidEnd: terms.prepaidMonths > 0 ? prepaidEnd(terms) : null,
    billingAnchorDay: terms.anchorDay,
    currentPeriod: { start: period.start, end: period.end, prepaid: period.prepaid },
    nextPayDate: period.end,
    nextPayAmount: nextChargeAmount(
      recurringChargeAt(terms, period.endMonth, { monthly: subscription.monthly, yearly: chargeOf('yearly') }),
      balance,
    ),
    balance,
    basicMonthlyFee: subscription.monthly - chargeOf('monthly'),
    monthly: subscription.monthly,
    prepaid: usage.months > 0 && usage.left > 0 ? usage : null,
    activated,
    inactiveAddOns: records.catalogue.flatMap((module): InactiveAddOn[] =>
      module.released &&
      !active.has(module._id) &&
      isCurrency(module.currency) &&
      (!subscription.industry || offeredToIndustry(module, subscription.industry))
        ? [
            {
              id: module._id,
              key: module.key ?? null,
              name: module.name,
              counter: module.counter,
              billing: module.billing,
              unitPrice: convert(module.monthPrice, module.currency, currency, rates),
            },
          ]
        : [],
    ),
  };
}
