import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { ADMIN, createAccount, skipReason, startTestServer } from './harness.ts';
import { CARDS, paymentFixture, shipping } from './payment-fixture.ts';

/*
 * `Idempotency-Key` on the API's writes (decision 041): a retry after a lost answer gets the first
 * answer and writes nothing twice; the key is its caller's; another request under the same key is
 * refused, and a failed request leaves the key free.
 */

describe.skipIf(skipReason)('writes sent with an Idempotency-Key', () => {
  let server: RunningServer;
  let token: string;

  const payments = paymentFixture();
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}/api/${path}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  const stored = async (email: string) =>
    Number((await server.database.knex('subscribers').where({ email }).count({ n: '*' }).first())?.n);

  beforeAll(async () => {
    server = await startTestServer();
    payments.state.server = server;
    await payments.start();
    const signedIn = await post('authentication', { strategy: 'local', ...ADMIN });
    token = signedIn.body.accessToken as string;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a retry with the first answer, and writes once', async () => {
    const key = randomUUID();
    const email = `retry-${key}@example.com`;
    const first = await post('subscribers', { email, campaign: '23hkrace' }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('subscribers', { email, campaign: '23hkrace' }, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await stored(email)).toBe(1);
  });

  it('sends retries that arrive together to one write', async () => {
    const key = randomUUID();
    const email = `together-${key}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post('subscribers', { email, campaign: '23hkrace' }, { 'idempotency-key': key })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    // One is written; the others get its answer, or are asked to try again in a moment.
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    for (const status of statuses) expect([201, 409]).toContain(status);
    for (const answer of answers.filter((candidate) => candidate.status === 409))
      expect(answer.headers.get('retry-after')).toBe('1');
    expect(await stored(email)).toBe(1);
  });

  it('keeps each caller’s keys apart', async () => {
    const key = randomUUID();
    const mine = await post(
      'subscribers',
      { email: `mine-${key}@example.com`, campaign: '23hkrace' },
      { 'idempotency-key': key },
    );
    const theirs = await post(
      'subscribers',
      { email: `theirs-${key}@example.com`, campaign: '23hkrace' },
      { 'idempotency-key': key, authorization: `Bearer ${token}` },
    );
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body._id).not.toBe(mine.body._id);
    expect(await stored(`theirs-${key}@example.com`)).toBe(1);
  });

  it('refuses another request under a used key, and a key that is not one, in the caller’s language', async () => {
    const key = randomUUID();
    expect(
      (await post('subscribers', { email: `one-${key}@example.com`, campaign: '23hkrace' }, { 'idempotency-key': key }))
        .status,
    ).toBe(201);
    const other = await post(
      'subscribers',
      { email: `other-${key}@example.com`, campaign: '23hkrace' },
      { 'idempotency-key': key, 'accept-language': 'zh-HK' },
    );
    expect(other.status).toBe(422);
    expect(other.body.message).toBe('此 Idempotency-Key 已用於另一個請求。');
    expect(await stored(`other-${key}@example.com`)).toBe(0);

    const bad = await post(
      'subscribers',
      { email: `bad-${key}@example.com`, campaign: '23hkrace' },
      { 'idempotency-key': 'short' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      'The Idempotency-Key header must be 8 to 128 letters, digits, hyphens or underscores.',
    );
    expect(await stored(`bad-${key}@example.com`)).toBe(0);
  });

  it('leaves the key free after a refused request, so it can be corrected and sent again', async () => {
    const key = randomUUID();
    const refused = await post(
      'subscribers',
      { email: 'not-an-email', campaign: '23hkrace' },
      { 'idempotency-key': key },
    );
    expect(refused.status).toBe(400);
    const corrected = await post(
      'subscribers',
      { email: `fixed-${key}@example.com`, campaign: '23hkrace' },
      { 'idempotency-key': key },
    );
    expect(corrected.status).toBe(201);
    expect(await server.database.knex('idempotency_keys').where({ key }).select('state', 'status')).toEqual([
      { state: 'done', status: 201 },
    ]);
  });

  /** A member signed in over REST: their account and the authorization header of their session. */
  const member = async (label: string) => {
    const account = await createAccount(server.database.knex, { label });
    const signedIn = await post('authentication', {
      strategy: 'local',
      email: account.email,
      password: account.password,
    });
    return { account, headers: { authorization: `Bearer ${signedIn.body.accessToken as string}` } };
  };

  it('answers a retried order with the first answer, and places one order', async () => {
    const { account, headers } = await member('order-retry');
    const order = {
      plan: payments.state.plan,
      addOns: [{ id: payments.state.addOn }],
      prepaidMonths: 24,
      shipping: shipping(),
      idempotencyKey: randomUUID(),
    };
    const key = randomUUID();
    const first = await post('orders', order, { ...headers, 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('orders', order, { ...headers, 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await server.database.knex('orders').where('user_id', account._id).select('id')).toEqual([
      { id: first.body._id },
    ]);
  });

  it('answers a retried payment with the first answer, and charges the card once', async () => {
    const { account, headers } = await member('payment-retry');
    const order = await payments.order({ _id: account._id, role: 'member' });
    const payment = await payments.request(order, CARDS.success);
    const key = randomUUID();
    const first = await post('payments', payment, { ...headers, 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('payments', payment, { ...headers, 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await payments.attempts(order._id)).map((attempt) => attempt.id)).toEqual([first.body._id]);
    expect(await payments.charges(order._id)).toHaveLength(1);
  });

  it('leaves requests without a key as they were: each goes to the service', async () => {
    const email = `plain-${randomUUID()}@example.com`;
    const answers = [
      await post('subscribers', { email, campaign: '23hkrace' }),
      await post('subscribers', { email, campaign: '23hkrace' }),
    ];
    expect(answers.map((answer) => [answer.status, answer.headers.get('idempotent-replayed')])).toEqual([
      [201, null],
      [201, null],
    ]);
    expect(await server.database.knex('idempotency_keys').whereRaw('body::text like ?', [`%${email}%`])).toEqual([]);
  });
});
