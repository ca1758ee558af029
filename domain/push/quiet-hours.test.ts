import { describe, expect, it } from 'vitest';
import { deliveryTime, isQuiet, knownTimeZone } from './quiet-hours.ts';

const at = (iso: string) => new Date(iso);

describe('quiet hours', () => {
  it('deliver at once on the device’s daytime clock', () => {
    expect(deliveryTime(at('2026-12-01T04:00:00Z'), 'Asia/Hong_Kong')).toEqual(at('2026-12-01T04:00:00Z'));
    // 08:00 is the first minute allowed, 21:59 the last.
    expect(deliveryTime(at('2026-12-01T00:00:00Z'), 'Asia/Hong_Kong')).toEqual(at('2026-12-01T00:00:00Z'));
    expect(deliveryTime(at('2026-12-01T13:59:00Z'), 'Asia/Hong_Kong')).toEqual(at('2026-12-01T13:59:00Z'));
  });

  it('hold a message due in the night until the next 08:00 on the device’s clock', () => {
    // 22:00 and 23:30 in Hong Kong wait for tomorrow's 08:00 (00:00Z).
    expect(deliveryTime(at('2026-12-01T14:00:00Z'), 'Asia/Hong_Kong')).toEqual(at('2026-12-02T00:00:00Z'));
    expect(deliveryTime(at('2026-12-01T15:30:00Z'), 'Asia/Hong_Kong')).toEqual(at('2026-12-02T00:00:00Z'));
    // 07:59 waits a minute, for today's 08:00.
    expect(deliveryTime(at('2026-12-01T23:59:00Z'), 'Asia/Hong_Kong')).toEqual(at('2026-12-02T00:00:00Z'));
    // The same instant is daytime in Toronto (10:59 EST): delivered at once there.
    expect(deliveryTime(at('2026-12-01T15:59:00Z'), 'America/Toronto')).toEqual(at('2026-12-01T15:59:00Z'));
  });

  it('follow the device’s daylight saving time', () => {
    // Toronto springs forward on 8 March 2026: 08:00 that morning is EDT (12:00Z), the evening before EST.
    expect(deliveryTime(at('2026-03-08T04:00:00Z'), 'America/Toronto')).toEqual(at('2026-03-08T12:00:00Z'));
    // And falls back on 1 November 2026: 08:00 that morning is EST (13:00Z).
    expect(deliveryTime(at('2026-11-01T04:00:00Z'), 'America/Toronto')).toEqual(at('2026-11-01T13:00:00Z'));
    // London at 23:00 on 31 December waits for 08:00 on New Year's Day, across the year's end.
    expect(deliveryTime(at('2026-12-31T23:00:00Z'), 'Europe/London')).toEqual(at('2027-01-01T08:00:00Z'));
  });

  it('let an urgent message through at any hour', () => {
    expect(deliveryTime(at('2026-12-01T18:00:00Z'), 'Asia/Hong_Kong', true)).toEqual(at('2026-12-01T18:00:00Z'));
  });

  it('read a device without a known time zone on Hong Kong’s clock', () => {
    expect(knownTimeZone('Mars/Olympus_Mons')).toBe('Asia/Hong_Kong');
    expect(knownTimeZone(null)).toBe('Asia/Hong_Kong');
    expect(knownTimeZone('Asia/Singapore')).toBe('Asia/Singapore');
    expect(isQuiet(at('2026-12-01T15:00:00Z'), 'Not/AZone')).toBe(true);
    expect(deliveryTime(at('2026-12-01T15:00:00Z'), 'Not/AZone')).toEqual(at('2026-12-02T00:00:00Z'));
  });
});
