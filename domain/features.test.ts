import { describe, expect, it } from 'vitest';
import { applyFeatures, DEFAULT_MARKET } from './features.ts';

describe('applyFeatures', () => {
  it('starts from the spec defaults', () => {
    expect(DEFAULT_MARKET).toMatchObject({ region: 'hk', currency: 'HKD', currencies: ['SGD', 'HKD'] });
  });

  it('takes flags from the payload', () => {
    const next = applyFeatures(DEFAULT_MARKET, { contactForm: false, subscription: false });
    expect(next.contactForm).toBe(false);
    expect(next.subscription).toBe(false);
  });

  it('changes region and currency only when present and non-empty', () => {
    const next = applyFeatures(DEFAULT_MARKET, { region: '', currency: undefined, currencies: [], regions: [] });
    expect(next.region).toBe('hk');
    expect(next.currency).toBe('HKD');
    expect(next.currencies).toEqual(['SGD', 'HKD']);
    expect(next.regions).toBe(DEFAULT_MARKET.regions);
  });

  it('takes a new region, currency and currencies', () => {
    const next = applyFeatures(DEFAULT_MARKET, { region: 'sg', currency: 'SGD', currencies: ['SGD', 'MYR'] });
    expect(next).toMatchObject({ region: 'sg', currency: 'SGD', currencies: ['SGD', 'MYR'] });
  });

  it('ignores unknown currencies', () => {
    const next = applyFeatures(DEFAULT_MARKET, { currency: 'XXX' as 'HKD', currencies: ['XXX' as 'HKD'] });
    expect(next.currency).toBe('HKD');
    expect(next.currencies).toEqual(['SGD', 'HKD']);
  });
});
