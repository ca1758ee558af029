import type { Billing } from '../pricing.ts';
import { anchoredDay, type IsoDay } from './calendar.ts';
import { type BillingPeriod, type BillingTerms, currentPeriod, daysLeftInPeriod } from './schedule.ts';

/*
 * What adding or removing an add-on costs for the rest of the current period (decision 023): one
 * function for the preview and the charge. unit price × count × remaining days ÷ days in the
 * period, rounded half up in minor units; one-time add-ons in full; a removal credits the same
 * share (a one-time add-on, delivered once, credits nothing).
 */

export interface AddOnChange {
  billing: Billing;
  /** Price of one unit per month (monthly), per year (yearly) or once, in the subscription's currency. */
  unitPrice: number;
  count: number;
  change: 'add' | 'remove';
}

export interface Proration {
  /** Positive: charged now; negative: credited to the balance. */
  amount: number;
  /** The period the share is of; null for a one-time add-on. */
  period: BillingPeriod | null;
  remainingDays: number;
  periodDays: number;
}

/** `numerator / denominator` rounded half up, exactly (no float): amounts times days exceed 2^53 quickly. */
export function divideHalfUp(numerator: bigint, denominator: bigint): number {
  if (denominator <= 0n) throw new RangeError('The denominator must be positive');
  if (numerator < 0n) return -divideHalfUp(-numerator, denominator);
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/** The contract year `today` falls in: yearly add-ons are billed on the anniversaries of the start. */
export function contractYear(terms: BillingTerms, today: IsoDay): BillingPeriod {
  let years = 0;
  while (anchoredDay(terms.start, 12 * (years + 1), terms.anchorDay) <= today) years += 1;
  return {
    start: anchoredDay(terms.start, 12 * years, terms.anchorDay),
    end: anchoredDay(terms.start, 12 * (years + 1), terms.anchorDay),
    months: 12,
    endMonth: 12 * (years + 1),
    prepaid: false,
  };
}

/** The charge (or credit) of one add-on change made on `today`. */
export function prorate(terms: BillingTerms, change: AddOnChange, today: IsoDay): Proration {
  if (!Number.isInteger(change.unitPrice) || change.unitPrice < 0)
    throw new RangeError(`Not a price in minor units: ${change.unitPrice}`);
  if (!Number.isInteger(change.count) || change.count < 1) throw new RangeError(`Not a count: ${change.count}`);
  const sign = change.change === 'add' ? 1 : -1;
  if (change.billing === 'one_time') {
    return {
      amount: change.change === 'add' ? change.unitPrice * change.count : 0,
      period: null,
      remainingDays: 0,
      periodDays: 0,
    };
  }
  const period = change.billing === 'yearly' ? contractYear(terms, today) : currentPeriod(terms, today);
  // A monthly price covers one month of a longer period (the prepaid term, a year): the period's price is that many months.
  const periodPrice = change.billing === 'yearly' ? change.unitPrice : change.unitPrice * period.months;
  const { remaining, total } = daysLeftInPeriod(period, today);
  const share = divideHalfUp(BigInt(periodPrice) * BigInt(change.count) * BigInt(remaining), BigInt(total));
  return { amount: sign * share, period, remainingDays: remaining, periodDays: total };
}

/** The monthly charge once the changes apply: monthly add-ons added or taken off. */
export function recurringAfter(monthly: number, changes: readonly AddOnChange[]): number {
  return changes.reduce(
    (sum, item) =>
      item.billing === 'monthly' ? sum + (item.change === 'add' ? 1 : -1) * item.unitPrice * item.count : sum,
    monthly,
  );
}
