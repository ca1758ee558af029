import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EDITOR, DEMO_MEMBER, seed } from '../../server/db/seed/seed.ts';
import { ADMIN, createTestApp, createTestDatabase, skipReason, type TestApp } from './harness.ts';

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

describe.skipIf(skipReason)('the seed', () => {
  it('makes the admin and the demo accounts once, with working passwords, and is safe to run again', async () => {
    const database = await createTestDatabase({ seed: false });
    try {
      const options = { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true };
      await seed(database.knex, options);
      const counts = async () =>
        Object.fromEntries(
          await Promise.all(
            ['users', 'industries', 'modules', 'app_templates', 'blogs'].map(async (table) => {
              const [row] = await database.knex(table).count<{ count: string }[]>({ count: '*' });
              return [table, Number(row?.count)];
            }),
          ),
        );
      const first = await counts();
      expect(first.users).toBe(3);
      await seed(database.knex, options);
      expect(await counts()).toEqual(first);

      const users = await database.knex('users').select('email', 'role', 'password').orderBy('email');
      expect(users.map(({ email, role }) => ({ email, role }))).toEqual([
        { email: ADMIN.email, role: 'admin' },
        { email: DEMO_EDITOR.email, role: 'editor' },
        { email: DEMO_MEMBER.email, role: 'member' },
      ]);
      const password = { [ADMIN.email]: ADMIN.password, [DEMO_EDITOR.email]: DEMO_EDITOR.password, [DEMO_MEMBER.email]: DEMO_MEMBER.password };
      for (const user of users) expect(await argon2.verify(user.password, password[user.email] ?? '')).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('makes an admin given a demo account’s email that account, as admin', async () => {
    const database = await createTestDatabase({ seed: false });
    try {
      await seed(database.knex, { adminEmail: DEMO_MEMBER.email, adminPassword: ADMIN.password, demoData: true });
      const users = await database.knex('users').select('email', 'role').orderBy('email');
      expect(users).toEqual([
        { email: DEMO_EDITOR.email, role: 'editor' },
        { email: DEMO_MEMBER.email, role: 'admin' },
      ]);
    } finally {
      await database.close();
    }
  });
});
