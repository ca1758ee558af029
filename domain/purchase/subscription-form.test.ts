import { describe, expect, it } from 'vitest';
import { EMPTY_SHIPPING, shippingComplete } from '../forms/shipping-fields.ts';
import {
  allowedStep,
  applyChoice,
  changeForm,
  choiceFromQuery,
  emptyForm,
  firstIncompleteStep,
  landingStep,
  parseForm,
  serialiseForm,
  type SubscriptionForm,
} from './subscription-form.ts';

const catalogue = {
  industries: [
    { _id: 'ind-restaurant', key: 'restaurant' },
    { _id: 'ind-retail', key: 'retail' },
  ],
  plans: [
    { _id: 'plan-r-lite', key: 'restaurant-lite', industry: 'ind-restaurant', type: 'lite' },
    { _id: 'plan-r-flexi', key: 'restaurant-flexi', industry: 'ind-restaurant', type: 'flexi' },
    { _id: 'plan-r-plus', key: 'restaurant-flexi-plus', industry: 'ind-restaurant', type: 'enterprise' },
    { _id: 'plan-s-lite', key: 'retail-lite', industry: 'ind-retail', type: 'lite' },
  ],
  addOns: [
    { _id: 'mod-kds', key: 'kds', counter: true },
    { _id: 'mod-loyalty', key: 'loyalty', counter: false },
  ],
};

const shipping = {
  ...EMPTY_SHIPPING,
  contactPerson: 'Chan Tai Man',
  contactNumber: '2345 6789',
  street: '1 Queen’s Road Central',
  city: 'Hong Kong',
  country: 'HK',
  shippingDate: '2026-08-03',
};

function chosen(overrides: Partial<SubscriptionForm['planInfo']> = {}): SubscriptionForm {
  return {
    ...emptyForm('11111111-1111-4111-8111-111111111111'),
    industryId: 'ind-restaurant',
    planInfo: {
      planId: 'plan-r-lite',
      addOns: [{ id: 'mod-kds', count: 2 }],
      prepaidMonths: 24,
      period: 'monthly',
      ...overrides,
    },
  };
}

