import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedOptionsOf } from '../../server/database.ts';
import { prepareDatabase } from '../../server/db/prepare.ts';
import { DEMO_MONTHLY_MEMBER, DEMO_PREPAID_MEMBER } from '../../server/db/seed/seed.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { accessTokenOf, createTestDatabase, restCall, skipReason, testConfig } from './harness.ts';

/*
 * The demo plans' cards on the sandbox gateway (decision 065): the start's seed, with demo data on
 * the sandbox, puts them on file there, once however often the server starts; the demo members'
 * payment step then offers the card, and one press pays an add-on with it.
 */

const key = () => randomBytes(12).toString('hex');

interface PlanRow {
  id: string;
  user_id: string;
  modules: { id: string }[];
  card: { brand: string; last4: string; expMonth: number; expYear: number };
  payment_method: { gateway: string; customerId: string; paymentMethodId: string } | null;
}

describe.skipIf(skipReason)('the demo plans’ cards on the sandbox gateway', () => {
  const config = testConfig({ demoData: true });
  const logger = pino({ level: 'silent' });
  let server: RunningServer;
  let seeded: { monthly: PlanRow; prepaid: PlanRow };
  const knex = () => server.database.knex;
  const planOf = (email: string) =>
    knex()('subscriptions as s')
      .join('users as u', 'u.id', 's.user_id')
      .where('u.email', email)
      .first('s.id', 's.user_id', 's.modules', 's.card', 's.payment_method') as Promise<PlanRow>;

  beforeAll(async () => {
    // The test database is seeded with the demo data and no gateway holding the demo cards.
    const database = await createTestDatabase();
    const before = (await database
      .knex('subscriptions as s')
      .join('users as u', 'u.id', 's.user_id')
      .where('u.email', DEMO_MONTHLY_MEMBER.email)
      .first('s.payment_method', 's.card')) as Pick<PlanRow, 'payment_method' | 'card'>;
    expect(before.payment_method).toBeNull();
    // The start's seed (server/database.ts), with the sandbox as the gateway.
    const options = seedOptionsOf(config, database.knex, logger);
    expect(options.paymentSandbox).toBeDefined();
    await prepareDatabase(database.knex, database.kind, options);
    server = await startServer(config, { database, pages: false });
    seeded = { monthly: await planOf(DEMO_MONTHLY_MEMBER.email), prepaid: await planOf(DEMO_PREPAID_MEMBER.email) };
    // The card shown is the one the seed wrote.
    expect(seeded.monthly.card).toEqual(before.card);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('holds each demo plan’s card at the sandbox, for the member’s own customer there, once however often it starts', async () => {
    for (const plan of [seeded.monthly, seeded.prepaid]) {
      expect(plan.payment_method).toEqual({
        gateway: 'sandbox',
        customerId: expect.any(String),
        paymentMethodId: expect.any(String),
      });
      const customer = await knex()('payment_customers').where({ user_id: plan.user_id, gateway: 'sandbox' }).first();
      expect(customer?.customer_id).toBe(plan.payment_method?.customerId);
      const method = await knex()('payment_sandbox_payment_methods')
        .where('id', plan.payment_method?.paymentMethodId)
        .first();
      expect(method).toMatchObject({
        customer_id: plan.payment_method?.customerId,
        brand: 'visa',
        last4: '4242',
        exp_month: plan.card.expMonth,
        exp_year: plan.card.expYear,
      });
    }
    // The same start again (a restart): nothing new at the sandbox, nothing changed on the plans.
    const count = async (table: string) => Number((await knex()(table).count({ n: '*' }).first())?.n);
    const counts = [await count('payment_sandbox_customers'), await count('payment_sandbox_payment_methods')];
    await prepareDatabase(knex(), server.database.kind, seedOptionsOf(config, knex(), logger));
    expect([await count('payment_sandbox_customers'), await count('payment_sandbox_payment_methods')]).toEqual(counts);
    expect(await planOf(DEMO_MONTHLY_MEMBER.email)).toEqual(seeded.monthly);
    expect(await planOf(DEMO_PREPAID_MEMBER.email)).toEqual(seeded.prepaid);
  });

  it('tells a demo member their card is ready, and one press pays an add-on with it', async () => {
    const token = await accessTokenOf(server.url, DEMO_MONTHLY_MEMBER);
    const plan = seeded.monthly;
    const options = await restCall(server.url, 'GET', `paymentOptions/${plan.id}`, { token });
    expect(options.status).toBe(200);
    expect(options.body.card).toEqual({ ...plan.card, state: 'ready' });
    const billingAddress = options.body.billingAddress as Record<string, string>;
    expect(billingAddress).toMatchObject({ line1: '18 Hennessy Road', country: 'HK' });

    // An add-on the plan does not have yet.
    const modules = (await server.api.service('modules').find({ paginate: false })) as {
      _id: string;
      released: boolean;
      billing: string;
      counter: boolean;
    }[];
    const has = new Set(plan.modules.map((module) => module.id));
    const addOn = modules.find((m) => m.released && m.billing === 'monthly' && !m.counter && !has.has(m._id));
    if (!addOn) throw new Error('no add-on left to order');
    const order = await restCall(server.url, 'POST', 'orders', {
      token,
      body: { subscription: plan.id, addOns: [{ id: addOn._id }], idempotencyKey: key() },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const payment = await restCall(server.url, 'POST', 'payments', {
      token,
      body: {
        order: order.body._id,
        cardOnFile: true,
        billingAddress,
        idempotencyKey: key(),
        expectedTotal: order.body.total,
      },
    });
    expect(payment.status, JSON.stringify(payment.body)).toBe(201);
    expect(payment.body).toMatchObject({ status: 'succeeded', card: { brand: 'visa', last4: '4242' } });

    // The sandbox charged the plan's own card, on the member's session.
    const charge = await knex()('payment_sandbox_charges')
      .where('payment_method_id', plan.payment_method?.paymentMethodId)
      .first();
    expect(charge).toMatchObject({ status: 'succeeded', off_session: false, amount: expect.anything() });
    expect(Number(charge.amount)).toBe(order.body.total);
    const paid = (await server.api.service('orders').get(String(order.body._id))) as { status: string };
    expect(['paid', 'provisioning']).toContain(paid.status);
    expect((await planOf(DEMO_MONTHLY_MEMBER.email)).payment_method).toEqual(plan.payment_method);
  });

  it('leaves the demo cards to no gateway without demo data or with Stripe', () => {
    const database = server.database.knex;
    expect(seedOptionsOf(testConfig({ demoData: false }), database, logger).paymentSandbox).toBeUndefined();
    const stripe = { ...config.payments, provider: 'stripe' as const };
    expect(seedOptionsOf({ ...config, payments: stripe }, database, logger).paymentSandbox).toBeUndefined();
  });
});
