import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';

/** The site's flags as the seed leaves them (and as every other test expects them). */
export const DEFAULT_FLAGS = { contactForm: true, subscription: true } as const;

/**
 * Patches the site-wide features as the admin. Only `*.flags.spec.ts` files may call it: they run
 * after every other test, one after another, and put the defaults back in `afterAll`.
 */
export async function setFeatures(request: APIRequestContext, changes: Record<string, unknown>) {
  const response = await request.patch('/api/features', { data: changes, headers: await staffHeaders(request) });
  expect(response.status()).toBe(200);
}
