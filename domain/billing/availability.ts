import type { ShippingCountry } from '../orders/countries.ts';
import { addWorkingDays } from '../orders/working-days.ts';
import { dayOf, type IsoDay } from './calendar.ts';

/** Working days from an add-on's purchase to its being ready (as a delivery: spec, within 2 working days). */
export const ADD_ON_LEAD_WORKING_DAYS = 2;

/**
 * The day an add-on bought at `now` is expected to be available: the second working day after
 * today in Hong Kong, counting the working days of the member's country (weekends and its public
 * holidays skipped).
 */
export function estimatedAvailableDay(country: ShippingCountry, now: Date, leadWorkingDays = ADD_ON_LEAD_WORKING_DAYS): IsoDay {
  return addWorkingDays(country, dayOf(now), leadWorkingDays);
}
