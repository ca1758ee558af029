import type { Locator } from '@playwright/test';
import { expect } from './fixtures.ts';

/** Picks the first day the delivery calendar offers for the country chosen (from the `deliveryDates` service). */
export async function chooseFirstDate(date: Locator) {
  await expect(date).toBeEnabled();
  await expect(date.locator('option').nth(1)).toBeAttached();
  await date.selectOption({ index: 1 });
}
