import { describe, expect, it } from 'vitest';
import {
  attemptDay,
  canMoveSubscription,
  cancellationOf,
  isRemovable,
  removalCredit,
  renewalCharge,
  renewalStep,
  terminationOf,
} from './lifecycle.ts';
import type { BillingTerms } from './schedule.ts';

const terms = (overrides: Partial<BillingTerms>): BillingTerms => ({
  start: '2026-01-31',
  anchorDay: 31,
  prepaidMonths: 1,
  contractMonths: 0,
  period: 'monthly',
  ...overrides,
});

describe('subscription lifecycle', () => {
  it('retries a failed renewal 1, 3, 5 and 7 days after the billing date, then gives up', () => {
    expect([0, 1, 2, 3, 4].map((attempt) => attemptDay('2027-02-28', attempt))).toEqual([
      '2027-02-28',
      '2027-03-01',
      '2027-03-03',
      '2027-03-05',
      '2027-03-07',
    ]);
    expect(renewalStep('2028-02-27', 1)).toEqual({ next: '2028-02-28' });
    expect(renewalStep('2028-02-27', 2)).toEqual({ next: '2028-03-01' });
    expect(renewalStep('2028-02-27', 5)).toEqual({ exhausted: true });
    expect(() => attemptDay('2027-02-28', 5)).toThrow(RangeError);
  });

  it('moves only along its table', () => {
    expect(canMoveSubscription('active', 'past_due')).toBe(true);
    expect(canMoveSubscription('past_due', 'unpaid')).toBe(true);
    expect(canMoveSubscription('unpaid', 'active')).toBe(true);
    expect(canMoveSubscription('cancelled', 'active')).toBe(false);
    expect(canMoveSubscription('active', 'unpaid')).toBe(false);
    expect(canMoveSubscription('ended', 'active')).toBe(false);
  });

  it('charges on a billing date what the period it closes costs, the prepaid months excepted', () => {
    const monthly = terms({});
    // One prepaid month from 31 January: the first charge is on 28 February (clamped), for March.
    expect(renewalCharge(monthly, '2026-02-28', { monthly: 38_800, yearly: 0 })).toEqual({
      amount: 38_800,
      periodStart: '2026-02-28',
      periodEnd: '2026-03-31',
    });
    expect(renewalCharge(monthly, '2026-03-31', { monthly: 38_800, yearly: 0 })).toMatchObject({
      periodStart: '2026-03-31',
      periodEnd: '2026-04-30',
    });
    expect(() => renewalCharge(monthly, '2026-03-15', { monthly: 1, yearly: 0 })).toThrow(RangeError);
    // Yearly add-ons fall due on the anniversaries their paid years do not cover.
    const prepaidYear = terms({ prepaidMonths: 12 });
    // (the order paid the first year; the second falls due on its first day).
    expect(renewalCharge(prepaidYear, '2027-01-31', { monthly: 10_000, yearly: 50_000 }).amount).toBe(60_000);
    expect(renewalCharge(prepaidYear, '2027-02-28', { monthly: 10_000, yearly: 50_000 }).amount).toBe(10_000);
    expect(renewalCharge(prepaidYear, '2028-01-31', { monthly: 10_000, yearly: 50_000 }).amount).toBe(60_000);
    // An annual period charges twelve months at once.
    const annual = terms({ start: '2024-02-29', anchorDay: 29, prepaidMonths: 12, period: 'annual' });
    expect(renewalCharge(annual, '2025-02-28', { monthly: 10_000, yearly: 0 })).toEqual({
      amount: 120_000,
      periodStart: '2025-02-28',
      periodEnd: '2026-02-28',
    });
  });

  it('stops Lite at the end of the current period', () => {
    expect(cancellationOf(terms({}), '2026-03-10', 38_800)).toEqual({ kind: 'periodEnd', endsOn: '2026-03-31' });
    // Inside the prepaid months the period is the prepaid term: nothing is refunded, it runs out.
    expect(cancellationOf(terms({ prepaidMonths: 24 }), '2026-03-10', 38_800)).toEqual({
      kind: 'periodEnd',
      endsOn: '2028-01-31',
    });
  });

  it('keeps Flexi to its minimum term and prices ending it sooner at the rest of the term', () => {
    const flexi = terms({ start: '2026-01-15', anchorDay: 15, prepaidMonths: 1, contractMonths: 12 });
    // On 20 March the period runs to 15 April; from there to 15 January 2027 are nine months.
    expect(cancellationOf(flexi, '2026-03-20', 50_000)).toEqual({
      kind: 'contractEnd',
      endsOn: '2027-01-15',
      terminationFee: 450_000,
      monthsLeft: 9,
    });
    // In the term's last period nothing is left to pay: it stops at the term's end.
    expect(cancellationOf(flexi, '2026-12-20', 50_000)).toEqual({ kind: 'notice', endsOn: '2027-02-15' });
    // Past the term, 30 days' notice: the first billing date at least 30 days away.
    expect(cancellationOf(flexi, '2027-03-01', 50_000)).toEqual({ kind: 'notice', endsOn: '2027-04-15' });
    expect(cancellationOf(flexi, '2027-03-16', 50_000)).toEqual({ kind: 'notice', endsOn: '2027-04-15' });
    expect(cancellationOf(flexi, '2027-03-17', 50_000)).toEqual({ kind: 'notice', endsOn: '2027-05-15' });
    // Paid 24 months ahead on a 12-month term: the term is the prepaid months, with nothing left to pay.
    const prepaidFlexi = terms({ start: '2026-01-15', anchorDay: 15, prepaidMonths: 24, contractMonths: 12 });
    expect(cancellationOf(prepaidFlexi, '2026-08-01', 50_000)).toEqual({
      kind: 'contractEnd',
      endsOn: '2028-01-15',
      terminationFee: 0,
      monthsLeft: 0,
    });
  });

  it('terminates only inside a minimum term with months left after the period, for the fee the plan page shows', () => {
    const flexi = terms({ start: '2026-01-15', anchorDay: 15, prepaidMonths: 1, contractMonths: 12 });
    expect(terminationOf(flexi, '2026-03-20', 50_000)).toEqual({ fee: 450_000, monthsLeft: 9, termEnd: '2027-01-15' });
    const shown = cancellationOf(flexi, '2026-03-20', 50_000);
    expect(shown.kind === 'contractEnd' && shown.terminationFee).toBe(terminationOf(flexi, '2026-03-20', 50_000)?.fee);
    // One billing date later, one month less.
    expect(terminationOf(flexi, '2026-04-15', 50_000)).toMatchObject({ fee: 400_000, monthsLeft: 8 });
    // The day before the period's end still counts the period as paid.
    expect(terminationOf(flexi, '2026-04-14', 50_000)).toMatchObject({ monthsLeft: 9 });
    // Lite, the term's last period, past the term, or a term covered by the months paid ahead: stopped instead.
    expect(terminationOf(terms({}), '2026-03-10', 38_800)).toBeNull();
    expect(terminationOf(flexi, '2026-12-20', 50_000)).toBeNull();
    expect(terminationOf(flexi, '2027-03-01', 50_000)).toBeNull();
    expect(
      terminationOf(
        terms({ start: '2026-01-15', anchorDay: 15, prepaidMonths: 24, contractMonths: 12 }),
        '2026-08-01',
        50_000,
      ),
    ).toBeNull();
  });

  it('credits the unused share of a removed add-on, by the rule that prices adding one', () => {
    // Monthly from 28 February to 31 March 2026 (31 days); removed on 10 March, 21 days are left.
    const monthly = terms({});
    expect(removalCredit(monthly, { monthPrice: 18_800, count: 2, billing: 'monthly' }, '2026-03-10').credit).toBe(
      Math.round((18_800 * 2 * 21) / 31),
    );
    // In the prepaid months the period is the prepaid term: its months are paid for.
    const prepaid = terms({ prepaidMonths: 12 });
    expect(removalCredit(prepaid, { monthPrice: 10_000, count: 1, billing: 'monthly' }, '2026-07-31').credit).toBe(
      Math.round((10_000 * 12 * 184) / 365),
    );
    expect(isRemovable({ monthPrice: 18_800, count: 1, billing: 'monthly' })).toBe(true);
    expect(isRemovable({ monthPrice: 0, count: 1 })).toBe(false);
    expect(isRemovable({ monthPrice: 50_000, count: 1, billing: 'one_time' })).toBe(false);
    expect(isRemovable({ monthPrice: 18_800, count: 1, status: 'pending' })).toBe(false);
    expect(isRemovable({ monthPrice: 18_800, count: 1, status: 'suspended' })).toBe(false);
  });
});
