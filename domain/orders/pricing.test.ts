import { describe, expect, it } from 'vitest';
import { quote } from '../pricing.ts';
import { type ModuleToPrice, OrderPricingError, priceOrder, type TemplateToPrice, termMonths } from './pricing.ts';

const lite: TemplateToPrice = {
  _id: 'tpl-lite',
  key: 'restaurant-lite',
  name: { en: 'Restaurant Lite' },
  type: 'lite',
  monthPrice: 68_800,
  currency: 'HKD',
  contractMonths: 0,
  modules: [{ id: 'mod-qr', count: 1 }],
};
const flexiPlus: TemplateToPrice = {
  ...lite,
  _id: 'tpl-plus',
  key: 'restaurant-flexi-plus',
  type: 'enterprise',
  monthPrice: 0,
  contractMonths: 24,
};

const module = (over: Partial<ModuleToPrice> & { _id: string }): ModuleToPrice => ({
  key: over._id.replace('mod-', ''),
  name: { en: over._id },
  counter: false,
  monthPrice: 10_000,
  currency: 'HKD',
  billing: 'monthly',
  released: true,
  ...over,
});

const catalogue = [
  module({ _id: 'mod-qr' }),
  module({ _id: 'mod-kds', counter: true, monthPrice: 15_000 }),
  module({ _id: 'mod-loyalty', billing: 'yearly', monthPrice: 120_000 }),
  module({ _id: 'mod-setup', billing: 'one_time', monthPrice: 50_000 }),
  module({ _id: 'mod-soon', released: false }),
];

describe('priceOrder', () => {
  it('prices a Hong Kong order in HKD with no tax line, each line adding to the quote', () => {
    const price = priceOrder(
      lite,
      catalogue,
      { addOns: [{ id: 'mod-kds', count: 2 }, { id: 'loyalty' }, { id: 'mod-setup' }], prepaidMonths: 24 },
      'HK',
    );
    expect(price).toMatchObject({
      seller: 'HK',
      currency: 'HKD',
      taxRate: 0,
      tax: 0,
      taxInclusive: false,
      contractMonths: 0,
      prepaidMonths: 24,
    });
    expect(
      price.items.map((line) => [line.kind, line.key, line.billing, line.unitPrice, line.count, line.amount]),
    ).toEqual([
      ['plan', 'restaurant-lite', 'monthly', 68_800, 1, 68_800 * 24],
      ['addon', 'kds', 'monthly', 15_000, 2, 15_000 * 2 * 24],
      ['addon', 'loyalty', 'yearly', 120_000, 1, 120_000 * 2],
      ['addon', 'setup', 'one_time', 50_000, 1, 50_000],
    ]);
    const calculator = quote({
      monthPrice: 68_800,
      currency: 'HKD',
      type: 'lite',
      prepaidMonths: 24,
      addOns: [
        { price: 15_000, billing: 'monthly', counter: true, count: 2 },
        { price: 120_000, billing: 'yearly', counter: false, count: 1 },
        { price: 50_000, billing: 'one_time', counter: false, count: 1 },
      ],
    });
    expect(price.subtotal).toBe(calculator.prepaid);
    expect(price.total).toBe(calculator.prepaid);
    expect(price.monthly).toBe(68_800 + 30_000);
  });

  it('prices a Singapore order in SGD, GST-inclusive: the total is the calculator’s, with the GST it holds', () => {
    const price = priceOrder(lite, catalogue, { addOns: [], prepaidMonths: 12 }, 'SG');
    const calculator = quote(
      { monthPrice: 68_800, currency: 'HKD', type: 'lite', prepaidMonths: 12, addOns: [] },
      'SGD',
    );
    expect(price).toMatchObject({ seller: 'SG', currency: 'SGD', taxRate: 900, taxInclusive: true });
    expect(price.total).toBe(calculator.prepaid);
    expect(price.subtotal).toBe(price.total);
    expect(price.tax).toBe(Math.round((price.total * 900) / 10_900));
    expect(price.tax).toBeGreaterThan(0);
  });

  it('sells Malaysia, Taiwan and Australia from Hong Kong in HKD', () => {
    for (const country of ['MY', 'TW', 'AU'] as const) {
      expect(priceOrder(lite, catalogue, { addOns: [], prepaidMonths: 24 }, country)).toMatchObject({
        seller: 'HK',
        currency: 'HKD',
        tax: 0,
      });
    }
  });

  it('refuses enterprise plans, which go to the enquiry form', () => {
    expect(() => priceOrder(flexiPlus, catalogue, { addOns: [], prepaidMonths: 24 }, 'HK')).toThrow(OrderPricingError);
  });

  const problem = (choice: Parameters<typeof priceOrder>[2]) => {
    try {
      priceOrder(lite, catalogue, choice, 'HK');
    } catch (error) {
      if (error instanceof OrderPricingError) return [error.problem, error.field];
      throw error;
    }
    return null;
  };

  it('names what cannot be priced', () => {
    expect(problem({ addOns: [], prepaidMonths: 18 })).toEqual(['prepaidMonths', 'prepaidMonths']);
    expect(problem({ addOns: [{ id: 'mod-nope' }], prepaidMonths: 24 })).toEqual(['unknownAddOn', 'addOns.0']);
    expect(problem({ addOns: [{ id: 'mod-soon' }], prepaidMonths: 24 })).toEqual(['unknownAddOn', 'addOns.0']);
    expect(problem({ addOns: [{ id: 'mod-qr' }], prepaidMonths: 24 })).toEqual(['includedAddOn', 'addOns.0']);
    expect(problem({ addOns: [{ id: 'mod-kds' }, { id: 'kds' }], prepaidMonths: 24 })).toEqual([
      'duplicateAddOn',
      'addOns.1',
    ]);
    expect(problem({ addOns: [{ id: 'mod-kds', count: 11 }], prepaidMonths: 24 })).toEqual(['count', 'addOns.0.count']);
    expect(problem({ addOns: [{ id: 'mod-kds', count: 0 }], prepaidMonths: 24 })).toEqual(['count', 'addOns.0.count']);
    expect(problem({ addOns: [{ id: 'mod-setup', count: 2 }], prepaidMonths: 24 })).toEqual([
      'count',
      'addOns.0.count',
    ]);
    expect(problem({ addOns: [{ id: 'mod-kds', count: 1.5 }], prepaidMonths: 24 })).toEqual([
      'count',
      'addOns.0.count',
    ]);
  });
});

describe('termMonths', () => {
  it('runs the contract for the longer of the contract and the prepaid months', () => {
    expect(termMonths(12, 24)).toBe(24);
    expect(termMonths(12, 12)).toBe(12);
    expect(termMonths(0, 36)).toBe(36);
    expect(termMonths(24, 12)).toBe(24);
  });
});
