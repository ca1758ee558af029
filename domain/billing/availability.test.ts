import { describe, expect, it } from 'vitest';
import { estimatedAvailableDay } from './availability.ts';

describe('estimated available day of an add-on', () => {
  it("counts two working days of the member's country, skipping weekends and public holidays", () => {
    // Wednesday 23 December 2026, 10:00 in Hong Kong: 24 Dec, then 25 and 26 (holidays) and the weekend are skipped.
    expect(estimatedAvailableDay('HK', new Date('2026-12-23T02:00:00Z'))).toBe('2026-12-28');
    // Singapore has only Christmas Day off.
    expect(estimatedAvailableDay('SG', new Date('2026-12-23T02:00:00Z'))).toBe('2026-12-28');
    // Friday 7 August 2026: Singapore's National Day (Sunday the 9th) is observed on Monday the 10th.
    expect(estimatedAvailableDay('SG', new Date('2026-08-07T02:00:00Z'))).toBe('2026-08-12');
    expect(estimatedAvailableDay('HK', new Date('2026-08-07T02:00:00Z'))).toBe('2026-08-11');
  });

  it('reads today in Hong Kong', () => {
    // 20:00 UTC on Friday is 04:00 on Saturday in Hong Kong.
    expect(estimatedAvailableDay('AU', new Date('2026-11-20T20:00:00Z'))).toBe('2026-11-24');
  });
});
