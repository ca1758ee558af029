import { describe, expect, it } from 'vitest';
import {
  type UpgradeModule,
  type UpgradeSubject,
  offeredToIndustry,
  priceUpgrade,
  UpgradePricingError,
} from './upgrade.ts';

const name = { en: 'x', 'zh-hk': 'x', 'zh-cn': 'x' };
const module = (id: string, extra: Partial<UpgradeModule> = {}): UpgradeModule => ({
  _id: id,
  key: id,
  name,
  counter: false,
  monthPrice: 10000,
  currency: 'HKD',
  billing: 'monthly',
  released: true,
  ...extra,
});

const catalogue: UpgradeModule[] = [
  module('kds', { counter: true, monthPrice: 18800 }),
  module('kiosk', { billing: 'one_time', monthPrice: 380000 }),
  module('loyalty', { billing: 'yearly', monthPrice: 366000 }),
  module('qr'),
  module('draft', { released: false }),
  module('shopfloor', { industries: ['retail'] }),
  module('sgd', { currency: 'SGD', monthPrice: 1000 }),
];

const hk: UpgradeSubject = {
  terms: { start: '2025-01-31', anchorDay: 31, prepaidMonths: 12, contractMonths: 0, period: 'monthly' },
  seller: 'HK',
  currency: 'HKD',
  industry: 'restaurant',
  monthly: 49900,
  modules: [{ id: 'qr' }],
};

function problemOf(run: () => unknown): { problem: string; field: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof UpgradePricingError) return { problem: error.problem, field: error.field };
    throw error;
  }
}

describe('the price of an add-on upgrade', () => {
  it('charges each add-on its share of the period, one-time add-ons in full, and raises the monthly charge', () => {
    // 31 January to 28 February 2026 is 28 days; on 10 February 18 are left.
    const price = priceUpgrade(hk, catalogue, [{ id: 'kds', count: 2 }, { id: 'kiosk' }], '2026-02-10');
    expect(price.items).toMatchObject([
      {
        module: 'kds',
        unitPrice: 18800,
        count: 2,
        amount: 24171,
        remainingDays: 18,
        periodDays: 28,
        periodEnd: '2026-02-28',
      },
      {
        module: 'kiosk',
        unitPrice: 380000,
        count: 1,
        amount: 380000,
        remainingDays: 0,
        periodDays: 0,
        periodEnd: null,
      },
    ]);
    expect(price).toMatchObject({
      subtotal: 404171,
      total: 404171,
      tax: 0,
      taxRate: 0,
      monthlyBefore: 49900,
      monthlyAfter: 49900 + 37600,
      oneTime: 380000,
      yearly: 0,
    });
  });

  it('charges a yearly add-on for the rest of the contract year and leaves the monthly charge', () => {
    const price = priceUpgrade(
      { ...hk, terms: { ...hk.terms, start: '2027-03-01', anchorDay: 1, prepaidMonths: 24, contractMonths: 12 } },
      catalogue,
      [{ id: 'loyalty' }],
      '2027-09-01',
    );
    expect(price.items[0]).toMatchObject({ amount: 182000, remainingDays: 182, periodDays: 366 });
    expect(price).toMatchObject({ yearly: 366000, monthlyAfter: 49900 });
  });

  it('prices in the subscription currency and shows the GST a Singapore price contains', () => {
    const sg: UpgradeSubject = { ...hk, seller: 'SG', currency: 'SGD' };
    const price = priceUpgrade(sg, catalogue, [{ id: 'sgd' }], '2026-02-14');
    // 14 of 28 days left: half of S$10.00.
    expect(price.items[0]).toMatchObject({ unitPrice: 1000, amount: 500 });
    expect(price).toMatchObject({ subtotal: 500, total: 500, taxRate: 900, tax: 41, taxInclusive: true });
  });

  it('finds modules by key as well as id', () => {
    expect(priceUpgrade(hk, catalogue, [{ id: 'kds' }], '2026-02-10').items[0]?.module).toBe('kds');
  });

  it('refuses what cannot be added, naming the item', () => {
    expect(problemOf(() => priceUpgrade(hk, catalogue, [], '2026-02-10'))).toEqual({
      problem: 'empty',
      field: 'addOns',
    });
    expect(problemOf(() => priceUpgrade(hk, catalogue, [{ id: 'kds' }, { id: 'qr' }], '2026-02-10'))).toEqual({
      problem: 'alreadyActive',
      field: 'addOns.1',
    });
    expect(problemOf(() => priceUpgrade(hk, catalogue, [{ id: 'draft' }], '2026-02-10'))).toEqual({
      problem: 'unknownAddOn',
      field: 'addOns.0',
    });
    expect(problemOf(() => priceUpgrade(hk, catalogue, [{ id: 'nothing' }], '2026-02-10'))).toEqual({
      problem: 'unknownAddOn',
      field: 'addOns.0',
    });
    expect(problemOf(() => priceUpgrade(hk, catalogue, [{ id: 'shopfloor' }], '2026-02-10'))).toEqual({
      problem: 'notForIndustry',
      field: 'addOns.0',
    });
    expect(problemOf(() => priceUpgrade(hk, catalogue, [{ id: 'kds' }, { id: 'kds' }], '2026-02-10'))).toEqual({
      problem: 'duplicateAddOn',
      field: 'addOns.1',
    });
    expect(problemOf(() => priceUpgrade(hk, catalogue, [{ id: 'kiosk', count: 2 }], '2026-02-10'))).toEqual({
      problem: 'count',
      field: 'addOns.0.count',
    });
    expect(problemOf(() => priceUpgrade(hk, catalogue, [{ id: 'kds', count: 11 }], '2026-02-10'))).toEqual({
      problem: 'count',
      field: 'addOns.0.count',
    });
  });

  it('sells a module with no industries to every industry, and one with a list to those only', () => {
    expect(offeredToIndustry({}, 'restaurant')).toBe(true);
    expect(offeredToIndustry({ industries: [] }, 'restaurant')).toBe(true);
    expect(offeredToIndustry({ industries: ['retail'] }, 'restaurant')).toBe(false);
    expect(offeredToIndustry({ industries: ['retail', 'restaurant'] }, 'restaurant')).toBe(true);
  });
});
