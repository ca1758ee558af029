import { termMonths } from '../orders/pricing.ts';
import { anchoredDay, daysBetween, type IsoDay, parseDay } from './calendar.ts';

/*
 * A subscription's billing calendar (decisions 018 and 023). The contract starts on the day the
 * order is paid; that day of the month is the billing anchor. The prepaid months are one period
 * paid at the start; after them the plan bills every month (or every 12 months, annual) on the
 * anchor day, clamped to the month's last day. Periods start on a billing date and end (exclusive)
 * on the next one.
 */

export const PERIOD_MONTHS = { monthly: 1, annual: 12 } as const;
export type BillingPeriodKind = keyof typeof PERIOD_MONTHS;

export interface BillingTerms {
  /** The Hong Kong day the contract started (the order was paid). */
  start: IsoDay;
  /** The day of the month billing falls on, 1 to 31 (clamped in shorter months). */
  anchorDay: number;
  prepaidMonths: number;
  contractMonths: number;
  period: BillingPeriodKind;
}

export interface BillingPeriod {
  /** The billing date that opened it. */
  start: IsoDay;
  /** The next billing date (not part of the period). */
  end: IsoDay;
  months: number;
  /** How many months after the contract start the period ends. */
  endMonth: number;
  /** The prepaid term paid with the order. */
  prepaid: boolean;
}

/** The anchor of a contract that started on a day: that day of the month. */
export function anchorDayOf(start: IsoDay): number {
  return parseDay(start).day;
}

/** The billing date `months` months after the start. */
export function billingDate(terms: BillingTerms, months: number): IsoDay {
  return anchoredDay(terms.start, months, terms.anchorDay);
}

/** The day the contract ends: the longer of the contract and the prepaid months after the start. */
export function contractEnd(terms: BillingTerms): IsoDay {
  return billingDate(terms, termMonths(terms.contractMonths, terms.prepaidMonths));
}

/** The day the prepaid months run out: the first recurring charge. */
export function prepaidEnd(terms: BillingTerms): IsoDay {
  return billingDate(terms, terms.prepaidMonths);
}

/** Months since the start whose billing date has come by `today` (0 before the first one). */
function monthsElapsed(terms: BillingTerms, today: IsoDay): number {
  if (today < terms.start) return 0;
  const from = parseDay(terms.start);
  const to = parseDay(today);
  let months = (to.year - from.year) * 12 + (to.month - from.month);
  // Clamping never moves a billing date into another month, so at most one step back is needed.
  if (billingDate(terms, months) > today) months -= 1;
  return Math.max(months, 0);
}

/**
 * The period `today` falls in: the prepaid term while it runs (or before the start), then the
 * monthly or annual period since the last billing date.
 */
export function currentPeriod(terms: BillingTerms, today: IsoDay): BillingPeriod {
  const prepaidOver = prepaidEnd(terms);
  if (terms.prepaidMonths > 0 && today < prepaidOver) {
    return {
      start: terms.start,
      end: prepaidOver,
      months: terms.prepaidMonths,
      endMonth: terms.prepaidMonths,
      prepaid: true,
    };
  }
  const length = PERIOD_MONTHS[terms.period];
  const elapsed = monthsElapsed(terms, today);
  const opened = terms.prepaidMonths + Math.floor(Math.max(elapsed - terms.prepaidMonths, 0) / length) * length;
  return {
    start: billingDate(terms, opened),
    end: billingDate(terms, opened + length),
    months: length,
    endMonth: opened + length,
    prepaid: false,
  };
}

/** The next charge: the end of the current period. */
export function nextPayDate(terms: BillingTerms, today: IsoDay): IsoDay {
  return currentPeriod(terms, today).end;
}

export interface PrepaidUsage {
  months: number;
  /** Months whose billing date has come (the first month counts once its month has passed). */
  used: number;
  left: number;
}

/** How many of the prepaid months are used and left on `today`. */
export function prepaidUsage(terms: BillingTerms, today: IsoDay): PrepaidUsage {
  const used = Math.min(monthsElapsed(terms, today), terms.prepaidMonths);
  return { months: terms.prepaidMonths, used, left: terms.prepaidMonths - used };
}

/** Days from `today` to the end of its period, and the period's length in days. */
export function daysLeftInPeriod(period: BillingPeriod, today: IsoDay): { remaining: number; total: number } {
  const total = daysBetween(period.start, period.end);
  const remaining = Math.min(Math.max(daysBetween(today, period.end), 0), total);
  return { remaining, total };
}

/** Years of yearly add-ons the order paid for: each year of the prepaid term begun (as the purchase priced them). */
export function prepaidYears(terms: BillingTerms): number {
  return Math.ceil(terms.prepaidMonths / 12);
}

/**
 * What falls due on the billing date `endMonth` months after the start: the monthly charge for
 * each month of the period it opens, and the yearly add-ons on an anniversary their paid years
 * do not cover.
 */
export function recurringChargeAt(
  terms: BillingTerms,
  endMonth: number,
  amounts: { monthly: number; yearly: number },
): number {
  const yearlyDue = endMonth % 12 === 0 && endMonth >= prepaidYears(terms) * 12;
  return amounts.monthly * PERIOD_MONTHS[terms.period] + (yearlyDue ? amounts.yearly : 0);
}
