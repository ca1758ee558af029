import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, skipReason, type TestApp } from './harness.ts';

describe.skipIf(skipReason)('seeded catalogue', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists industries by order with restaurant first', async () => {
    const page = (await app.api.service('industries').find({ query: { $sort: { order: 1 } }, provider: 'rest' })) as {
      total: number;
      data: { order: number; key: string }[];
    };
    expect(page.total).toBeGreaterThanOrEqual(5);
    expect(page.data[0]).toMatchObject({ order: 0, key: 'restaurant' });
  });
});
