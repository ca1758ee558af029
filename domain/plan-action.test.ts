import { describe, expect, it } from 'vitest';
import { planAction, planActionKind } from './plan-action.ts';

const targets = {
  subscription: '/zh-hk/subscription',
  enquiry: '/zh-hk/enquiryForm',
  chat: 'https://wa.me/85230012345',
};
const flexi = { type: 'flexi', key: 'restaurant-flexi' };
const flexiPlus = { type: 'enterprise', key: 'restaurant-flexi-plus' };
const on = { subscription: true, contactForm: true };

describe('the main button of a plan', () => {
  it('subscribes to a listed plan while subscriptions are on, carrying the choice', () => {
    expect(planAction(on, flexi, targets, 'industry=restaurant&addons=kds%3A2')).toEqual({
      kind: 'subscribe',
      href: '/zh-hk/subscription?industry=restaurant&addons=kds%3A2',
      external: false,
    });
    expect(planAction({ subscription: true, contactForm: false }, { type: 'lite' }, targets).href).toBe(
      '/zh-hk/subscription',
    );
  });

  it('sends an enterprise plan to the enquiry form even while subscriptions are on', () => {
    expect(planAction(on, flexiPlus, targets, 'industry=restaurant')).toEqual({
      kind: 'enquire',
      href: '/zh-hk/enquiryForm?plan=restaurant-flexi-plus',
      external: false,
    });
  });

  it('enquires while subscriptions are off and the contact form is on', () => {
    expect(planAction({ subscription: false, contactForm: true }, flexi, targets)).toEqual({
      kind: 'enquire',
      href: '/zh-hk/enquiryForm?plan=restaurant-flexi',
      external: false,
    });
    // A plan without a key (or no plan at all) opens the form with nothing chosen.
    expect(planAction({ subscription: false, contactForm: true }, { type: 'flexi' }, targets).href).toBe(
      '/zh-hk/enquiryForm',
    );
    expect(planAction(on, null, targets).href).toBe('/zh-hk/enquiryForm');
  });

  it('falls back to the chat, in a new tab, when both are off', () => {
    const off = { subscription: false, contactForm: false };
    expect(planAction(off, flexi, targets)).toEqual({
      kind: 'chat',
      href: 'https://wa.me/85230012345',
      external: true,
    });
    expect(planActionKind({ subscription: true, contactForm: false }, flexiPlus)).toBe('chat');
    expect(planActionKind(off, null)).toBe('chat');
  });
});
