import { formatIsoDate } from '../../domain/format.ts';
import type { ShippingCountry } from '../../domain/orders/countries.ts';
import { addCalendarDays as addDays, addWorkingDays, isWorkingDay } from '../../domain/orders/working-days.ts';

export { isWorkingDay };

/** Working days between today and the first delivery day (spec: delivery within 2 working days). */
export const DELIVERY_LEAD_WORKING_DAYS = 2;
/** How far ahead a delivery can be booked, in calendar days from today. */
export const DELIVERY_HORIZON_DAYS = 60;
/** Today is today in Hong Kong, where orders are handled. */
export const DELIVERY_TIME_ZONE = 'Asia/Hong_Kong';

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
  let day = addWorkingDays(country, today, lead);
  const dates: string[] = [];
  for (; day <= last; day = addDays(day, 1)) if (isWorkingDay(country, day)) dates.push(day);
  return dates;
}

/** Whether a delivery can be booked on a day (as `deliveryDates` offers them). */
export function isDeliveryDate(country: ShippingCountry, day: string, options: DeliveryOptions = {}): boolean {
  return deliveryDates(country, options).includes(day);
}
