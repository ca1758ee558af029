import { describe, expect, it } from 'vitest';
import { deliveryDates, isDeliveryDate, isWorkingDay } from './delivery-dates.ts';

// Monday 21 December 2026, 10:00 in Hong Kong.
const beforeChristmas = new Date('2026-12-21T02:00:00Z');
// Thursday 6 August 2026, 10:00 in Hong Kong: Singapore's National Day falls on Sunday the 9th, observed Monday the 10th.
const beforeNationalDay = new Date('2026-08-06T02:00:00Z');

describe('delivery dates', () => {
  it("start on the second working day and skip Hong Kong's Christmas holidays and weekends", () => {
    const dates = deliveryDates('HK', { now: beforeChristmas });
    expect(dates.slice(0, 4)).toEqual(['2026-12-23', '2026-12-24', '2026-12-28', '2026-12-29']);
    expect(dates).not.toContain('2026-12-25');
    expect(dates).not.toContain('2027-01-01');
  });

  it("skip Singapore's National Day holiday (and count working days past it)", () => {
    expect(deliveryDates('SG', { now: beforeNationalDay }).slice(0, 2)).toEqual(['2026-08-11', '2026-08-12']);
    expect(deliveryDates('HK', { now: beforeNationalDay })[0]).toBe('2026-08-10');
  });

  it('read today in Hong Kong: 01:00 on Monday there is still Sunday in UTC', () => {
    expect(deliveryDates('HK', { now: new Date('2026-12-20T17:00:00Z') })[0]).toBe('2026-12-23');
  });

  it('reach 60 days ahead, weekdays only', () => {
    const dates = deliveryDates('AU', { now: beforeChristmas });
    expect(dates.at(-1)! <= '2027-02-19').toBe(true);
    expect(dates.at(-1)! >= '2027-02-15').toBe(true);
    for (const day of dates) expect([0, 6]).not.toContain(new Date(`${day}T00:00:00Z`).getUTCDay());
    expect(dates).not.toContain('2027-01-26'); // Australia Day
  });

  it('answer whether one day can be booked', () => {
    expect(isDeliveryDate('HK', '2026-12-23', { now: beforeChristmas })).toBe(true);
    expect(isDeliveryDate('HK', '2026-12-22', { now: beforeChristmas })).toBe(false);
    expect(isDeliveryDate('HK', '2026-12-25', { now: beforeChristmas })).toBe(false);
    expect(isWorkingDay('MY', '2026-12-25')).toBe(false);
  });
});
