import { describe, expect, it } from 'vitest';
import { contractYear, divideHalfUp, prorate, recurringAfter } from './proration.ts';
import type { BillingTerms } from './schedule.ts';

const monthlyPhase: BillingTerms = {
  start: '2025-01-31',
  anchorDay: 31,
  prepaidMonths: 12,
  contractMonths: 0,
  period: 'monthly',
};

describe('proration of an add-on', () => {
  it('charges unit price × count × remaining days ÷ days in the period', () => {
    // Period 31 January to 28 February 2026 (28 days); on 10 February 18 days are left.
    const share = prorate(
      monthlyPhase,
      { billing: 'monthly', unitPrice: 18800, count: 2, change: 'add' },
      '2026-02-10',
    );
    expect(share).toMatchObject({ amount: 24171, remainingDays: 18, periodDays: 28 }); // 18800 × 2 × 18 / 28 = 24171.43
    expect(share.period).toMatchObject({ start: '2026-01-31', end: '2026-02-28' });
  });

  it('rounds half up in minor units', () => {
    expect(divideHalfUp(5n, 2n)).toBe(3);
    expect(divideHalfUp(7n, 2n)).toBe(4);
    expect(divideHalfUp(4n, 3n)).toBe(1);
    expect(divideHalfUp(-5n, 2n)).toBe(-3);
    expect(() => divideHalfUp(1n, 0n)).toThrow(RangeError);
    // 31 May to 30 June 2026: 30 days. One cent × 15 / 30 is half a cent: up to 1; × 14 / 30 down to 0.
    const cent = { billing: 'monthly', unitPrice: 1, count: 1, change: 'add' } as const;
    expect(prorate(monthlyPhase, cent, '2026-06-15')).toMatchObject({ amount: 1, remainingDays: 15, periodDays: 30 });
    expect(prorate(monthlyPhase, cent, '2026-06-16')).toMatchObject({ amount: 0, remainingDays: 14, periodDays: 30 });
    expect(prorate(monthlyPhase, { ...cent, unitPrice: 3 }, '2026-06-25')).toMatchObject({
      amount: 1,
      remainingDays: 5,
    }); // 0.5
  });

  it('uses 29 days in a leap February and 28 otherwise', () => {
    const leap = prorate(
      { ...monthlyPhase, start: '2027-01-31' },
      { billing: 'monthly', unitPrice: 29000, count: 1, change: 'add' },
      '2028-02-01',
    );
    expect(leap).toMatchObject({ remainingDays: 28, periodDays: 29, amount: 28000 });
    const common = prorate(
      monthlyPhase,
      { billing: 'monthly', unitPrice: 28000, count: 1, change: 'add' },
      '2026-02-01',
    );
    expect(common).toMatchObject({ remainingDays: 27, periodDays: 28, amount: 27000 });
  });

  it('charges the rest of a prepaid term at the monthly price for each of its months', () => {
    const prepaid: BillingTerms = {
      start: '2026-01-15',
      anchorDay: 15,
      prepaidMonths: 24,
      contractMonths: 12,
      period: 'monthly',
    };
    // 15 January 2026 to 15 January 2028: 730 days; on 15 January 2027, 365 days are left.
    const share = prorate(prepaid, { billing: 'monthly', unitPrice: 10000, count: 1, change: 'add' }, '2027-01-15');
    expect(share).toMatchObject({ remainingDays: 365, periodDays: 730, amount: 120000 });
    expect(share.period).toMatchObject({ prepaid: true, months: 24 });
  });

  it('charges yearly add-ons for the rest of the contract year', () => {
    const prepaid: BillingTerms = {
      start: '2027-03-01',
      anchorDay: 1,
      prepaidMonths: 24,
      contractMonths: 12,
      period: 'monthly',
    };
    expect(contractYear(prepaid, '2028-02-29')).toMatchObject({ start: '2027-03-01', end: '2028-03-01' });
    expect(contractYear(prepaid, '2028-03-01')).toMatchObject({ start: '2028-03-01', end: '2029-03-01' });
    const share = prorate(prepaid, { billing: 'yearly', unitPrice: 366000, count: 1, change: 'add' }, '2027-09-01');
    expect(share).toMatchObject({ remainingDays: 182, periodDays: 366, amount: 182000 });
  });

  it('charges one-time add-ons in full, whatever the day', () => {
    expect(
      prorate(monthlyPhase, { billing: 'one_time', unitPrice: 380000, count: 1, change: 'add' }, '2026-02-27'),
    ).toEqual({ amount: 380000, period: null, remainingDays: 0, periodDays: 0 });
  });

  it('credits a removal the same share, and nothing for a one-time add-on', () => {
    expect(
      prorate(monthlyPhase, { billing: 'monthly', unitPrice: 18800, count: 2, change: 'remove' }, '2026-02-10').amount,
    ).toBe(-24171);
    expect(
      prorate(monthlyPhase, { billing: 'one_time', unitPrice: 380000, count: 1, change: 'remove' }, '2026-02-10')
        .amount,
    ).toBe(0);
  });

  it('keeps large amounts exact', () => {
    const prepaid: BillingTerms = {
      start: '2026-01-01',
      anchorDay: 1,
      prepaidMonths: 36,
      contractMonths: 12,
      period: 'monthly',
    };
    const share = prorate(
      prepaid,
      { billing: 'monthly', unitPrice: 2_000_000_000, count: 1000, change: 'add' },
      '2026-01-02',
    );
    // 2e9 × 36 × 1000 × 1095 / 1096, exactly.
    expect(share.amount).toBe(Number((2_000_000_000n * 36n * 1000n * 1095n * 2n + 1096n) / (2n * 1096n)));
  });

  it('refuses what is not a price or a count', () => {
    expect(() =>
      prorate(monthlyPhase, { billing: 'monthly', unitPrice: 10.5, count: 1, change: 'add' }, '2026-02-10'),
    ).toThrow(RangeError);
    expect(() =>
      prorate(monthlyPhase, { billing: 'monthly', unitPrice: 100, count: 0, change: 'add' }, '2026-02-10'),
    ).toThrow(RangeError);
  });

  it('works out the new recurring amount', () => {
    expect(
      recurringAfter(68800, [
        { billing: 'monthly', unitPrice: 18800, count: 2, change: 'add' },
        { billing: 'one_time', unitPrice: 380000, count: 1, change: 'add' },
        { billing: 'monthly', unitPrice: 32800, count: 1, change: 'remove' },
      ]),
    ).toBe(68800 + 37600 - 32800);
  });
});
