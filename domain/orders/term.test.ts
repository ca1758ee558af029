import { describe, expect, it } from 'vitest';
import { subscriptionTerm } from './term.ts';

describe('subscriptionTerm', () => {
  it('runs a Flexi plan prepaid 24 months for 24 months, billing monthly from then on the payment day', () => {
    const paidAt = new Date('2026-03-10T06:30:00Z'); // 14:30 on 10 March in Hong Kong
    expect(subscriptionTerm(paidAt, 12, 24)).toEqual({
      contractStart: paidAt,
      contractEnd: new Date('2028-03-09T16:00:00Z'), // midnight 10 March 2028 in Hong Kong
      billingAnchorDay: 10,
      nextPayDate: new Date('2028-03-09T16:00:00Z'),
    });
  });

  it('keeps a 12-month contract when 12 months are prepaid, and Lite has none beyond the prepaid months', () => {
    const paidAt = new Date('2026-03-10T06:30:00Z');
    expect(subscriptionTerm(paidAt, 12, 12).contractEnd).toEqual(new Date('2027-03-09T16:00:00Z'));
    expect(subscriptionTerm(paidAt, 0, 36).contractEnd).toEqual(new Date('2029-03-09T16:00:00Z'));
  });

  it('takes the day in Hong Kong, and bills on the last day of shorter months', () => {
    // 31 January 23:30 UTC is 1 February in Hong Kong.
    expect(subscriptionTerm(new Date('2026-01-31T23:30:00Z'), 0, 12).billingAnchorDay).toBe(1);
    const endOfMonth = subscriptionTerm(new Date('2026-01-31T02:00:00Z'), 12, 12);
    expect(endOfMonth.billingAnchorDay).toBe(31);
    expect(endOfMonth.nextPayDate).toEqual(new Date('2027-01-30T16:00:00Z')); // midnight 31 January 2027
    // Paid on 31 May 2026, prepaid 12 and 24 months: the term ends on the 31st, and a 9-month contract on 28 February.
    expect(subscriptionTerm(new Date('2026-05-31T02:00:00Z'), 9, 0).contractEnd).toEqual(
      new Date('2027-02-27T16:00:00Z'),
    );
    // A leap year's February has the 29th.
    expect(subscriptionTerm(new Date('2027-05-31T02:00:00Z'), 9, 0).contractEnd).toEqual(
      new Date('2028-02-28T16:00:00Z'),
    );
  });
});
