import { describe, expect, it } from 'vitest';
import { type CatalogueModule, subscriptionOverview, type SubscriptionFacts } from './overview.ts';

const name = (en: string) => ({ en });
const catalogue: CatalogueModule[] = [
  {
    _id: 'kds',
    key: 'kds',
    name: name('KDS'),
    counter: true,
    monthPrice: 18800,
    currency: 'HKD',
    billing: 'monthly',
    released: true,
  },
  {
    _id: 'qr',
    key: 'qr-self-order',
    name: name('QR'),
    counter: false,
    monthPrice: 38800,
    currency: 'HKD',
    billing: 'monthly',
    released: true,
  },
  {
    _id: 'purchasing',
    key: 'purchasing',
    name: name('Purchasing'),
    counter: false,
    monthPrice: 380000,
    currency: 'HKD',
    billing: 'one_time',
    released: true,
  },
  {
    _id: 'warranty',
    key: 'warranty',
    name: name('Warranty'),
    counter: false,
    monthPrice: 238800,
    currency: 'HKD',
    billing: 'yearly',
    released: false,
  },
  {
    _id: 'loyalty',
    key: 'loyalty',
    name: name('Loyalty'),
    counter: false,
    monthPrice: 32800,
    currency: 'HKD',
    billing: 'monthly',
    released: true,
  },
];

// Flexi paid at 15:00 on 31 March 2026 in Hong Kong, 24 months ahead, with two KDS screens and loyalty included.
const flexi: SubscriptionFacts = {
  contractStart: new Date('2026-03-31T07:00:00Z'),
  billingAnchorDay: 31,
  prepaidMonths: 24,
  contractMonths: 12,
  period: 'monthly',
  currency: 'HKD',
  monthly: 212500 + 2 * 18800,
  modules: [
    { id: 'loyalty', count: 1, monthPrice: 0 },
    { id: 'kds', count: 2, monthPrice: 18800, billing: 'monthly' },
  ],
};
const paidInFull = {
  invoices: [{ total: (212500 + 2 * 18800) * 24, currency: 'HKD', status: 'issued' }],
  payments: [{ amount: (212500 + 2 * 18800) * 24, currency: 'HKD', status: 'succeeded' }],
  catalogue,
};

describe('subscription overview', () => {
  it('shows a prepaid subscription: term, months used and left, the next charge after the prepaid term', () => {
    const overview = subscriptionOverview(flexi, paidInFull, new Date('2026-11-25T04:00:00Z'));
    expect(overview).toMatchObject({
      currency: 'HKD',
      period: 'monthly',
      contractStart: '2026-03-31',
      contractEnd: '2028-03-31',
      contractMonths: 12,
      prepaidMonths: 24,
      prepaidEnd: '2028-03-31',
      billingAnchorDay: 31,
      currentPeriod: { start: '2026-03-31', end: '2028-03-31', prepaid: true },
      nextPayDate: '2028-03-31',
      nextPayAmount: 250100,
      balance: { amount: 0, state: 'settled' },
      basicMonthlyFee: 212500,
      monthly: 250100,
      prepaid: { months: 24, used: 7, left: 17 },
    });
    expect(overview.activated).toEqual([
      {
        id: 'loyalty',
        count: 1,
        included: true,
        billing: 'monthly',
        unitPrice: 0,
        pending: false,
        availableOn: null,
        suspended: false,
        ended: false,
      },
      {
        id: 'kds',
        count: 2,
        included: false,
        billing: 'monthly',
        unitPrice: 18800,
        pending: false,
        availableOn: null,
        suspended: false,
        ended: false,
      },
    ]);
    // Released modules not active; the unreleased one is left out.
    expect(overview.inactiveAddOns.map((module) => [module.id, module.unitPrice, module.billing])).toEqual([
      ['qr', 38800, 'monthly'],
      ['purchasing', 380000, 'one_time'],
    ]);
  });

  it('bills monthly once the prepaid months are over, on the clamped anchor day', () => {
    const overview = subscriptionOverview(flexi, paidInFull, new Date('2028-04-10T04:00:00Z'));
    expect(overview).toMatchObject({
      nextPayDate: '2028-04-30',
      currentPeriod: { start: '2028-03-31', end: '2028-04-30', prepaid: false },
      prepaid: null,
      nextPayAmount: 250100,
    });
  });

  it('adds what is due to the next charge and takes a credit off it', () => {
    const due = subscriptionOverview(flexi, { ...paidInFull, payments: [] }, new Date('2026-11-25T04:00:00Z'));
    expect(due.balance).toMatchObject({ amount: -(212500 + 2 * 18800) * 24, state: 'due' });
    expect(due.nextPayAmount).toBe(250100 * 25);
    const credit = subscriptionOverview(
      flexi,
      { ...paidInFull, payments: [...paidInFull.payments, { amount: 50000, currency: 'HKD', status: 'succeeded' }] },
      new Date('2026-11-25T04:00:00Z'),
    );
    expect(credit.balance).toMatchObject({ amount: 50000, state: 'credit' });
    expect(credit.nextPayAmount).toBe(200100);
  });

  it('prices the add-ons in the subscription currency, and charges yearly ones on the anniversaries not prepaid', () => {
    const singapore: SubscriptionFacts = {
      ...flexi,
      currency: 'SGD',
      monthly: 37000,
      prepaidMonths: 12,
      modules: [{ id: 'warranty', count: 1, monthPrice: 40000, billing: 'yearly' }],
    };
    const overview = subscriptionOverview(
      singapore,
      { invoices: [], payments: [], catalogue },
      new Date('2026-12-01T04:00:00Z'),
      { HKD: 1, SGD: 0.17 },
    );
    expect(overview.inactiveAddOns.find((module) => module.id === 'kds')?.unitPrice).toBe(3196);
    expect(overview.nextPayDate).toBe('2027-03-31');
    expect(overview.nextPayAmount).toBe(37000 + 40000);
    expect(overview.basicMonthlyFee).toBe(37000);
  });

  it('shows an add-on bought on an upgrade as pending until it is set up, and offers only the add-ons sold to the industry', () => {
    const upgraded: SubscriptionFacts = {
      ...flexi,
      industry: 'restaurant',
      modules: [
        ...flexi.modules,
        { id: 'qr', count: 1, monthPrice: 38800, billing: 'monthly', status: 'pending', availableOn: '2026-11-27' },
      ],
    };
    const retailOnly = catalogue.map((module) =>
      module._id === 'purchasing' ? { ...module, industries: ['retail'] } : module,
    );
    const overview = subscriptionOverview(
      upgraded,
      { ...paidInFull, catalogue: retailOnly },
      new Date('2026-11-25T04:00:00Z'),
    );
    expect(overview.activated.find((module) => module.id === 'qr')).toMatchObject({
      pending: true,
      availableOn: '2026-11-27',
    });
    expect(overview.activated.find((module) => module.id === 'kds')).toMatchObject({
      pending: false,
      availableOn: null,
    });
    expect(overview.inactiveAddOns.map((module) => module.id)).toEqual([]);
    const retail = subscriptionOverview(
      { ...upgraded, industry: 'retail' },
      { ...paidInFull, catalogue: retailOnly },
      new Date('2026-11-25T04:00:00Z'),
    );
    expect(retail.inactiveAddOns.map((module) => module.id)).toEqual(['purchasing']);
  });
});
