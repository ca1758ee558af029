import { describe, expect, it } from 'vitest';
import { choiceQuery, parseChoice, subscriptionQuery } from './calculator.ts';

describe('the calculator choice in the URL', () => {
  it('reads and writes the shareable form', () => {
    const choice = parseChoice(new URLSearchParams('industry=restaurant&addons=kds:3,loyalty&months=36'));
    expect(choice).toEqual({
      industry: 'restaurant',
      addOns: new Map([
        ['kds', 3],
        ['loyalty', 1],
      ]),
      months: 36,
    });
    expect(choiceQuery(choice)).toBe('industry=restaurant&addons=kds%3A3%2Cloyalty&months=36');
    expect(parseChoice(new URLSearchParams(choiceQuery(choice)))).toEqual(choice);
  });

  it('reads the plain form a browser without JavaScript sends', () => {
    const choice = parseChoice(
      new URLSearchParams('industry=retail&addon=kds&count-kds=2&addon=online-shop&months=12'),
    );
    expect([...choice.addOns]).toEqual([
      ['kds', 2],
      ['online-shop', 1],
    ]);
    expect(choice.months).toBe(12);
  });

  it('falls back to defaults for anything malformed, and keeps counts within 1 to 10', () => {
    const choice = parseChoice(new URLSearchParams('addons=kds:99,BAD KEY,ods:-4,kiosk-self-order:abc&months=7'));
    expect([...choice.addOns]).toEqual([
      ['kds', 10],
      ['ods', 1],
      ['kiosk-self-order', 1],
    ]);
    expect(choice.months).toBe(24);
    expect(choice.industry).toBeNull();
    expect(choiceQuery(parseChoice(new URLSearchParams('')))).toBe('');
  });

  it('hands the subscription flow the choice and the plan it was made on', () => {
    const choice = parseChoice(new URLSearchParams('industry=restaurant&addons=kds:2,loyalty'));
    expect(subscriptionQuery(choice, 'restaurant-flexi')).toBe(
      'industry=restaurant&addons=kds%3A2%2Cloyalty&plan=restaurant-flexi',
    );
    expect(subscriptionQuery(choice, null)).toBe('industry=restaurant&addons=kds%3A2%2Cloyalty');
    expect(subscriptionQuery(parseChoice(new URLSearchParams('')), 'retail-lite')).toBe('plan=retail-lite');
  });
});
