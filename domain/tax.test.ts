import { describe, expect, it } from 'vitest';
import { GST_RATE_BP, taxFor } from './tax.ts';

describe('taxFor', () => {
  it('finds the 9% GST contained in a Singapore price, leaving the total as shown', () => {
    expect(GST_RATE_BP).toBe(900);
    // S$109.00 contains S$9.00 of GST.
    expect(taxFor('SG', 10_900)).toEqual({ taxRate: 900, tax: 900, inclusive: true });
    // Rounded to the cent: 2 836.13 × 9/109 = 234.18 (234.176 rounded)
    expect(taxFor('SG', 283_613)).toEqual({ taxRate: 900, tax: 23_418, inclusive: true });
    expect(taxFor('SG', 0).tax).toBe(0);
  });

  it('has no tax line for the Hong Kong seller', () => {
    expect(taxFor('HK', 5_100_000)).toEqual({ taxRate: 0, tax: 0, inclusive: false });
  });

  it('refuses amounts that are not whole minor units', () => {
    expect(() => taxFor('SG', 10.5)).toThrow(RangeError);
    expect(() => taxFor('SG', -1)).toThrow(RangeError);
  });
});
