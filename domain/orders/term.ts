import { formatIsoDate } from '../format.ts';
import { termMonths } from './pricing.ts';

/** The last day of the month billing may fall on, so every month has it. */
export const MAX_ANCHOR_DAY = 28;
/** Contract and billing days are Hong Kong days (UTC+8, no daylight saving). */
const HONG_KONG_OFFSET_MS = 8 * 60 * 60 * 1000;

export interface SubscriptionTerm {
  /** The moment the order was paid. */
  contractStart: Date;
  /** Midnight in Hong Kong, max(contract, prepaid) months after the start, on the anchor day. */
  contractEnd: Date;
  billingAnchorDay: number;
  /** Midnight in Hong Kong on the anchor day once the prepaid months are over: the first monthly charge. */
  nextPayDate: Date;
}

/** Midnight in Hong Kong of a day some months after a Hong Kong day, on the given day of the month. */
function hongKongMidnight(year: number, monthIndex: number, day: number): Date {
  return new Date(Date.UTC(year, monthIndex, day) - HONG_KONG_OFFSET_MS);
}

/**
 * The term of a subscription paid at `paidAt` (decision 018): the contract runs from the payment
 * for the longer of the plan's contract and the prepaid months; after the prepaid months the plan
 * bills monthly on the day of the month it was paid (at most the 28th).
 */
export function subscriptionTerm(paidAt: Date, contractMonths: number, prepaidMonths: number): SubscriptionTerm {
  const [year, month, day] = formatIsoDate(paidAt, 'Asia/Hong_Kong').split('-').map(Number) as [number, number, number];
  const billingAnchorDay = Math.min(day, MAX_ANCHOR_DAY);
  return {
    contractStart: paidAt,
    contractEnd: hongKongMidnight(year, month - 1 + termMonths(contractMonths, prepaidMonths), billingAnchorDay),
    billingAnchorDay,
    nextPayDate: hongKongMidnight(year, month - 1 + prepaidMonths, billingAnchorDay),
  };
}
