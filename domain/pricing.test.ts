import { describe, expect, it } from 'vitest';
import { convert, DEFAULT_PREPAID_MONTHS, PricingError, quote, type ChosenAddOn } from './pricing.ts';

const kds = (count: number): ChosenAddOn => ({ price: 18_800, billing: 'monthly', counter: true, count });
const loyalty: ChosenAddOn = { price: 32_800, billing: 'monthly', counter: false, count: 1 };
const purchasing: ChosenAddOn = { price: 380_000, billing: 'one_time', counter: false, count: 1 };
const warranty: ChosenAddOn = { price: 120_000, billing: 'yearly', counter: false, count: 1 };
const lite = { monthPrice: 68_800, currency: 'HKD' as const, type: 'lite', addOns: [] };
const flexi = { monthPrice: 212_500, currency: 'HKD' as const, type: 'flexi', addOns: [] };

describe('quote', () => {
  it('prices the plan alone: HK$688 a month, 24 months prepaid by default', () => {
    expect(quote(lite)).toEqual({
      currency: 'HKD',
      monthly: 68_800,
      yearly: 0,
      oneTime: 0,
      prepaidMonths: 24,
      prepaid: 68_800 * 24,
      negotiable: false,
    });
    expect(DEFAULT_PREPAID_MONTHS).toBe(24);
  });

  it('adds monthly add-ons, and counter add-ons by their count', () => {
    const q = quote({ ...flexi, addOns: [kds(3), loyalty] });
    expect(q.monthly).toBe(212_500 + 3 * 18_800 + 32_800);
    expect(q.prepaid).toBe(q.monthly * 24);
  });

  it('counts a plain add-on once whatever count it carries, and a counter at zero as nothing', () => {
    expect(quote({ ...flexi, addOns: [{ ...loyalty, count: 5 }] }).monthly).toBe(212_500 + 32_800);
    expect(quote({ ...flexi, addOns: [{ ...loyalty, count: 0 }, kds(0)] }).monthly).toBe(212_500);
  });

  it('keeps yearly and one-time add-ons out of the monthly total, and in the prepaid one', () => {
    const q = quote({ ...flexi, addOns: [purchasing, warranty], prepaidMonths: 24 });
    expect(q.monthly).toBe(212_500);
    expect(q).toMatchObject({ yearly: 120_000, oneTime: 380_000 });
    expect(q.prepaid).toBe(212_500 * 24 + 120_000 * 2 + 380_000);
    // A year begun is a year paid.
    expect(quote({ ...flexi, addOns: [warranty], prepaidMonths: 13 }).prepaid).toBe(212_500 * 13 + 120_000 * 2);
  });

  it('takes the months prepaid from the plan, or from the visitor', () => {
    expect(quote({ ...lite, prepaidMonths: 12 }).prepaid).toBe(68_800 * 12);
    expect(quote({ ...lite, prepaidMonths: 1 }).prepaid).toBe(68_800);
    expect(() => quote({ ...lite, prepaidMonths: 0 })).toThrow(PricingError);
    expect(() => quote({ ...lite, prepaidMonths: 2.5 })).toThrow(PricingError);
  });

  it('quotes an enterprise plan (Flexi+) without a base price: it is negotiated', () => {
    const q = quote({ monthPrice: 0, currency: 'HKD', type: 'enterprise', addOns: [kds(2)] });
    expect(q.negotiable).toBe(true);
    expect(q.monthly).toBe(2 * 18_800);
  });

  it('refuses a negative or fractional count', () => {
    expect(() => quote({ ...flexi, addOns: [kds(-1)] })).toThrow(PricingError);
    expect(() => quote({ ...flexi, addOns: [kds(1.5)] })).toThrow(PricingError);
  });
});

describe('currencies', () => {
  it('converts each line, then multiplies, so monthly x months is the prepaid figure', () => {
    const q = quote({ ...flexi, addOns: [kds(2)] }, 'SGD');
    expect(q.currency).toBe('SGD');
    expect(q.monthly).toBe(convert(212_500, 'HKD', 'SGD') + 2 * convert(18_800, 'HKD', 'SGD'));
    expect(q.prepaid).toBe(q.monthly * 24);
    expect(Number.isInteger(q.monthly)).toBe(true);
  });

  it('rounds to the cent, and to whole units for currencies without decimals', () => {
    expect(convert(68_800, 'HKD', 'SGD', { HKD: 1, SGD: 0.172 })).toBe(11_834); // S$118.336 -> S$118.34
    expect(convert(68_800, 'HKD', 'JPY', { HKD: 1, JPY: 19.2 })).toBe(1_321_000); // ¥13,209.6 -> ¥13,210
    expect(convert(5, 'HKD', 'SGD', { HKD: 1, SGD: 0.172 })).toBe(1);
    expect(convert(68_800, 'HKD', 'HKD')).toBe(68_800);
  });

  it('refuses a currency it has no rate for', () => {
    expect(() => convert(100, 'HKD', 'SGD', { HKD: 1 })).toThrow(PricingError);
  });
});
