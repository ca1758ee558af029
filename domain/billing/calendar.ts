import { formatIsoDate } from '../format.ts';

/*
 * Billing counts Hong Kong calendar days (UTC+8, no daylight saving; decision 018): a day is
 * written YYYY-MM-DD and its moment is midnight in Hong Kong.
 */

/** A calendar day in Hong Kong, YYYY-MM-DD. */
export type IsoDay = string;

export const BILLING_TIME_ZONE = 'Asia/Hong_Kong';
const HONG_KONG_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface CalendarDay {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month (1 to 12) of a year. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function parseDay(day: IsoDay): CalendarDay {
  const match = ISO_DAY.exec(day);
  if (!match) throw new RangeError(`Not a calendar day: ${day}`);
  const parsed = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (parsed.month < 1 || parsed.month > 12 || parsed.day < 1 || parsed.day > daysInMonth(parsed.year, parsed.month)) {
    throw new RangeError(`Not a calendar day: ${day}`);
  }
  return parsed;
}

function isoDay(year: number, month: number, day: number): IsoDay {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The Hong Kong day a moment falls on. */
export function dayOf(moment: Date | string | number): IsoDay {
  return formatIsoDate(moment, BILLING_TIME_ZONE);
}

/** Midnight in Hong Kong at the start of a day. */
export function startOfDay(day: IsoDay): Date {
  const { year, month, day: date } = parseDay(day);
  return new Date(Date.UTC(year, month - 1, date) - HONG_KONG_OFFSET_MS);
}

export function addDays(day: IsoDay, days: number): IsoDay {
  const { year, month, day: date } = parseDay(day);
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** Whole days from one day to another (negative when `to` comes first). */
export function daysBetween(from: IsoDay, to: IsoDay): number {
  const a = parseDay(from);
  const b = parseDay(to);
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS);
}

/**
 * The day of the month `anchorDay` in the month `months` after a day's month, clamped to the
 * month's last day: an anchor on the 31st falls on 28 or 29 February and on 30 April, and comes
 * back to the 31st in the months that have one.
 */
export function anchoredDay(from: IsoDay, months: number, anchorDay: number): IsoDay {
  if (!Number.isInteger(months)) throw new RangeError(`Months must be whole: ${months}`);
  if (!Number.isInteger(anchorDay) || anchorDay < 1 || anchorDay > 31)
    throw new RangeError(`Not a day of the month: ${anchorDay}`);
  const { year, month } = parseDay(from);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index - targetYear * 12 + 1;
  return isoDay(targetYear, targetMonth, Math.min(anchorDay, daysInMonth(targetYear, targetMonth)));
}
