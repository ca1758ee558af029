import type { ShippingCountry } from '../orders/countries.ts';
import { addWorkingDays } from '../orders/working-days.ts';
import { dayOf, type IsoDay } from './calendar.ts';
import { ADD_ON_LEAD_WORKING_DAYS } from './lead-time.ts';

/**
 * The day an add-on bought at `now` is expected to be available: the second working day after
 * today in Hong Kong, counting the working days of the member's country (weekends and its public
 * holidays skipped).
 */
export function estimatedAvailableDay(
  country: ShippingCountry,
  now: Date,
  leadWorkingDays = ADD_ON_LEAD_WORKING_DAYS,
): IsoDay {
  return addWorkingDays(country, dayOf(now), leadWorkingDays);
}
