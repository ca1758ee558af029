import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../domain/billing/calendar.ts';
import type { SessionUser } from '../../app/context.ts';
import { loadDashboard } from '../../app/routes/portal/dashboard.server.ts';
import { DEMO_MONTHLY_MEMBER, DEMO_PREPAID_MEMBER } from '../../server/db/seed/demo-subscriptions.ts';
import { DEMO_MEMBER } from '../../server/db/seed/seed.ts';
import { ADMIN, createTestApp, skipReason, type TestApp } from './harness.ts';

/*
 * The dashboard's loader on a real database, with the seed's demo members: each reads their own
 * subscription, invoices and payments as themselves, and the figures come from those rows.
 */
describe.skipIf(skipReason)('the subscription dashboard loader', () => {
  let app: TestApp;
  const sessionUser = async (email: string): Promise<SessionUser> => {
    const row = await app.database
      .knex('users')
      .where({ email })
      .first<{ id: string; email: string; name: string | null; role: string }>('id', 'email', 'name', 'role');
    if (!row) throw new Error(`No account ${email}`);
    return {
      _id: row.id,
      email: row.email,
      name: row.name,
      firstName: null,
      lastName: null,
      role: row.role as SessionUser['role'],
      picture: null,
    };
  };
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("works out a member's figures from their own subscription, order, payment and invoice", async () => {
    const member = await sessionUser(DEMO_MONTHLY_MEMBER.email);
    const stored = await app.database.knex('subscriptions').where({ user_id: member._id }).first();
    const order = await app.database.knex('orders').where({ id: stored.order_id }).first();
    const invoice = await app.database.knex('invoices').where({ order_id: order.id }).first();
    const now = new Date(new Date(stored.contract_start).getTime() + 45 * 24 * 3_600_000);
    const { subscription, invoices } = await loadDashboard({ api: app.api }, member, now);
    expect(subscription?.plan).toMatchObject({ type: 'lite', status: 'active' });
    expect(subscription?.overview).toMatchObject({
      currency: 'HKD',
      contractStart: dayOf(stored.contract_start),
      nextPayDate: dayOf(stored.next_pay_date),
      contractEnd: dayOf(stored.contract_end),
      nextPayAmount: order.monthly,
      balance: { amount: 0, state: 'settled' },
      basicMonthlyFee: order.items.find((line: { kind: string }) => line.kind === 'plan').unitPrice,
      prepaid: { months: 12, used: 1, left: 11 },
    });
    const active = new Set(stored.modules.map((module: { id: string }) => module.id));
    expect(subscription?.overview.activated.map((module) => module.id)).toEqual([...active]);
    expect(subscription?.overview.inactiveAddOns.some((addOn) => active.has(addOn.id))).toBe(false);
    expect(invoices).toEqual([
      {
        _id: invoice.id,
        number: invoice.number,
        issuedOn: dayOf(invoice.issued_at),
        total: invoice.total,
        currency: 'HKD',
        // Issued when the plan was paid: listed as paid (decision 063).
        status: 'paid',
      },
    ]);
    // The card on file: what the member may see of it, never the gateway's references.
    expect(subscription?.card).toEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: expect.any(Number) });
  });

  it('shows a payment still owed as an amount due, added to the next charge', async () => {
    const member = await sessionUser(DEMO_PREPAID_MEMBER.email);
    const stored = await app.database.knex('subscriptions').where({ user_id: member._id }).first();
    const before = await loadDashboard({ api: app.api }, member);
    expect(before.subscription?.overview).toMatchObject({ currency: 'SGD', balance: { state: 'settled' } });
    const payment = await app.database
      .knex('payments')
      .where({ order_id: stored.order_id, status: 'succeeded' })
      .first('id', 'amount');
    await app.database.knex('payments').where({ id: payment.id }).update({ status: 'refunded' });
    try {
      const after = await loadDashboard({ api: app.api }, member);
      expect(after.subscription?.overview.balance).toEqual({ currency: 'SGD', amount: -payment.amount, state: 'due' });
      expect(after.subscription?.overview.nextPayAmount).toBe(stored.monthly + payment.amount);
    } finally {
      await app.database.knex('payments').where({ id: payment.id }).update({ status: 'succeeded' });
    }
  });

  it("shows a member without a plan, and staff, none of anyone else's", async () => {
    for (const email of [DEMO_MEMBER.email, ADMIN.email]) {
      const { subscription, invoices } = await loadDashboard({ api: app.api }, await sessionUser(email));
      expect({ email, subscription, invoices }).toEqual({ email, subscription: null, invoices: [] });
    }
  });
});
