import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/database.ts';
import { DEMO_PURCHASES, demoPaidAt } from '../../server/db/seed/demo-subscriptions.ts';
import {
  DEMO_EDITOR,
  DEMO_MEMBER,
  DEMO_MONTHLY_MEMBER,
  DEMO_PREPAID_MEMBER,
  seed,
  SeedError,
} from '../../server/db/seed/seed.ts';
import { startServer } from '../../server/server.ts';
import {
  ADMIN,
  createTestApp,
  createTestDatabase,
  restClient,
  skipReason,
  socketClient,
  testConfig,
  uniqueEmail,
  type TestApp,
} from './harness.ts';

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
            [
              'users',
              'industries',
              'modules',
              'app_templates',
              'blogs',
              'orders',
              'payments',
              'subscriptions',
              'invoices',
            ].map(async (table) => {
              const [row] = await database.knex(table).count<{ count: string }[]>({ count: '*' });
              return [table, Number(row?.count)];
            }),
          ),
        );
      const first = await counts();
      expect(first.users).toBe(5);
      expect(first).toMatchObject({ orders: 2, payments: 2, subscriptions: 2, invoices: 2 });
      await seed(database.knex, options);
      expect(await counts()).toEqual(first);

      const users = await database.knex('users').select('email', 'role', 'password').orderBy('email');
      expect(users.map(({ email, role }) => ({ email, role }))).toEqual([
        { email: ADMIN.email, role: 'admin' },
        { email: DEMO_EDITOR.email, role: 'editor' },
        { email: DEMO_MONTHLY_MEMBER.email, role: 'member' },
        { email: DEMO_MEMBER.email, role: 'member' },
        { email: DEMO_PREPAID_MEMBER.email, role: 'member' },
      ]);
      const password = {
        [ADMIN.email]: ADMIN.password,
        [DEMO_EDITOR.email]: DEMO_EDITOR.password,
        [DEMO_MEMBER.email]: DEMO_MEMBER.password,
        [DEMO_MONTHLY_MEMBER.email]: DEMO_MONTHLY_MEMBER.password,
        [DEMO_PREPAID_MEMBER.email]: DEMO_PREPAID_MEMBER.password,
      };
      for (const user of users) expect(await argon2.verify(user.password, password[user.email] ?? '')).toBe(true);
    } finally {
      await database.close();
    }
  });

  it("records the demo members' purchases as a paid order leaves them, dated from the seed day", async () => {
    const database = await createTestDatabase({ seed: false });
    try {
      // 31 March 2026 at noon in Hong Kong: the prepaid purchase (220 days before) is on 23 August 2025.
      const now = new Date('2026-03-31T04:00:00Z');
      await seed(database.knex, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true, now });
      for (const purchase of DEMO_PURCHASES) {
        const user = await database.knex('users').where({ email: purchase.email }).first<{ id: string }>('id');
        const order = await database.knex('orders').where({ user_id: user?.id }).first();
        const payment = await database.knex('payments').where({ order_id: order.id }).first();
        const subscription = await database.knex('subscriptions').where({ order_id: order.id }).first();
        const invoice = await database.knex('invoices').where({ order_id: order.id }).first();
        const paidAt = demoPaidAt(purchase, now);
        expect(order).toMatchObject({
          status: 'completed',
          prepaid_months: purchase.prepaidMonths,
          currency: purchase.country === 'SG' ? 'SGD' : 'HKD',
        });
        expect(payment).toMatchObject({ status: 'succeeded', amount: order.total, currency: order.currency });
        expect(invoice).toMatchObject({
          number: purchase.country === 'SG' ? 'SG-000001' : 'HK-000001',
          total: order.total,
          subscription_id: subscription.id,
          status: 'issued',
        });
        expect(subscription).toMatchObject({
          user_id: user?.id,
          monthly: order.monthly,
          prepaid_months: purchase.prepaidMonths,
          period: 'monthly',
          status: 'active',
        });
        expect(new Date(subscription.contract_start)).toEqual(paidAt);
        expect(subscription.billing_anchor_day).toBe(Number(paidAt.toISOString().slice(8, 10)));
        const boughtKeys = await database
          .knex('modules')
          .whereIn(
            'id',
            subscription.modules.map((module: { id: string }) => module.id),
          )
          .pluck('key');
        expect(boughtKeys).toEqual(expect.arrayContaining(purchase.addOns.map((addOn) => addOn.key)));
      }
      expect(demoPaidAt(DEMO_PURCHASES[1]!, now)).toEqual(new Date('2025-08-23T03:00:00Z'));
    } finally {
      await database.close();
    }
    // A database migrated from nothing, on a shared machine.
  }, 90_000);

  it('makes an admin given a demo account’s email that account, as admin', async () => {
    const database = await createTestDatabase({ seed: false });
    try {
      await seed(database.knex, { adminEmail: DEMO_MEMBER.email, adminPassword: ADMIN.password, demoData: true });
      const users = await database.knex('users').select('email', 'role').orderBy('email');
      expect(users).toEqual([
        { email: DEMO_EDITOR.email, role: 'editor' },
        { email: DEMO_MONTHLY_MEMBER.email, role: 'member' },
        { email: DEMO_MEMBER.email, role: 'admin' },
        { email: DEMO_PREPAID_MEMBER.email, role: 'member' },
      ]);
    } finally {
      await database.close();
    }
  });

  /**
   * Someone registers, over the API, with the address an operator then names in ADMIN_EMAIL while
   * no admin exists (a database whose admin was removed, a server started before its seed ran).
   */
  async function registeredBeforeTheSeed(register: (url: string, email: string, password: string) => Promise<void>) {
    const database = await createTestDatabase({ seed: false });
    // The server's close() must leave the schema for the seed that follows.
    const kept: Database = { ...database, close: async () => {} };
    const server = await startServer(testConfig(), { database: kept, pages: false });
    const account = { email: uniqueEmail('future-admin'), password: 'Attacker123' };
    try {
      await register(server.url, account.email, account.password);
    } finally {
      await server.close();
    }
    const row = async () =>
      database
        .knex('users')
        .where({ email: account.email })
        .first<{ role: string; password: string }>('role', 'password');
    return { database, account, row };
  }

  it('leaves an account registered over REST with ADMIN_EMAIL as it is, and warns', async () => {
    const { database, account, row } = await registeredBeforeTheSeed(async (url, email, password) => {
      await restClient(url).service('users').create({ email, password });
    });
    try {
      const before = await row();
      expect(before?.role).toBe('member');
      const report = await seed(database.knex, {
        adminEmail: account.email,
        adminPassword: ADMIN.password,
        demoData: false,
      });
      expect(report.warnings).toEqual([
        `ADMIN_EMAIL ${account.email} belongs to an account with the role member: no admin was created and that account was left as it is. Set ADMIN_EMAIL to an address no account uses.`,
      ]);
      expect(await row()).toEqual(before);
      expect(await database.knex('users').where({ role: 'admin' }).first('id')).toBeUndefined();
      // Once an admin exists, ADMIN_EMAIL is not looked at again.
      await database
        .knex('users')
        .insert({ id: 'seed-test-admin', email: uniqueEmail('admin'), password: 'x', role: 'admin' });
      expect(
        (await seed(database.knex, { adminEmail: account.email, adminPassword: ADMIN.password, demoData: false }))
          .warnings,
      ).toEqual([]);
      expect(await row()).toEqual(before);
    } finally {
      await database.close();
    }
  });

  it('refuses, in production, an ADMIN_EMAIL that an account registered over socket.io holds', async () => {
    const { database, account, row } = await registeredBeforeTheSeed(async (url, email, password) => {
      const visitor = socketClient(url);
      try {
        await visitor.client.service('users').create({ email, password });
      } finally {
        visitor.close();
      }
    });
    try {
      const before = await row();
      expect(before?.role).toBe('member');
      const refused = seed(database.knex, {
        adminEmail: account.email,
        adminPassword: ADMIN.password,
        demoData: false,
        production: true,
      });
      await expect(refused).rejects.toThrow(SeedError);
      await expect(refused).rejects.toThrow(`ADMIN_EMAIL ${account.email} belongs to an account with the role member`);
      expect(await row()).toEqual(before);
      expect(await argon2.verify(before?.password ?? '', account.password)).toBe(true);
      expect(await database.knex('users').where({ role: 'admin' }).first('id')).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
