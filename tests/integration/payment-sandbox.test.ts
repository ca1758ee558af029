import http from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/database.ts';
import { GatewayError, type Charge, type ChargeRequest, type GatewayEvent } from '../../server/payments/gateway.ts';
import { SandboxGateway } from '../../server/payments/sandbox/adapter.ts';
import { PaymentSandbox } from '../../server/payments/sandbox/sandbox.ts';
import { startSandboxServer, type SandboxServer } from '../../server/payments/sandbox/server.ts';
import { SANDBOX_SIGNATURE_HEADER, signPayload } from '../../server/payments/sandbox/signature.ts';
import { createTestDatabase, skipReason, testConfig } from './harness.ts';

/**
 * The sandbox payment gateway through its adapter and its own HTTP origin (decision 019): test
 * cards, tokenising without keeping the number, idempotency, 3-D Secure with signed webhooks, and
 * the fault switches.
 */

const SITE = 'http://shop.test:3000';
const SANDBOX_TABLES = [
  'payment_sandbox_customers',
  'payment_sandbox_payment_methods',
  'payment_sandbox_charges',
  'payment_sandbox_idempotency_keys',
  'payment_sandbox_webhook_deliveries',
];

interface Received {
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

describe.skipIf(skipReason)('the sandbox payment gateway', () => {
  let database: Database;
  let sandbox: PaymentSandbox;
  let server: SandboxServer;
  let gateway: SandboxGateway;
  let receiver: http.Server;
  let received: Received[] = [];
  let logs = '';
  const secret = testConfig().payments.sandbox.webhookSecret;

  beforeAll(async () => {
    database = await createTestDatabase({ seed: false });
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs += String(chunk);
        done();
      },
    });
    sandbox = new PaymentSandbox({
      knex: database.knex,
      logger: pino({ level: 'trace' }, logStream),
      webhookSecret: secret,
      origin: 'http://unset',
    });
    server = await startSandboxServer(sandbox, { port: 0, host: '127.0.0.1' });
    sandbox.siteOrigins = [SITE];
    gateway = new SandboxGateway(sandbox, { timeoutMs: 1_000 });
    // Our webhook receiver stands in for /api/paymentWebhooks/sandbox.
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ body: Buffer.concat(chunks), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    sandbox.webhooks.target = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/paymentWebhooks/sandbox`;
  });

  afterEach(async () => {
    sandbox.setFaults({ api: 'none', webhooks: 'normal' });
    await sandbox.webhooks.idle();
    received = [];
  });

  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    await database?.close();
  });

  /** What the card frame posts, sent as the frame does (same origin). */
  async function tokenize(number: string, overrides: Record<string, unknown> = {}) {
    const response = await fetch(`${server.url}/v1/payment_methods`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: sandbox.origin },
      body: JSON.stringify({ number, expMonth: 12, expYear: 2034, cvc: '739', ...overrides }),
    });
    return {
      status: response.status,
      body: (await response.json()) as {
        paymentMethodId: string;
        card: Charge['card'];
        error?: { code: string; problems: string[] };
      },
    };
  }

  async function customerWithCard(number: string) {
    const { customerId } = await gateway.createCustomer({
      userId: 'user-1',
      email: 'mei@example.test',
      name: 'Mei Chan',
    });
    const { body } = await tokenize(number);
    return { customerId, paymentMethodId: body.paymentMethodId };
  }

  let keys = 0;
  const request = (
    card: { customerId: string; paymentMethodId: string },
    overrides: Partial<ChargeRequest> = {},
  ): ChargeRequest => ({
    ...card,
    amount: 358800,
    currency: 'HKD',
    idempotencyKey: `key-${(keys += 1)}-${Date.now()}`,
    offSession: false,
    metadata: { orderId: 'order-1' },
    ...overrides,
  });

  const events = () =>
    received.map(({ body, headers }) => gateway.parseWebhook(body, headers as Record<string, string>) as GatewayEvent);

  async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof GatewayError) return error;
      throw error;
    }
    throw new Error('expected a GatewayError');
  }

  const count = async (table: string) =>
    Number(((await database.knex(table).count({ n: '*' })) as { n: string | number }[])[0]?.n);

  describe('test cards', () => {
    it.each([
      ['4242424242424242', 'succeeded', undefined],
      ['4000000000000002', 'failed', 'card_declined'],
      ['4000000000009995', 'failed', 'insufficient_funds'],
      ['4000000000000069', 'failed', 'expired_card'],
      ['4000000000000119', 'failed', 'processing_error'],
      ['4000002500003155', 'requires_action', undefined],
      ['4000000000003220', 'requires_action', undefined],
    ])('%s on the buyer’s session: %s %s', async (number, status, failure) => {
      const card = await customerWithCard(number);
      const charge = await gateway.charge(request(card));
      expect(charge).toMatchObject({
        status,
        amount: 358800,
        currency: 'HKD',
        card: { brand: 'visa', last4: number.slice(-4), expMonth: 12, expYear: 2034 },
      });
      expect(charge.failure?.code).toBe(failure);
      if (status === 'requires_action') expect(charge.action?.url).toBe(`${sandbox.origin}/challenge/${charge.id}`);
      else expect(charge.action).toBeUndefined();
      expect(await gateway.retrieve(charge.id)).toEqual(charge);
    });

    it('charges a card saved on the session off-session; the always-challenged card then fails authentication', async () => {
      const saved = await customerWithCard('4000002500003155');
      await gateway.attachPaymentMethod(saved);
      expect((await gateway.charge(request(saved, { offSession: true }))).status).toBe('succeeded');
      const always = await customerWithCard('4000000000003220');
      await gateway.attachPaymentMethod(always);
      expect(await gateway.charge(request(always, { offSession: true }))).toMatchObject({
        status: 'failed',
        failure: { code: 'authentication_failed' },
      });
    });

    it('refuses an off-session charge on a card never attached to the customer, and a card of another customer', async () => {
      const card = await customerWithCard('4242424242424242');
      expect((await rejection(gateway.charge(request(card, { offSession: true })))).code).toBe('invalid_request');
      await gateway.attachPaymentMethod(card);
      const other = await gateway.createCustomer({ userId: 'user-2', email: 'other@example.test' });
      const otherCustomers = await rejection(gateway.charge(request({ ...card, customerId: other.customerId })));
      expect(otherCustomers.code).toBe('invalid_request');
      expect((await rejection(gateway.attachPaymentMethod({ ...card, customerId: other.customerId }))).code).toBe(
        'invalid_request',
      );
    });

    it('captures (a no-op on a captured charge), refunds in parts, and cancels only what is unfinished', async () => {
      const card = await customerWithCard('4242424242424242');
      const charge = await gateway.charge(request(card));
      expect((await gateway.capture(charge.id, `capture-${charge.id}`)).status).toBe('succeeded');
      const part = await gateway.refund({
        chargeId: charge.id,
        amount: 100000,
        idempotencyKey: `refund-a-${charge.id}`,
      });
      expect(part).toMatchObject({ status: 'succeeded', amountRefunded: 100000 });
      // The same refund key again refunds nothing more.
      expect(
        (await gateway.refund({ chargeId: charge.id, amount: 100000, idempotencyKey: `refund-a-${charge.id}` }))
          .amountRefunded,
      ).toBe(100000);
      expect(
        (
          await rejection(
            gateway.refund({ chargeId: charge.id, amount: 300000, idempotencyKey: `refund-b-${charge.id}` }),
          )
        ).code,
      ).toBe('invalid_request');
      expect(await gateway.refund({ chargeId: charge.id, idempotencyKey: `refund-c-${charge.id}` })).toMatchObject({
        status: 'refunded',
        amountRefunded: 358800,
      });
      expect((await rejection(gateway.cancel(charge.id, `cancel-${charge.id}`))).code).toBe('invalid_request');
      const challenged = await gateway.charge(request(await customerWithCard('4000002500003155')));
      expect((await gateway.cancel(challenged.id, `cancel-${challenged.id}`)).status).toBe('cancelled');
      expect((await rejection(gateway.retrieve('ch_missing'))).code).toBe('invalid_request');
    });

    it('refuses amounts that are not positive integers of minor units', async () => {
      const card = await customerWithCard('4242424242424242');
      for (const amount of [0, -5, 12.5])
        expect((await rejection(gateway.charge(request(card, { amount })))).code).toBe('invalid_request');
    });
  });

  describe('tokenising in the card frame', () => {
    it('keeps the brand, last four and expiry, never the number or the CVC, in its tables and its logs', async () => {
      const numbers = ['4242424242424242', '4000000000000002', '4000002500003155'];
      for (const number of numbers) {
        const { status, body } = await tokenize(number.replace(/(\d{4})/g, '$1 ').trim(), { cvc: '4821' });
        expect(status).toBe(201);
        expect(body.card).toEqual({ brand: 'visa', last4: number.slice(-4), expMonth: 12, expYear: 2034 });
        expect(body.paymentMethodId).toMatch(/^pm_/);
        await gateway.charge(
          request({
            customerId: (await gateway.createCustomer({ userId: 'u', email: 'u@example.test' })).customerId,
            paymentMethodId: body.paymentMethodId,
          }),
        );
      }
      await sandbox.webhooks.idle();
      for (const table of SANDBOX_TABLES) {
        for (const number of numbers) {
          const found = await database
            .knex(table)
            .whereRaw(`${table}::text like ?`, [`%${number}%`])
            .count({ n: '*' });
          expect(Number(found[0]?.n), `${number} in ${table}`).toBe(0);
        }
        const columns = Object.keys(await database.knex(table).columnInfo());
        expect(columns.filter((column) => /number|cvc|cvv|pan/i.test(column))).toEqual([]);
      }
      const methods = await database.knex('payment_sandbox_payment_methods').select();
      expect(methods.length).toBeGreaterThanOrEqual(3);
      for (const method of methods) expect(Object.values(method).map(String)).not.toContain('4821');
      for (const number of numbers) expect(logs).not.toContain(number);
      expect(logs).not.toContain('4821');
    });

    it('gives the same card the same fingerprint', async () => {
      const first = await tokenize('4242424242424242');
      const second = await tokenize('4242 4242 4242 4242');
      const rows = await database
        .knex('payment_sandbox_payment_methods')
        .whereIn('id', [first.body.paymentMethodId, second.body.paymentMethodId])
        .select('fingerprint');
      expect(new Set(rows.map((row: { fingerprint: string }) => row.fingerprint)).size).toBe(1);
    });

    it.each([
      ['4242424242424241', {}, ['number']],
      ['4111111111111111', {}, ['unknownNumber']],
      ['4242424242424242', { expMonth: 13 }, ['expiry']],
      ['4242424242424242', { expMonth: 1, expYear: 2020 }, ['expired']],
      ['4242424242424242', { cvc: '12' }, ['cvc']],
      ['', { expMonth: 'x', cvc: 5 }, ['number', 'expiry', 'cvc']],
    ])('refuses %s %o with %o and keeps nothing', async (number, overrides, problems) => {
      const before = await count('payment_sandbox_payment_methods');
      const { status, body } = await tokenize(number, overrides);
      expect(status).toBe(400);
      expect(body.error).toEqual({ code: 'invalid_card', problems });
      expect(await count('payment_sandbox_payment_methods')).toBe(before);
    });

    it('takes cards from its own frame only: a post from another origin is refused', async () => {
      const response = await fetch(`${server.url}/v1/payment_methods`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: SITE },
        body: JSON.stringify({ number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' }),
      });
      expect(response.status).toBe(403);
    });

    it('serves the frame with its own strict CSP, framed by our site only', async () => {
      const response = await fetch(`${server.url}/frame?parent=${encodeURIComponent(SITE)}&locale=zh-hk`);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/default-src 'none'/);
      expect(csp).toMatch(/script-src 'nonce-[^']+'/);
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain(`frame-ancestors ${SITE}`);
      const html = await response.text();
      expect(html).toContain('卡號');
      expect(html).toContain('autocomplete="cc-number"');
      expect(html).toContain(JSON.stringify(SITE));
      expect((await fetch(`${server.url}/frame?parent=${encodeURIComponent('https://evil.example')}`)).status).toBe(
        400,
      );
    });
  });

  describe('idempotency', () => {
    it('answers the same charge for the same key, and a conflict for the same key with other parameters', async () => {
      const card = await customerWithCard('4242424242424242');
      const first = request(card);
      const charge = await gateway.charge(first);
      expect(await gateway.charge(first)).toEqual(charge);
      expect((await rejection(gateway.charge({ ...first, amount: first.amount + 1 }))).code).toBe(
        'idempotency_conflict',
      );
      expect((await rejection(gateway.charge({ ...first, metadata: { orderId: 'order-2' } }))).code).toBe(
        'idempotency_conflict',
      );
      const rows = await database.knex('payment_sandbox_charges').where({ payment_method_id: card.paymentMethodId });
      expect(rows).toHaveLength(1);
    });

    it('makes one charge of 20 concurrent requests with one key', async () => {
      const card = await customerWithCard('4242424242424242');
      const same = request(card);
      // The adapter's production timeout: the 19 waiting requests poll one embedded database.
      const patient = new SandboxGateway(sandbox);
      const charges = await Promise.all(Array.from({ length: 20 }, () => patient.charge(same)));
      expect(new Set(charges.map((charge) => charge.id)).size).toBe(1);
      expect(
        await database.knex('payment_sandbox_charges').where({ payment_method_id: card.paymentMethodId }),
      ).toHaveLength(1);
      await sandbox.webhooks.idle();
      expect(events().filter((event) => event.chargeId === charges[0]?.id)).toHaveLength(1);
    });

    it('lets a key be used again after a refused request (nothing was done with it)', async () => {
      const card = await customerWithCard('4242424242424242');
      const first = request(card, { amount: 0 });
      expect((await rejection(gateway.charge(first))).code).toBe('invalid_request');
      expect((await gateway.charge({ ...first, amount: 1000 })).status).toBe('succeeded');
    });
  });

  describe('3-D Secure and webhooks', () => {
    it('asks for a challenge; approving it succeeds the charge and sends signed webhooks', async () => {
      const charge = await gateway.charge(
        request(await customerWithCard('4000002500003155'), { returnUrl: `${SITE}/en/subscription?step=payment` }),
      );
      expect(charge.status).toBe('requires_action');
      const page = await fetch(`${charge.action?.url}?parent=${encodeURIComponent(SITE)}&locale=en`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${SITE}`);
      const html = await page.text();
      expect(html).toContain('HK$3,588.00');
      expect(html).toContain('Confirm payment');
      const answer = await fetch(`${server.url}/challenge/${charge.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'approve' }),
      });
      expect(await answer.json()).toEqual({ id: charge.id, status: 'succeeded' });
      expect((await gateway.retrieve(charge.id)).status).toBe('succeeded');
      // A second answer (a double click, a replayed post) changes nothing.
      await fetch(`${server.url}/challenge/${charge.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'fail' }),
      });
      expect((await gateway.retrieve(charge.id)).status).toBe('succeeded');
      expect((await fetch(`${charge.action?.url}`)).status).toBe(404);

      await sandbox.webhooks.idle();
      expect(
        received.every(({ headers }) => /^t=\d+,v1=[0-9a-f]{64}$/.test(String(headers[SANDBOX_SIGNATURE_HEADER]))),
      ).toBe(true);
      const mine = events().filter((event) => event.chargeId === charge.id);
      expect(mine.map((event) => event.type)).toEqual(['charge.requires_action', 'charge.succeeded']);
      expect(mine[1]?.charge).toMatchObject({
        id: charge.id,
        status: 'succeeded',
        amount: 358800,
        card: { last4: '3155' },
      });
      expect(mine[0]!.created.getTime()).toBeLessThanOrEqual(mine[1]!.created.getTime());
      const delivery = await database
        .knex('payment_sandbox_webhook_deliveries')
        .where({ charge_id: charge.id, event_type: 'charge.succeeded' })
        .first();
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, last_response_status: 204 });
    });

    it('fails the charge when the challenge is failed', async () => {
      const charge = await gateway.charge(request(await customerWithCard('4000000000003220')));
      expect(await sandbox.completeChallenge(charge.id, 'fail')).toMatchObject({
        status: 'failed',
        failure: { code: 'authentication_failed' },
      });
      await sandbox.webhooks.idle();
      expect(events().map((event) => event.type)).toEqual(['charge.requires_action', 'charge.failed']);
    });

    it('refuses a tampered body, another secret, an old timestamp, a future one and a missing header', async () => {
      const charge = await gateway.charge(request(await customerWithCard('4242424242424242')));
      await sandbox.webhooks.idle();
      const [delivered] = received;
      if (!delivered) throw new Error('no webhook');
      expect(gateway.parseWebhook(delivered.body, delivered.headers as Record<string, string>)?.chargeId).toBe(
        charge.id,
      );
      const body = delivered.body.toString();
      const header = String(delivered.headers[SANDBOX_SIGNATURE_HEADER]);
      const refused = (raw: string, signature: string | undefined) => {
        try {
          gateway.parseWebhook(Buffer.from(raw), { [SANDBOX_SIGNATURE_HEADER]: signature });
        } catch (error) {
          return (error as GatewayError).code;
        }
        return 'accepted';
      };
      expect(refused(body.replace('"succeeded"', '"refunded"'), header)).toBe('bad_signature');
      expect(refused(body, signPayload(body, 'another-secret-that-is-long-enough-000'))).toBe('bad_signature');
      const now = Math.floor(Date.now() / 1000);
      expect(refused(body, signPayload(body, secret, now - 301))).toBe('bad_signature');
      expect(refused(body, signPayload(body, secret, now + 301))).toBe('bad_signature');
      expect(refused(body, signPayload(body, secret, now - 290))).toBe('accepted');
      expect(refused(body, undefined)).toBe('bad_signature');
      expect(refused(body, 't=1,v1=zz')).toBe('bad_signature');
      expect(refused('{"not":"an event"}', signPayload('{"not":"an event"}', secret))).toBe('invalid_request');
    });
  });

  describe('fault switches', () => {
    it('answers 500 without charging', async () => {
      const card = await customerWithCard('4242424242424242');
      sandbox.setFaults({ api: 'error', count: 1 });
      const key = request(card);
      expect((await rejection(gateway.charge(key))).code).toBe('unavailable');
      expect(
        await database.knex('payment_sandbox_charges').where({ payment_method_id: card.paymentMethodId }),
      ).toHaveLength(0);
      // The switch was for one call: the retry goes through, once.
      expect((await gateway.charge(key)).status).toBe('succeeded');
    });

    it('times out after charging; the retry with the same key answers that one charge', async () => {
      const card = await customerWithCard('4242424242424242');
      sandbox.setFaults({ api: 'timeout', count: 1 });
      const key = request(card);
      expect((await rejection(gateway.charge(key))).code).toBe('timeout');
      const retried = await gateway.charge(key);
      expect(retried.status).toBe('succeeded');
      expect(
        await database.knex('payment_sandbox_charges').where({ payment_method_id: card.paymentMethodId }),
      ).toHaveLength(1);
    });

    it('sends each webhook twice, with the same event id', async () => {
      sandbox.setFaults({ webhooks: 'duplicate' });
      const charge = await gateway.charge(request(await customerWithCard('4242424242424242')));
      await sandbox.webhooks.idle();
      const mine = events().filter((event) => event.chargeId === charge.id);
      expect(mine).toHaveLength(2);
      expect(mine[0]?.id).toBe(mine[1]?.id);
    });

    it('sends webhooks out of order when told to', async () => {
      sandbox.setFaults({ webhooks: 'reorder' });
      const charge = await gateway.charge(request(await customerWithCard('4000002500003155')));
      await sandbox.completeChallenge(charge.id, 'approve');
      await sandbox.webhooks.idle();
      expect(received).toHaveLength(0);
      sandbox.webhooks.release();
      await sandbox.webhooks.idle();
      const mine = events();
      expect(mine.map((event) => event.type)).toEqual(['charge.succeeded', 'charge.requires_action']);
      expect(mine[0]!.created.getTime()).toBeGreaterThanOrEqual(mine[1]!.created.getTime());
    });

    it('are switched over HTTP with the webhook secret as bearer token', async () => {
      const post = (body: unknown, token = secret) =>
        fetch(`${server.url}/v1/test/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        });
      expect((await post({ api: 'error' }, 'wrong')).status).toBe(401);
      expect(sandbox.getFaults().api).toBe('none');
      expect(await (await post({ api: 'error', count: 2, webhooks: 'duplicate' })).json()).toEqual({
        api: 'error',
        count: 2,
        webhooks: 'duplicate',
      });
      const card = await customerWithCard('4242424242424242').catch((error: unknown) => error);
      expect(card).toBeInstanceOf(GatewayError);
      const tokenised = await tokenize('4242424242424242');
      expect(tokenised.status).toBe(500);
      expect(sandbox.getFaults()).toEqual({ api: 'none', count: 0, webhooks: 'duplicate' });
      const reset = await post({ api: 'none', webhooks: 'normal' });
      expect(await reset.json()).toEqual({ api: 'none', count: 0, webhooks: 'normal' });
    });
  });
});
