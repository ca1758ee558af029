import type { Billing } from '../pricing.ts';
import { addDays, daysBetween, type IsoDay } from './calendar.ts';
import { prorate, type Proration } from './proration.ts';
import {
  type BillingTerms,
  billingDate,
  contractEnd,
  currentPeriod,
  PERIOD_MONTHS,
  recurringChargeAt,
} from './schedule.ts';

/*
 * What happens to a subscription after it is bought (decision 031): each billing date the
 * recurring charge is made off-session on the card on file; a failed charge is tried again 1, 3,
 * 5 and 7 days after the billing date, the member mailed at each failure; when the last one fails
 * the add-ons are suspended until the member pays. A member may stop the plan at the end of a
 * period (Lite), or at the end of the minimum term (Flexi; before it only by termination, whose
 * fee is the rest of the term's fees).
 */

export const SUBSCRIPTION_STATES = ['incomplete', 'active', 'past_due', 'unpaid', 'non_renewing', 'cancelled'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/** The moves a subscription may make; nothing else sets its status. */
export const SUBSCRIPTION_TRANSITIONS: { readonly [From in SubscriptionState]: readonly SubscriptionState[] } = {
  // Bought but its first payment not through (kept for plans provisioned before payment).
  incomplete: ['active', 'cancelled'],
  active: ['past_due', 'non_renewing', 'cancelled'],
  past_due: ['active', 'unpaid', 'non_renewing', 'cancelled'],
  unpaid: ['active', 'cancelled'],
  non_renewing: ['active', 'past_due', 'unpaid', 'cancelled'],
  cancelled: [],
};

export function canMoveSubscription(from: string, to: SubscriptionState): boolean {
  return (
    Object.hasOwn(SUBSCRIPTION_TRANSITIONS, from) && SUBSCRIPTION_TRANSITIONS[from as SubscriptionState].includes(to)
  );
}

/** Days after the billing date on which a failed renewal is tried again. */
export const RENEWAL_RETRY_DAYS = [1, 3, 5, 7] as const;
/** The first try and its retries. */
export const RENEWAL_ATTEMPTS = RENEWAL_RETRY_DAYS.length + 1;

/** The day attempt `attempt` (0: the first, on the billing date) of a renewal is made. */
export function attemptDay(due: IsoDay, attempt: number): IsoDay {
  if (!Number.isInteger(attempt) || attempt < 0 || attempt >= RENEWAL_ATTEMPTS)
    throw new RangeError(`No renewal attempt ${attempt}`);
  return attempt === 0 ? due : addDays(due, RENEWAL_RETRY_DAYS[attempt - 1] as number);
}

/**
 * Where a renewal stands after `failed` failed attempts: the day of the next one, or `exhausted`
 * when the last retry failed (the add-ons are then suspended).
 */
export function renewalStep(due: IsoDay, failed: number): { next: IsoDay } | { exhausted: true } {
  return failed >= RENEWAL_ATTEMPTS ? { exhausted: true } : { next: attemptDay(due, failed) };
}

/** What the billing date `due` charges: the period it closes (the prepaid months are paid with the order). */
export function renewalCharge(
  terms: BillingTerms,
  due: IsoDay,
  amounts: { monthly: number; yearly: number },
): { amount: number; periodStart: IsoDay; periodEnd: IsoDay } {
  const closing = currentPeriod(terms, addDays(due, -1));
  if (closing.end !== due) throw new RangeError(`${due} is not a billing date of this subscription`);
  const opened = currentPeriod(terms, due);
  return {
    amount: recurringChargeAt(terms, closing.endMonth, amounts),
    periodStart: opened.start,
    periodEnd: opened.end,
  };
}

/** The notice a Flexi plan past its minimum term needs (the terms of service, "Termination"). */
export const NOTICE_DAYS = 30;

export type Cancellation =
  /** Stops at the end of the current period (Lite; or the prepaid term). */
  | { kind: 'periodEnd'; endsOn: IsoDay }
  /** Inside a minimum term: stops when the term ends; ending sooner is a termination with this fee. */
  | { kind: 'contractEnd'; endsOn: IsoDay; terminationFee: number; monthsLeft: number }
  /** Past the minimum term: stops on the first billing date at least the notice away. */
  | { kind: 'notice'; endsOn: IsoDay };

/**
 * When a plan asked to stop on `today` stops, and what ending it sooner would cost: the fees for
 * the rest of the minimum term after the current period (decision 031).
 */
export function cancellationOf(terms: BillingTerms, today: IsoDay, monthly: number): Cancellation {
  const period = currentPeriod(terms, today);
  const ends = contractEnd(terms);
  if (terms.contractMonths > 0 && period.end < ends) {
    const monthsLeft = monthsBetweenBillingDates(terms, period.end, ends);
    return { kind: 'contractEnd', endsOn: ends, terminationFee: monthly * monthsLeft, monthsLeft };
  }
  // The term ends with the period paid for (months paid ahead cover it): notice given in time stops it then, for nothing more.
  if (terms.contractMonths > 0 && period.end === ends && daysBetween(today, ends) >= NOTICE_DAYS) {
    return { kind: 'contractEnd', endsOn: ends, terminationFee: 0, monthsLeft: 0 };
  }
  if (terms.contractMonths > 0) {
    let months = period.endMonth;
    let endsOn = period.end;
    while (daysBetween(today, endsOn) < NOTICE_DAYS) {
      months += PERIOD_MONTHS[terms.period];
      endsOn = billingDate(terms, months);
    }
    return { kind: 'notice', endsOn };
  }
  return { kind: 'periodEnd', endsOn: period.end };
}

/** What ending a plan today costs, when only a termination ends it sooner than it would stop. */
export interface Termination {
  fee: number;
  /** The billing months of the minimum term after the current period: what the fee pays for. */
  monthsLeft: number;
  /** The day the plan would stop if the member stopped it instead (the minimum term's end). */
  termEnd: IsoDay;
}

/**
 * Whether a plan may be terminated on `today`, and for what fee (decision 044): only inside a
 * minimum term that still has months after the current period. Lite, a plan past its term, or
 * one whose term ends with the period paid for is stopped instead (`cancellationOf`), for nothing
 * more: null. The fee is the one the plan page shows, `cancellationOf`'s.
 */
export function terminationOf(terms: BillingTerms, today: IsoDay, monthly: number): Termination | null {
  const cancellation = cancellationOf(terms, today, monthly);
  if (cancellation.kind !== 'contractEnd' || cancellation.terminationFee <= 0) return null;
  return { fee: cancellation.terminationFee, monthsLeft: cancellation.monthsLeft, termEnd: cancellation.endsOn };
}

/** Whole billing months from one billing date to a later one. */
function monthsBetweenBillingDates(terms: BillingTerms, from: IsoDay, to: IsoDay): number {
  let months = 0;
  const start = currentPeriod(terms, from).endMonth - PERIOD_MONTHS[terms.period];
  while (billingDate(terms, start + months) < to) months += 1;
  return months;
}

/** A module of a subscription as its removal reads it. */
export interface RemovableModule {
  monthPrice: number;
  count: number;
  billing?: Billing | null;
  status?: string | null;
}

/**
 * Whether the member may remove a module themselves: a bought add-on that is running (not one
 * included in the plan, not one still being set up or suspended, not a one-time purchase, which
 * was delivered once).
 */
export function isRemovable(module: RemovableModule): boolean {
  return (
    module.monthPrice > 0 &&
    (module.billing ?? 'monthly') !== 'one_time' &&
    module.status !== 'pending' &&
    module.status !== 'suspended'
  );
}

/**
 * What removing an add-on on `today` credits to the balance: its unused share of the period it
 * is paid for, by the same rule as adding one (`prorate`, decision 023), so the preview and the
 * credit are the same figure.
 */
export function removalCredit(
  terms: BillingTerms,
  module: RemovableModule,
  today: IsoDay,
): { credit: number; proration: Proration } {
  const proration = prorate(
    terms,
    { billing: module.billing ?? 'monthly', unitPrice: module.monthPrice, count: module.count, change: 'remove' },
    today,
  );
  return { credit: -proration.amount, proration };
}
