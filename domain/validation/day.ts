import { z } from '../zod.ts';

/** Whether `text` is a calendar day as ISO 8601 writes it (`2026-11-29`), one that exists (no 31 April). */
export function isDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Today in Hong Kong (UTC+8, no summer time), as a day. */
export function todayInHongKong(now: Date = new Date()): string {
  return new Date(now.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
}

/**
 * A date of birth: a real day, not before 1900 and not after today in Hong Kong. Held as the day
 * itself, so it reads the same in every time zone.
 */
export const birthDaySchema = z
  .string()
  .trim()
  .refine(isDay, { error: 'validation.day' })
  .refine((day) => day >= '1900-01-01', { error: 'validation.dayTooEarly' })
  .refine((day) => day <= todayInHongKong(), { error: 'validation.dayInFuture' });
