import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures.ts';

/** The id of a seeded plan template by its key (`restaurant-flexi`): ids differ on every fresh database. */
export async function planId(request: APIRequestContext, key: string): Promise<string> {
  const response = await request.get('/api/appTemplates', { params: { key } });
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: { _id: string }[] };
  const [plan, ...others] = data;
  if (!plan || others.length) throw new Error(`expected one plan with the key ${key}, found ${data.length}`);
  return plan._id;
}
