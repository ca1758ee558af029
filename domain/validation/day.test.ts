import { describe, expect, it } from 'vitest';
import { birthDaySchema, isDay, todayInHongKong } from './day.ts';

describe('days', () => {
  it('knows a day that exists from one that does not', () => {
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2023-02-29')).toBe(false);
    expect(isDay('2026-04-31')).toBe(false);
    expect(isDay('2026-4-3')).toBe(false);
    expect(isDay('2026-11-29T00:00:00Z')).toBe(false);
  });

  it('takes today in Hong Kong, which starts eight hours before UTC’s', () => {
    expect(todayInHongKong(new Date('2026-11-28T16:00:00Z'))).toBe('2026-11-29');
    expect(todayInHongKong(new Date('2026-11-28T15:59:59Z'))).toBe('2026-11-28');
  });

  it('refuses a birth day in the future or before 1900, with a message key', () => {
    expect(birthDaySchema.safeParse('1990-05-17').success).toBe(true);
    const future = birthDaySchema.safeParse('2999-01-01');
    expect(future.success).toBe(false);
    expect(future.error?.issues[0]?.message).toBe('validation.dayInFuture');
    expect(birthDaySchema.safeParse('1899-12-31').error?.issues[0]?.message).toBe('validation.dayTooEarly');
    expect(birthDaySchema.safeParse('1990-13-01').error?.issues[0]?.message).toBe('validation.day');
  });
});
