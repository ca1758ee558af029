import { describe, expect, it } from 'vitest';
import { addDays, anchoredDay, dayOf, daysBetween, daysInMonth, isLeapYear, parseDay, startOfDay } from './calendar.ts';

describe('billing calendar', () => {
  it('knows leap years: every fourth, not centuries, but every fourth century', () => {
    expect([2024, 2028, 2000, 2400].map(isLeapYear)).toEqual([true, true, true, true]);
    expect([2026, 2100, 1900, 2027].map(isLeapYear)).toEqual([false, false, false, false]);
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(2026, 4)).toBe(30);
    expect(daysInMonth(2026, 12)).toBe(31);
  });

  it('clamps an anchor on the 31st to the last day of shorter months, and comes back to the 31st', () => {
    const start = '2026-01-31';
    expect([1, 2, 3, 4, 5, 6].map((months) => anchoredDay(start, months, 31))).toEqual([
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
    ]);
    expect(anchoredDay('2027-08-31', 6, 31)).toBe('2028-02-29');
    expect(anchoredDay('2027-12-30', 2, 30)).toBe('2028-02-29');
    expect(anchoredDay('2026-12-29', 2, 29)).toBe('2027-02-28');
    expect(anchoredDay('2026-11-15', 3, 15)).toBe('2027-02-15');
  });

  it('crosses years both ways', () => {
    expect(anchoredDay('2026-11-30', 14, 30)).toBe('2028-01-30');
    expect(anchoredDay('2026-03-31', -1, 31)).toBe('2026-02-28');
    expect(anchoredDay('2026-01-10', -1, 10)).toBe('2025-12-10');
  });

  it('reads the day in Hong Kong and starts it at midnight there', () => {
    expect(dayOf(new Date('2026-02-28T15:59:59Z'))).toBe('2026-02-28');
    expect(dayOf(new Date('2026-02-28T16:00:00Z'))).toBe('2026-03-01');
    expect(startOfDay('2026-03-01')).toEqual(new Date('2026-02-28T16:00:00Z'));
  });

  it('counts days across month ends and leap days', () => {
    expect(daysBetween('2028-02-01', '2028-03-01')).toBe(29);
    expect(daysBetween('2026-02-01', '2026-03-01')).toBe(28);
    expect(daysBetween('2026-03-01', '2026-02-01')).toBe(-28);
    expect(daysBetween('2026-01-31', '2027-01-31')).toBe(365);
    expect(daysBetween('2027-06-15', '2028-06-15')).toBe(366);
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('refuses what is not a day', () => {
    expect(() => parseDay('2026-02-29')).toThrow(RangeError);
    expect(() => parseDay('2026-13-01')).toThrow(RangeError);
    expect(() => parseDay('26-1-1')).toThrow(RangeError);
    expect(() => anchoredDay('2026-01-01', 1, 32)).toThrow(RangeError);
    expect(() => anchoredDay('2026-01-01', 1.5, 1)).toThrow(RangeError);
  });
});
