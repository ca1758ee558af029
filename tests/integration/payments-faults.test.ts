import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../domain/entities/services.ts';
import { translate } from '../../server/i18n.ts';
import type { ChargeRequest } from '../../server/payments/gateway.ts';
import { SandboxGateway } from '../../server/payments/sandbox/adapter.ts';
import { SANDBOX_SIGNATURE_HEADER, signPayload } from '../../server/payments/sandbox/signature.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import {
  clientService,
  createTestDatabase,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  testConfig,
  type FeathersErrorJSON,
} from './harness.ts';
import { CARDS, eventually, paymentFixture } from './payment-fixture.ts';

/**
 * Paying when things go wrong: the gateway times out or fails, webhooks come twice, late, out of
 * order or forged; other members and anonymous callers over REST and socket.io; and no card
 * number or CVC in our tables or logs. The happy paths: payments.test.ts.
 */

/** The sandbox gateway whose next charge meets a fault (the calls before it do not), waited for briefly. */
class FaultyCharges extends SandboxGateway {
  next: 'timeout' | 'error' | undefined;
  private readonly impatient = new SandboxGateway(this.sandbox, { timeoutMs: 500 });
  override charge(request: ChargeRequest) {
    if (!this.next) return super.charge(request);
    this.sandbox.setFaults({ api: this.next, count: 1 });
    this.next = undefined;
    return this.impatient.charge(request);
  }
}

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});

