import Holidays from 'date-holidays';
import { formatIsoDate } from '../../domain/format.ts';
import type { ShippingCountry } from '../../domain/orders/countries.ts';

/** Working days between today and the first delivery day (spec: delivery within 2 working days). */
export const DELIVERY_LEAD_WORKING_DAYS = 2;
/** How far ahead a delivery can be booked, in calendar days from today. */
export const DELIVERY_HORIZON_DAYS = 60;
/** Today is today in Hong Kong, where orders are handled. */
export const DELIVERY_TIME_ZONE = 'Asia/Hong_Kong';

const holidayTypes = new Set(['public', 'bank']);
const calendars = new Map<ShippingCountry, Holidays>();
const yearsCache = new Map<string, ReadonlySet<string>>();

/** The country's public holidays of a year, as YYYY-MM-DD (date-holidays: offline data). */
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
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function isWorkingDay(country: ShippingCountry, day: string): boolean {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !publicHolidays(country, Number(day.slice(0, 4))).has(day);
}

export interface DeliveryOptions {
  /** The moment "today" is read from; tests fix it. */
  now?: Date;
  leadWorkingDays?: number;
  horizonDays?: number;
}

/**
 * The days a delivery to a country can be booked on: from the second working day after today
 * (in Hong Kong), every working day (no weekend, none of the country's public holidays) up to 60
 * days from today.
 */
export function deliveryDates(country: ShippingCountry, options: DeliveryOptions = {}): string[] {
  const today = formatIsoDate(options.now ?? new Date(), DELIVERY_TIME_ZONE);
  const lead = options.leadWorkingDays ?? DELIVERY_LEAD_WORKING_DAYS;
  const last = addDays(today, options.horizonDays ?? DELIVERY_HORIZON_DAYS);
  let day = today;
  for (let counted = 0; counted < lead; ) {
    day = addDays(day, 1);
    if (isWorkingDay(country, day)) counted += 1;
  }
  const dates: string[] = [];
  for (; day <= last; day = addDays(day, 1)) if (isWorkingDay(country, day)) dates.push(day);
  return dates;
}

/** Whether a delivery can be booked on a day (as `deliveryDates` offers them). */
export function isDeliveryDate(country: ShippingCountry, day: string, options: DeliveryOptions = {}): boolean {
  return deliveryDates(country, options).includes(day);
}
