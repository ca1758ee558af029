import { dayOf, startOfDay } from '../billing/calendar.ts';
import { anchorDayOf, type BillingTerms, contractEnd, prepaidEnd } from '../billing/schedule.ts';

export interface SubscriptionTerm {
  /** The moment the order was paid. */
  contractStart: Date;
  /** Midnight in Hong Kong, max(contract, prepaid) months after the start, on the anchor day. */
  contractEnd: Date;
  /** The Hong Kong day of the month of the payment, 1 to 31: in shorter months billing falls on their last day. */
  billingAnchorDay: number;
  /** Midnight in Hong Kong on the anchor day once the prepaid months are over: the first monthly charge. */
  nextPayDate: Date;
}

/**
 * The term of a subscription paid at `paidAt` (decisions 018 and 023): the contract runs from the
 * payment for the longer of the plan's contract and the prepaid months; after the prepaid months
 * the plan bills monthly on the day of the month it was paid, clamped to the month's last day.
 */
export function subscriptionTerm(paidAt: Date, contractMonths: number, prepaidMonths: number): SubscriptionTerm {
  const start = dayOf(paidAt);
  const terms: BillingTerms = {
    start,
    anchorDay: anchorDayOf(start),
    contractMonths,
    prepaidMonths,
    period: 'monthly',
  };
  return {
    contractStart: paidAt,
    contractEnd: startOfDay(contractEnd(terms)),
    billingAnchorDay: terms.anchorDay,
    nextPayDate: startOfDay(prepaidEnd(terms)),
  };
}