describe.skipIf(skipReason)('paying when things go wrong', () => {
  const f = paymentFixture();
  let buyer: Caller & { email: string };
  let gateway: FaultyCharges;

  beforeAll(async () => {
    // The whole server, its log captured at the most verbose level.
    const database = await createTestDatabase();
    f.state.server = (await startServer(testConfig({ logLevel: 'trace' }), {
      database,
      pages: false,
      logDestination: capture,
    })) as RunningServer;
    await f.start();
    gateway = new FaultyCharges(f.state.sandbox);
    f.state.server.api.set('paymentGateway', gateway);
    buyer = await f.buyer();
  });
  afterAll(async () => {
    await f.state.server?.close();
  });

  const webhookUrl = () => `${f.state.server.url}/api/paymentWebhooks/sandbox`;
  const post = (body: string, signature: string, url = webhookUrl()) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
      body,
    });

  describe('the gateway', () => {
    it('times out: 503, the attempt stays processing, another card waits, and the webhook settles it without a second charge', async () => {
      const order = await f.order(buyer);
      f.state.sandbox.setFaults({ webhooks: 'reorder' });
      gateway.next = 'timeout';
      let error: FeathersErrorJSON;
      try {
        error = await rejectionOf(f.pay(buyer, order, CARDS.success));
        expect(error).toMatchObject({
          code: 503,
          message: translate('en', 'purchase.gatewayUnavailable'),
          data: { payment: expect.any(String) },
        });
        const [attempt] = await f.attempts(order._id);
        expect(attempt).toMatchObject({ id: error.data?.payment, status: 'processing', gateway_charge_id: null });
        // The gateway did charge; we do not know it yet, so no other card is charged meanwhile.
        expect(await f.charges(order._id)).toHaveLength(1);
        expect(await rejectionOf(f.pay(buyer, order, CARDS.success))).toMatchObject({
          code: 409,
          message: translate('en', 'purchase.paymentInProgress'),
        });
      } finally {
        f.state.sandbox.setFaults({ webhooks: 'normal' });
      }
      await eventually(async () => (await f.orderRow(order._id)).status === 'provisioning');
      const read = await f.payments().get(String(error.data?.payment), f.as(buyer));
      expect(read).toMatchObject({ status: 'succeeded', gatewayChargeId: expect.stringMatching(/^ch_/) });
      expect(await f.charges(order._id)).toHaveLength(1);
      expect(await f.attempts(order._id)).toHaveLength(1);
    });

    it('times out, and the buyer’s next read settles it from the gateway with the same charge', async () => {
      const order = await f.order(buyer);
      f.state.sandbox.setFaults({ webhooks: 'reorder' });
      try {
        gateway.next = 'timeout';
        const error = await rejectionOf(f.pay(buyer, order, CARDS.success));
        expect(error.code).toBe(503);
        const read = await f.payments().get(String(error.data?.payment), f.as(buyer));
        expect(read.status).toBe('succeeded');
        expect((await f.orderRow(order._id)).status).toBe('provisioning');
      } finally {
        f.state.sandbox.setFaults({ webhooks: 'normal' });
      }
      await f.state.sandbox.webhooks.idle();
      expect(await f.charges(order._id)).toHaveLength(1);
      expect(await f.knex()('invoices').where('order_id', order._id)).toHaveLength(1);
    });

    it('fails with a 500 before charging: 503, and the read sends the same charge once', async () => {
      const order = await f.order(buyer);
      gateway.next = 'error';
      const error = await rejectionOf(f.pay(buyer, order, CARDS.success));
      expect(error.code).toBe(503);
      expect(await f.charges(order._id)).toHaveLength(0);
      const id = String(error.data?.payment);
      const [first, second] = await Promise.all([f.payments().get(id, f.as(buyer)), f.payments().get(id, f.as(buyer))]);
      expect([first.status, second.status], lines.filter((line) => line.includes('settled')).join('\n')).toEqual([
        'succeeded',
        'succeeded',
      ]);
      expect((await f.payments().get(id, f.as(buyer))).status).toBe('succeeded');
      expect(await f.charges(order._id)).toHaveLength(1);
    });
  });

  describe('webhooks', () => {
    it('delivered twice change nothing the second time', async () => {
      const order = await f.order(buyer);
      f.state.sandbox.setFaults({ webhooks: 'duplicate' });
      try {
        const attempt = await f.pay(buyer, order, CARDS.challenge);
        await f.state.sandbox.completeChallenge(attempt.gatewayChargeId as string, 'approve');
        await f.state.sandbox.webhooks.idle();
      } finally {
        f.state.sandbox.setFaults({ webhooks: 'normal' });
      }
      await eventually(async () => (await f.orderRow(order._id)).status === 'provisioning');
      const row = await f.orderRow(order._id);
      expect(row.history.filter((move) => move.to === 'paid')).toHaveLength(1);
      const [attempt] = await f.attempts(order._id);
      const deliveries = await f
        .knex()('payment_sandbox_webhook_deliveries')
        .where('charge_id', attempt?.gateway_charge_id)
        .select('id', 'attempts');
      expect(deliveries.map((delivery) => delivery.attempts)).toEqual([2, 2]);
      expect(await f.knex()('payment_webhook_events').where('charge_id', attempt?.gateway_charge_id)).toHaveLength(2);
      expect(await f.knex()('subscriptions').where('order_id', order._id)).toHaveLength(1);
    });

    it('replayed by anyone holding one answers 200 and changes nothing; a forged or unsigned one is a 400', async () => {
      const order = await f.order(buyer);
      const attempt = await f.pay(buyer, order, CARDS.success);
      await f.state.sandbox.webhooks.idle();
      const delivery = (await f
        .knex()('payment_sandbox_webhook_deliveries')
        .where('charge_id', attempt.gatewayChargeId)
        .first('payload')) as { payload: unknown };
      const body = typeof delivery.payload === 'string' ? delivery.payload : JSON.stringify(delivery.payload);
      const before = {
        order: await f.orderRow(order._id),
        payment: await f.knex()('payments').where('id', attempt._id).first(),
      };
      const replay = await post(body, signPayload(body, f.state.sandbox.webhookSecret));
      expect(replay.status).toBe(200);
      expect(await replay.json()).toEqual({ received: true, outcome: 'duplicate' });
      expect(await f.orderRow(order._id)).toEqual(before.order);
      expect(await f.knex()('payments').where('id', attempt._id).first()).toEqual(before.payment);

      // A refund event forged with another secret, one unsigned, one with the signature of another body.
      const forged = JSON.stringify({
        ...JSON.parse(body),
        id: 'evt_forged',
        type: 'charge.refunded',
        charge: { ...JSON.parse(body).charge, status: 'refunded' },
      });
      expect((await post(forged, signPayload(forged, 'not-the-secret'))).status).toBe(400);
      expect(
        (await fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: forged }))
          .status,
      ).toBe(400);
      expect((await post(forged, signPayload(body, f.state.sandbox.webhookSecret))).status).toBe(400);
      // Signed long ago: refused too.
      expect(
        (await post(forged, signPayload(forged, f.state.sandbox.webhookSecret, Math.floor(Date.now() / 1000) - 3600)))
          .status,
      ).toBe(400);
      expect(await f.knex()('payment_webhook_events').where('event_id', 'evt_forged')).toHaveLength(0);
      expect((await f.orderRow(order._id)).status).toBe('provisioning');
      // A gateway not in use has no receiver.
      expect(
        (
          await post(
            body,
            signPayload(body, f.state.sandbox.webhookSecret),
            `${f.state.server.url}/api/paymentWebhooks/stripe`,
          )
        ).status,
      ).toBe(404);
    });

    it('out of order leave the final state right: a late “requires action” never undoes a success', async () => {
      const order = await f.order(buyer);
      f.state.sandbox.setFaults({ webhooks: 'reorder' });
      let chargeId: string;
      try {
        const attempt = await f.pay(buyer, order, CARDS.challenge);
        chargeId = attempt.gatewayChargeId as string;
        await f.state.sandbox.completeChallenge(chargeId, 'approve');
      } finally {
        // Released newest first: succeeded, then requires_action.
        f.state.sandbox.setFaults({ webhooks: 'normal' });
      }
      await f.state.sandbox.webhooks.idle();
      const events = await f
        .knex()('payment_webhook_events')
        .where('charge_id', chargeId)
        .orderBy('received_at')
        .select('type', 'outcome');
      expect(events).toEqual([
        { type: 'charge.succeeded', outcome: 'applied' },
        { type: 'charge.requires_action', outcome: 'unchanged' },
      ]);
      const [attempt] = await f.attempts(order._id);
      expect(attempt?.status).toBe('succeeded');
      expect((await f.orderRow(order._id)).status).toBe('provisioning');
    });

    it('out of order after a lost answer: found by the attempt named in the charge, settled right', async () => {
      const order = await f.order(buyer);
      f.state.sandbox.setFaults({ webhooks: 'reorder' });
      let id: string;
      try {
        gateway.next = 'timeout';
        const error = await rejectionOf(f.pay(buyer, order, CARDS.challenge));
        expect(error.code).toBe(503);
        id = String(error.data?.payment);
        const charge = (await f.charges(order._id))[0] as { id: string };
        await f.state.sandbox.completeChallenge(charge.id, 'approve');
      } finally {
        f.state.sandbox.setFaults({ webhooks: 'normal' });
      }
      await f.state.sandbox.webhooks.idle();
      const attempt = (await f.knex()('payments').where('id', id).first()) as {
        status: string;
        history: { from: string; to: string }[];
      };
      expect(attempt.status).toBe('succeeded');
      expect(attempt.history.map((move) => `${move.from}>${move.to}`)).toEqual([
        'created>processing',
        'processing>succeeded',
      ]);
      expect((await f.orderRow(order._id)).status).toBe('provisioning');
      expect(await f.charges(order._id)).toHaveLength(1);
    });
  });

  describe('who may pay', () => {
    it.each(['rest', 'socket.io'] as const)(
      'refuses other members, anonymous callers and unverified accounts over %s',
      async (transport) => {
        const order = await f.order(buyer);
        const attempt = await f.pay(buyer, order, CARDS.declined);
        const other = await f.buyer('other');
        const unverified = await f.buyer('unverified');
        await f.knex()('users').where('id', unverified._id).update({ email_verified_at: null });
        const password = 'Account123';
        const socket = transport === 'socket.io' ? socketClient(f.state.server.url) : undefined;
        const client = socket?.client ?? restClient(f.state.server.url);
        try {
          {
            const payments = clientService(client, 'payments');
            // Anonymous.
            expect(await rejectionOf(payments.create(await f.request(order, CARDS.success), {}))).toMatchObject({
              code: 401,
            });
            expect(await rejectionOf(payments.get(attempt._id))).toMatchObject({ code: 401 });
            // Another member: the order and the attempt are as if they did not exist.
            await client.authenticate({ strategy: 'local', email: other.email, password });
            expect(await rejectionOf(payments.create(await f.request(order, CARDS.success)))).toMatchObject({
              code: 404,
            });
            expect(await rejectionOf(payments.get(attempt._id))).toMatchObject({ code: 404 });
            expect((await payments.find({ query: { order: order._id } })).data).toEqual([]);
            // Naming the buyer as the owner changes nothing: the attempt would be the caller's, and the order is not.
            expect(
              await rejectionOf(
                payments.create({ ...(await f.request(order, CARDS.success)), user: buyer._id } as never),
              ),
            ).toMatchObject({ code: 404 });
            await client.logout();
            // Unverified.
            await client.authenticate({ strategy: 'local', email: unverified.email, password });
            const unverifiedOrder = (await f.knex()('orders').where('id', order._id).first('total')) as {
              total: number;
            };
            expect(
              await rejectionOf(
                payments.create(await f.request({ _id: order._id, total: unverifiedOrder.total }, CARDS.success)),
              ),
            ).toMatchObject({
              code: 403,
              message: translate('en', 'purchase.verifyFirst'),
            });
            await client.logout();
            // The buyer reads it, and cannot change or remove it.
            await client.authenticate({ strategy: 'local', email: buyer.email, password });
            expect(await payments.get(attempt._id)).toMatchObject({ _id: attempt._id, status: 'failed' });
            expect(await rejectionOf(payments.patch(attempt._id, {} as never))).toMatchObject({
              code: expect.any(Number),
            });
            expect(await rejectionOf(payments.remove(attempt._id))).toMatchObject({ code: expect.any(Number) });
            await client.logout();
          }
        } finally {
          socket?.close();
        }
        expect(await f.attempts(order._id)).toHaveLength(1);
        expect(await f.charges(order._id)).toHaveLength(1);
        expect((await f.knex()('payments').where('id', attempt._id).first('status')).status).toBe('failed');
      },
      90_000,
    );

    it('refuses an order not awaiting payment (409) and a delivery day no longer on offer (400)', async () => {
      const cancelled = await f.order(buyer);
      await f.knex()('orders').where('id', cancelled._id).update({ status: 'cancelled' });
      expect(await rejectionOf(f.pay(buyer, cancelled, CARDS.success))).toMatchObject({
        code: 409,
        message: translate('en', 'purchase.orderNotPayable'),
      });
      const late = await f.order(buyer);
      const row = (await f.knex()('orders').where('id', late._id).first('shipping')) as {
        shipping: Record<string, string>;
      };
      await f
        .knex()('orders')
        .where('id', late._id)
        .update({ shipping: JSON.stringify({ ...row.shipping, shippingDate: '2020-01-06' }) });
      const error = await rejectionOf(f.pay(buyer, late, CARDS.success));
      expect(error).toMatchObject({
        code: 400,
        errors: { 'shipping.shippingDate': translate('en', 'purchase.chooseDate') },
      });
      expect(await f.charges(cancelled._id)).toHaveLength(0);
      expect(await f.charges(late._id)).toHaveLength(0);
    });
  });

  it('keeps no card number or CVC in our tables or our log', async () => {
    const number = CARDS.success;
    const cvc = '7391';
    // As the browser's card frame does: to the sandbox's own origin, never ours.
    const tokenised = await fetch(`${f.state.server.paymentSandbox?.url}/v1/payment_methods`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ number, expMonth: 12, expYear: 2034, cvc }),
    });
    const { paymentMethodId } = (await tokenised.json()) as { paymentMethodId: string };
    const order = await f.order(buyer);
    const rest = restClient(f.state.server.url);
    await rest.authenticate({ strategy: 'local', email: buyer.email, password: 'Account123' });
    const attempt = await clientService(rest, 'payments').create({
      order: order._id,
      paymentMethodId,
      billingAddress: { name: 'Mei Chan', line1: '12 Nathan Road', city: 'Hong Kong', country: 'HK' },
      idempotencyKey: 'log-check-0000000001',
      expectedTotal: order.total,
    });
    expect(attempt.status, lines.filter((line) => line.includes('"level":50')).join('\n')).toBe('succeeded');
    await f.state.sandbox.webhooks.idle();

    const tables = (await f
      .knex()
      .raw(
        `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
      )) as { rows: { table_name: string }[] };
    expect(tables.rows.length).toBeGreaterThan(20);
    for (const { table_name: table } of tables.rows) {
      const text = JSON.stringify(await f.knex()(table).select());
      expect(text.includes(number), table).toBe(false);
      expect(/"cvc"/i.test(text), table).toBe(false);
      expect(text.includes(`"${cvc}"`), table).toBe(false);
    }
    const log = lines.join('');
    expect(log).toContain('payment webhook');
    expect(log.includes(number)).toBe(false);
    // A CVC's three digits turn up in any log by chance (times, ids): what must never be there is a CVC field or value.
    expect(/"cvc"/i.test(log)).toBe(false);
    expect(log.includes(`"${cvc}"`)).toBe(false);
  });
});