describe('the subscription form in localStorage', () => {
  it('survives a round trip unchanged', () => {
    const form = { ...chosen(), shippingInfo: shipping, orderId: 'order-1' };
    expect(parseForm(serialiseForm(form))).toEqual(form);
    const yearly = chosen({ period: 'annual' });
    expect(parseForm(serialiseForm(yearly))?.planInfo.period).toBe('annual');
  });

  it('reads a billing period it does not know, or none (an older page’s state), as monthly; another period is another order', () => {
    const stored = JSON.parse(serialiseForm(chosen())) as { planInfo: Record<string, unknown> };
    delete stored.planInfo.period;
    expect(parseForm(JSON.stringify(stored))?.planInfo.period).toBe('monthly');
    stored.planInfo.period = 'weekly';
    expect(parseForm(JSON.stringify(stored))?.planInfo.period).toBe('monthly');
    const monthly = chosen();
    const changed = changeForm(monthly, { ...monthly, planInfo: { ...monthly.planInfo, period: 'annual' } });
    expect(changed.idempotencyKey).not.toBe(monthly.idempotencyKey);
  });

  it('reads nothing from nothing or from what is not JSON', () => {
    expect(parseForm(null)).toBeNull();
    expect(parseForm('')).toBeNull();
    expect(parseForm('{not json')).toBeNull();
    expect(parseForm('[1,2]')).toBeNull();
    expect(parseForm('"text"')).toBeNull();
  });

  it('takes a damaged state field by field: counts within 1 to 10, months from the offer, no duplicates', () => {
    const form = parseForm(
      JSON.stringify({
        industryId: 'ind-restaurant',
        planInfo: {
          planId: { $ne: null },
          addOns: [
            { id: 'mod-kds', count: 99 },
            { id: 'mod-kds', count: 3 },
            { id: 'a b' },
            { id: 'mod-loyalty', count: -4 },
            'x',
          ],
          prepaidMonths: 7,
        },
        shippingInfo: { contactPerson: 'A', country: 'FR', extra: 'dropped', city: 42 },
        idempotencyKey: 'short',
      }),
    );
    expect(form?.industryId).toBe('ind-restaurant');
    expect(form?.planInfo).toEqual({
      planId: null,
      addOns: [
        { id: 'mod-kds', count: 10 },
        { id: 'mod-loyalty', count: 1 },
      ],
      prepaidMonths: 24,
      period: 'monthly',
    });
    expect(form?.shippingInfo).toEqual({ ...EMPTY_SHIPPING, contactPerson: 'A' });
    // A missing or malformed key is replaced by a fresh one.
    expect(form?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the idempotency key while the order stays the same, and takes a fresh one when it changes', () => {
    const form = { ...chosen(), orderId: 'order-1' };
    const same = changeForm(form, { ...form, planInfo: { ...form.planInfo, addOns: [...form.planInfo.addOns] } });
    expect(same.idempotencyKey).toBe(form.idempotencyKey);
    expect(same.orderId).toBe('order-1');

    for (const next of [
      { ...form, planInfo: { ...form.planInfo, prepaidMonths: 36 } },
      { ...form, planInfo: { ...form.planInfo, addOns: [{ id: 'mod-kds', count: 3 }] } },
      { ...form, planInfo: { ...form.planInfo, planId: 'plan-r-flexi' } },
      { ...form, shippingInfo: { ...form.shippingInfo, city: 'Kowloon' } },
    ]) {
      const changed = changeForm(form, next);
      expect(changed.idempotencyKey).not.toBe(form.idempotencyKey);
      expect(changed.orderId).toBeUndefined();
    }
  });
});

describe('arriving from the calculator or a plan page', () => {
  it('reads the calculator query into ids, counts and months, and lands on the summary', () => {
    const choice = choiceFromQuery(
      new URLSearchParams('industry=restaurant&addons=kds:2,loyalty,unknown:3&months=36&plan=restaurant-flexi'),
      catalogue,
    );
    expect(choice).toEqual({
      industryId: 'ind-restaurant',
      planId: 'plan-r-flexi',
      addOns: [
        { id: 'mod-kds', count: 2 },
        { id: 'mod-loyalty', count: 1 },
      ],
      prepaidMonths: 36,
      given: true,
    });
    expect(landingStep(choice)).toBe('summary');
  });

  it('lands on the add-ons with a plan and no add-ons, on the plans without a plan', () => {
    const planOnly = choiceFromQuery(new URLSearchParams('industry=restaurant&plan=restaurant-lite'), catalogue);
    expect(planOnly).toMatchObject({
      industryId: 'ind-restaurant',
      planId: 'plan-r-lite',
      addOns: [],
      prepaidMonths: 24,
    });
    expect(landingStep(planOnly)).toBe('addons');
    expect(landingStep(choiceFromQuery(new URLSearchParams('industry=retail&addons=kds'), catalogue))).toBe('plan');
    // The plan alone names its industry.
    expect(choiceFromQuery(new URLSearchParams('plan=retail-lite'), catalogue)).toMatchObject({
      industryId: 'ind-retail',
      planId: 'plan-s-lite',
    });
  });

  it('never chooses an enterprise plan or a plan of another industry', () => {
    expect(
      choiceFromQuery(new URLSearchParams('industry=restaurant&plan=restaurant-flexi-plus'), catalogue).planId,
    ).toBeNull();
    expect(choiceFromQuery(new URLSearchParams('industry=retail&plan=restaurant-lite'), catalogue)).toMatchObject({
      industryId: 'ind-retail',
      planId: null,
    });
  });

  it('replaces the stored choice and keeps the shipping details; no query keeps everything', () => {
    const stored = { ...chosen(), shippingInfo: shipping };
    const choice = choiceFromQuery(
      new URLSearchParams('industry=restaurant&plan=restaurant-flexi&addons=loyalty'),
      catalogue,
    );
    const next = applyChoice(stored, choice);
    expect(next.planInfo).toEqual({
      planId: 'plan-r-flexi',
      addOns: [{ id: 'mod-loyalty', count: 1 }],
      prepaidMonths: 24,
      period: 'monthly',
    });
    expect(next.shippingInfo).toEqual(shipping);
    expect(next.idempotencyKey).not.toBe(stored.idempotencyKey);
    const none = choiceFromQuery(new URLSearchParams('step=summary'), catalogue);
    expect(none.given).toBe(false);
    expect(applyChoice(stored, none)).toBe(stored);
  });
});

describe('which step can be shown', () => {
  const frontier = (form: SubscriptionForm, buyer?: { signedIn: boolean; emailVerified: boolean }) =>
    firstIncompleteStep(form, catalogue, shippingComplete, buyer);

  it('sends a step that needs an earlier choice to the first incomplete step', () => {
    expect(frontier(emptyForm())).toBe('industry');
    expect(allowedStep('summary', frontier(emptyForm()))).toBe('industry');
    const noPlan = {
      ...chosen(),
      planInfo: { planId: null, addOns: [], prepaidMonths: 24, period: 'monthly' as const },
    };
    expect(allowedStep('addons', frontier(noPlan))).toBe('plan');
    expect(allowedStep('industry', frontier(noPlan))).toBe('industry');
    // A plan of another industry, or Flexi+, is no choice.
    expect(frontier({ ...chosen(), industryId: 'ind-retail' })).toBe('plan');
    expect(frontier(chosen({ planId: 'plan-r-plus' }))).toBe('plan');
  });

  it('opens add-ons and the summary with a plan, the account after complete shipping, payment after a verified email', () => {
    expect(frontier(chosen())).toBe('shipping');
    expect(allowedStep('summary', frontier(chosen()))).toBe('summary');
    expect(allowedStep('payment', frontier(chosen()))).toBe('shipping');
    const shipped = { ...chosen(), shippingInfo: shipping };
    expect(frontier(shipped)).toBe('account');
    expect(frontier(shipped, { signedIn: true, emailVerified: false })).toBe('verify');
    expect(frontier(shipped, { signedIn: true, emailVerified: true })).toBe('payment');
    // Singapore needs a postcode; Hong Kong has none.
    expect(frontier({ ...shipped, shippingInfo: { ...shipping, country: 'SG' } })).toBe('shipping');
    expect(frontier({ ...shipped, shippingInfo: { ...shipping, country: 'SG', zipcode: '049315' } })).toBe('account');
  });
});
