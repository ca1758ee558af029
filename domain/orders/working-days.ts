import Holidays from 'date-holidays';
import type { ShippingCountry } from './countries.ts';

/*
 * Working days of the countries the company ships to: no weekend, none of the country's public
 * holidays (date-holidays: offline data, no I/O). Delivery dates and the estimated date an add-on
 * is available both count them.
 */

const holidayTypes = new Set(['public', 'bank']);
const calendars = new Map<ShippingCountry, Holidays>();
const yearsCache = new Map<string, ReadonlySet<string>>();

/** The country's public holidays of a year, as YYYY-MM-DD. */
function publicHolidays(country: ShippingCountry, year: number): ReadonlySet<string> {
  const key = `${country}:${year}`;
  let days = yearsCache.get(key);
  if (!days) {
    let calendar = calendars.get(country);
    if (!calendar) {
      calendar = new Holidays(country);
      calendars.set(country, calendar);
    }
    days = new Set(
      calendar
        .getHolidays(year)
        .filter((holiday) => holidayTypes.has(holiday.type))
        .map((holiday) => holiday.date.slice(0, 10)),
    );
    yearsCache.set(key, days);
  }
  return days;
}

/** A calendar day (YYYY-MM-DD) plus some days. */
export function addCalendarDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function isWorkingDay(country: ShippingCountry, day: string): boolean {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !publicHolidays(country, Number(day.slice(0, 4))).has(day);
}

/** The day that many working days after `day` (the day itself does not count). */
export function addWorkingDays(country: ShippingCountry, day: string, workingDays: number): string {
  let result = day;
  for (let counted = 0; counted < workingDays;) {
    result = addCalendarDays(result, 1);
    if (isWorkingDay(country, result)) counted += 1;
  }
  return result;
}
