import { describe, expect, it } from 'vitest';
import {
  type BillingTerms,
  billingDate,
  contractEnd,
  currentPeriod,
  daysLeftInPeriod,
  nextPayDate,
  prepaidEnd,
  prepaidUsage,
  recurringChargeAt,
} from './schedule.ts';

const terms = (overrides: Partial<BillingTerms>): BillingTerms => ({
  start: '2026-01-31',
  anchorDay: 31,
  prepaidMonths: 12,
  contractMonths: 0,
  period: 'monthly',
  ...overrides,
});

describe('billing schedule', () => {
  it('ends the contract after the longer of the contract and the prepaid months, on the clamped anchor', () => {
    expect(contractEnd(terms({ contractMonths: 12, prepaidMonths: 24 }))).toBe('2028-01-31');
    expect(contractEnd(terms({ contractMonths: 12, prepaidMonths: 12 }))).toBe('2027-01-31');
    expect(contractEnd(terms({ start: '2026-05-31', contractMonths: 0, prepaidMonths: 12 }))).toBe('2027-05-31');
    expect(contractEnd(terms({ start: '2027-02-28', anchorDay: 28, contractMonths: 12, prepaidMonths: 12 }))).toBe(
      '2028-02-28',
    );
    expect(contractEnd(terms({ start: '2026-08-31', contractMonths: 18, prepaidMonths: 0 }))).toBe('2028-02-29');
  });

  it('keeps the prepaid term as one period, then bills monthly on the anchor day, clamped', () => {
    const monthly = terms({});
    expect(prepaidEnd(monthly)).toBe('2027-01-31');
    expect(currentPeriod(monthly, '2026-01-31')).toEqual({
      start: '2026-01-31',
      end: '2027-01-31',
      months: 12,
      endMonth: 12,
      prepaid: true,
    });
    expect(currentPeriod(monthly, '2027-01-30').prepaid).toBe(true);
    expect(currentPeriod(monthly, '2027-01-31')).toEqual({
      start: '2027-01-31',
      end: '2027-02-28',
      months: 1,
      endMonth: 13,
      prepaid: false,
    });
    expect(currentPeriod(monthly, '2027-02-27').end).toBe('2027-02-28');
    expect(currentPeriod(monthly, '2027-02-28')).toEqual({
      start: '2027-02-28',
      end: '2027-03-31',
      months: 1,
      endMonth: 14,
      prepaid: false,
    });
    expect(currentPeriod(monthly, '2027-04-30')).toMatchObject({ start: '2027-04-30', end: '2027-05-31' });
    // The leap year's February has the 29th: the charge waits for it.
    expect(currentPeriod(monthly, '2028-02-28')).toMatchObject({ start: '2028-01-31', end: '2028-02-29' });
    expect(currentPeriod(monthly, '2028-02-29')).toMatchObject({ start: '2028-02-29', end: '2028-03-31' });
  });

  it('bills an annual plan every 12 months after the prepaid term', () => {
    const annual = terms({ start: '2024-02-29', anchorDay: 29, prepaidMonths: 24, period: 'annual' });
    expect(prepaidEnd(annual)).toBe('2026-02-28');
    expect(currentPeriod(annual, '2026-03-15')).toEqual({
      start: '2026-02-28',
      end: '2027-02-28',
      months: 12,
      endMonth: 36,
      prepaid: false,
    });
    expect(currentPeriod(annual, '2027-12-31')).toMatchObject({ start: '2027-02-28', end: '2028-02-29' });
    expect(nextPayDate(annual, '2028-02-28')).toBe('2028-02-29');
    expect(nextPayDate(annual, '2028-02-29')).toBe('2029-02-28');
  });

  it('gives the next pay date: the prepaid end while it runs, then the next anchor day', () => {
    const prepaid24 = terms({ start: '2026-03-10', anchorDay: 10, prepaidMonths: 24, contractMonths: 12 });
    expect(nextPayDate(prepaid24, '2026-03-10')).toBe('2028-03-10');
    expect(nextPayDate(prepaid24, '2028-03-09')).toBe('2028-03-10');
    expect(nextPayDate(prepaid24, '2028-03-10')).toBe('2028-04-10');
    expect(nextPayDate(prepaid24, '2028-12-25')).toBe('2029-01-10');
    // Before the start (an order paid late in the Hong Kong day, read early): the first period.
    expect(nextPayDate(prepaid24, '2026-03-09')).toBe('2028-03-10');
  });

  it('counts prepaid months used and left around month ends', () => {
    const prepaid24 = terms({ prepaidMonths: 24 });
    expect(prepaidUsage(prepaid24, '2026-01-31')).toEqual({ months: 24, used: 0, left: 24 });
    expect(prepaidUsage(prepaid24, '2026-02-27')).toEqual({ months: 24, used: 0, left: 24 });
    expect(prepaidUsage(prepaid24, '2026-02-28')).toEqual({ months: 24, used: 1, left: 23 });
    expect(prepaidUsage(prepaid24, '2026-04-29')).toEqual({ months: 24, used: 2, left: 22 });
    expect(prepaidUsage(prepaid24, '2026-04-30')).toEqual({ months: 24, used: 3, left: 21 });
    expect(prepaidUsage(prepaid24, '2028-01-30')).toEqual({ months: 24, used: 23, left: 1 });
    expect(prepaidUsage(prepaid24, '2028-01-31')).toEqual({ months: 24, used: 24, left: 0 });
    expect(prepaidUsage(prepaid24, '2030-06-01')).toEqual({ months: 24, used: 24, left: 0 });
    expect(prepaidUsage(prepaid24, '2025-12-31')).toEqual({ months: 24, used: 0, left: 24 });
    expect(billingDate(prepaid24, 13)).toBe('2027-02-28');
  });

  it('charges each month of the period, and yearly add-ons on the anniversaries not prepaid', () => {
    const prepaid24 = terms({ prepaidMonths: 24 });
    const amounts = { monthly: 68800, yearly: 238800 };
    expect(recurringChargeAt(prepaid24, 24, amounts)).toBe(68800 + 238800);
    expect(recurringChargeAt(prepaid24, 25, amounts)).toBe(68800);
    expect(recurringChargeAt(prepaid24, 36, amounts)).toBe(68800 + 238800);
    // 18 prepaid months paid two years of yearly add-ons: month 24 is covered.
    expect(recurringChargeAt(terms({ prepaidMonths: 18 }), 24, amounts)).toBe(68800 + 238800);
    expect(recurringChargeAt(terms({ prepaidMonths: 36 }), 24, amounts)).toBe(68800);
    expect(recurringChargeAt(terms({ prepaidMonths: 24, period: 'annual' }), 24, amounts)).toBe(68800 * 12 + 238800);
  });

  it('counts the days left in a period', () => {
    const period = currentPeriod(terms({}), '2027-02-10');
    expect(daysLeftInPeriod(period, '2027-02-10')).toEqual({ remaining: 18, total: 28 });
    expect(daysLeftInPeriod(period, '2027-01-31')).toEqual({ remaining: 28, total: 28 });
    expect(daysLeftInPeriod(period, '2027-03-05')).toEqual({ remaining: 0, total: 28 });
  });
});
