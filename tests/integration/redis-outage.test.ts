import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  createAccount,
  redisSkipReason,
  socketClient,
  startTestServers,
  TEST_REDIS_URL,
  type SocketClient,
  type TestAccount,
  validEnquiry,
} from './harness.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * Redis is an accelerator, never a single point of failure (decision 032). Two instances reach the
 * run's Redis through a proxy the test takes away, as a stopped server does (connections refused)
 * and as a network that drops everything does (accepted, never answered). While it is away every
 * request answers within a second: sign-in, sign-out (the token then refused on both instances),
 * limits (held per instance), forms, authenticated reads, socket tickets, and events to sockets on the instance
 * that made the change; `/health` says Redis is down. When it is back, everything is shared again
 * without a restart, and the sign-outs made meanwhile are in Redis.
 */

const redisReason = await redisSkipReason();
/** What "never waits on Redis" means for one request. */
const WITHIN_MS = 1_000;
/** Small, so a few calls reach it; every call of this file comes from 127.0.0.1. */
const NEWSLETTER_TEST_LIMIT = { points: 3, duration: 600 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A call and how long it took. */
async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await call();
  return { result, ms: performance.now() - started };
}

async function api(
  server: RunningServer,
  method: string,
  path: string,
  options: { body?: unknown; token?: string } = {},
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** The request within a second; its answer. */
async function quickly(
  server: RunningServer,
  method: string,
  path: string,
  options: { body?: unknown; token?: string } = {},
) {
  const { result, ms } = await timed(() => api(server, method, path, options));
  expect(ms, `${method} ${path} took ${Math.round(ms)} ms`).toBeLessThan(WITHIN_MS);
  return result;
}

async function until(check: () => Promise<boolean> | boolean, what: string, ms: number): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
  return performance.now() - started;
}

describe.skipIf(redisReason).each(['refused', 'blackholed'] as const)('Redis %s', (outage) => {
  const prefix = `test-outage-${randomBytes(6).toString('hex')}`;
  let proxy: TcpProxy;
  let a: RunningServer;
  let b: RunningServer;
  let redis: Redis;
  const sockets: SocketClient[] = [];
  let member: TestAccount;
  let adminToken: string;
  /** When a socket on B, open all along, was told to fetch again (`resync`). */
  const resyncsOnB: number[] = [];

  beforeAll(async () => {
    proxy = await startTcpProxy(TEST_REDIS_URL);
    [a, b] = (await startTestServers(2, {
      redisUrl: proxy.url,
      redisPrefix: prefix,
      newsletterLimit: NEWSLETTER_TEST_LIMIT,
    })) as [RunningServer, RunningServer];
    redis = new Redis(TEST_REDIS_URL);
    member = await createAccount(a.database.knex);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all([a?.close(), b?.close()]);
    await proxy?.close();
    const keys = await redis?.keys(`${prefix}:*`);
    if (keys?.length) await redis.del(...keys);
    redis?.disconnect();
  });

  const signIn = async (server: RunningServer, account: { email: string; password: string }) => {
    const { status, body } = await quickly(server, 'POST', '/api/authentication', {
      body: { strategy: 'local', email: account.email, password: account.password },
    });
    expect(status).toBe(201);
    return body as { accessToken: string; authentication: { payload: { jti: string } } };
  };
  /** A socket on an instance that collects the `patched` events of industries. */
  const watchIndustries = async (server: RunningServer) => {
    const s = socketClient(server.url);
    sockets.push(s);
    const seen: { _id: string; order: number }[] = [];
    s.client.service('industries').on('patched', (data: { _id: string; order: number }) => seen.push(data));
    await new Promise<void>((resolve) => (s.socket.connected ? resolve() : s.socket.once('connect', () => resolve())));
    return seen;
  };
  const patchAnIndustry = async (server: RunningServer) => {
    const { body } = await quickly(server, 'GET', '/api/industries?$limit=1');
    const industry = (body.data as { _id: string; order: number }[])[0]!;
    const patched = await quickly(server, 'PATCH', `/api/industries/${industry._id}`, {
      body: { order: industry.order + 1 },
      token: adminToken,
    });
    expect(patched.status).toBe(200);
    return { _id: industry._id, order: industry.order + 1 };
  };

  it('with Redis there, /health reports it', async () => {
    adminToken = (await signIn(a, ADMIN)).accessToken;
    const onB = socketClient(b.url);
    sockets.push(onB);
    onB.socket.on('resync', () => resyncsOnB.push(Date.now()));
    await new Promise<void>((resolve) =>
      onB.socket.connected ? resolve() : onB.socket.once('connect', () => resolve()),
    );
    const health = await api(a, 'GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      instance: expect.any(String),
      database: { status: 'ok' },
      redis: { status: 'ok' },
      jobs: { status: 'ok' },
    });
  });

  it('while it is away, every request answers within a second, and /health says Redis is down', async () => {
    const onA = await watchIndustries(a);
    const sessionOnB = await signIn(b, member);
    if (outage === 'refused') await proxy.cut();
    else proxy.blackhole();

    const health = await quickly(a, 'GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({
      status: 'unavailable',
      redis: { status: 'down' },
      database: { status: 'ok' },
      jobs: { status: 'ok' },
    });
    expect((await quickly(a, 'GET', '/health/live')).status).toBe(200);

    // Sign-in, an authenticated read, a form.
    const session = await signIn(a, member);
    expect((await quickly(a, 'GET', `/api/users/${member._id}`, { token: session.accessToken })).status).toBe(200);
    expect((await quickly(b, 'GET', `/api/users/${member._id}`, { token: session.accessToken })).status).toBe(200);
    const enquiry = await quickly(a, 'POST', '/api/enquiries', { body: validEnquiry(`outage-${outage}@example.test`) });
    expect(enquiry.status).toBe(201);

    // A portal page's socket ticket: issued on A, redeemed on B, through the table.
    const ticketed = await timed(() =>
      fetch(`${a.url}/api/socketTickets`, {
        method: 'POST',
        headers: { cookie: `tp_session=${session.accessToken}`, origin: a.url },
      }),
    );
    expect(ticketed.ms).toBeLessThan(WITHIN_MS);
    expect(ticketed.result.status).toBe(201);
    const { ticket } = (await ticketed.result.json()) as { ticket: string };
    const live = socketClient(b.url);
    sockets.push(live);
    // The service itself rather than the client's `authenticate`: a ticket's answer holds no token to keep.
    const redeemed = await timed(() => live.client.service('authentication').create({ strategy: 'ticket', ticket }));
    expect(redeemed.ms).toBeLessThan(WITHIN_MS);
    expect(redeemed.result).toMatchObject({ user: { _id: member._id } });
    live.close();

    // An event reaches the sockets of the instance that made the change (feathers-sync could not publish it).
    const change = await patchAnIndustry(a);
    const waited = await until(
      () => onA.some((event) => event._id === change._id && event.order === change.order),
      'the event on A',
      WITHIN_MS,
    );
    expect(waited).toBeLessThan(WITHIN_MS);

    // Sign-out succeeds, and the token is refused on both instances (the table is the record).
    expect((await quickly(a, 'DELETE', '/api/authentication', { token: session.accessToken })).status).toBe(200);
    expect((await quickly(a, 'GET', `/api/users/${member._id}`, { token: session.accessToken })).status).toBe(401);
    // B reuses a "not revoked" answer from the table for at most a second while Redis is away.
    const refusedOnB = await until(
      async () => (await quickly(b, 'GET', `/api/users/${member._id}`, { token: session.accessToken })).status === 401,
      'B to refuse the token',
      2_000,
    );
    expect(refusedOnB).toBeLessThan(1_500);
    expect((await quickly(b, 'DELETE', '/api/authentication', { token: sessionOnB.accessToken })).status).toBe(200);
    expect((await quickly(a, 'GET', `/api/users/${member._id}`, { token: sessionOnB.accessToken })).status).toBe(401);

    // The newsletter limit holds on each instance, counted by each alone.
    const subscribe = (server: RunningServer, n: number) =>
      quickly(server, 'POST', '/api/subscribers', {
        body: { campaign: '23hkrace', email: `limit-${outage}-${n}@shop.hk` },
      });
    for (let n = 0; n < NEWSLETTER_TEST_LIMIT.points; n += 1) expect((await subscribe(a, n)).status).toBe(201);
    const limited = await subscribe(a, 99);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await subscribe(b, 100)).status).toBe(201);
    // Nothing says to fetch again while events may still be missed.
    expect(resyncsOnB).toEqual([]);
  });

  it("a role changed on one instance while it is away moves that account's sockets on the other within moments", async () => {
    const editor = await createAccount(a.database.knex, { role: 'editor' });
    const watcher = socketClient(b.url);
    sockets.push(watcher);
    await watcher.client.authenticate({ strategy: 'local', email: editor.email, password: editor.password });
    const heard: string[] = [];
    watcher.client.service('enquiries').on('created', (enquiry: { email: string }) => heard.push(enquiry.email));
    // An enquiry (staff only) made on B reaches the editor's socket on B.
    const before = `role-before-${outage}@example.test`;
    expect((await quickly(b, 'POST', '/api/enquiries', { body: validEnquiry(before) })).status).toBe(201);
    await until(() => heard.includes(before), 'the editor to hear of the enquiry', WITHIN_MS);

    // Made a member on A: the event cannot reach B; B's check of its signed-in sockets finds it.
    expect(
      (await quickly(a, 'PATCH', `/api/users/${editor._id}`, { body: { role: 'member' }, token: adminToken })).status,
    ).toBe(200);
    await sleep(1_500);
    const after = `role-after-${outage}@example.test`;
    expect((await quickly(b, 'POST', '/api/enquiries', { body: validEnquiry(after) })).status).toBe(201);
    await sleep(500);
    expect(heard).not.toContain(after);
    expect(watcher.socket.connected).toBe(true);
  });

  it('when it is back, everything is shared again without a restart, sign-outs made meanwhile included, and sockets are told to fetch again', async () => {
    await proxy.restore();
    const restoredAt = Date.now();
    const recovered = await until(
      async () => (await api(a, 'GET', '/health')).status === 200 && (await api(b, 'GET', '/health')).status === 200,
      'both instances healthy',
      10_000,
    );
    expect(recovered).toBeLessThan(10_000);

    // The sign-outs made while Redis was away were copied into it.
    const revoked = await a.database.knex('revoked_tokens').select('jti');
    expect(revoked.length).toBeGreaterThanOrEqual(2);
    await until(
      async () =>
        (await Promise.all(revoked.map(({ jti }: { jti: string }) => redis.exists(`${prefix}:revoked:${jti}`)))).every(
          (found) => found === 1,
        ),
      'the revocations in Redis',
      5_000,
    );

    // Events cross instances again, and a new sign-out is refused on the other instance at once.
    const onB = await watchIndustries(b);
    await until(
      async () => {
        const change = await patchAnIndustry(a);
        await sleep(200);
        return onB.some((event) => event._id === change._id && event.order === change.order);
      },
      'an event from A on B',
      5_000,
    );
    const session = await signIn(a, member);
    expect((await api(b, 'GET', `/api/users/${member._id}`, { token: session.accessToken })).status).toBe(200);
    expect((await api(a, 'DELETE', '/api/authentication', { token: session.accessToken })).status).toBe(200);
    expect((await api(b, 'GET', `/api/users/${member._id}`, { token: session.accessToken })).status).toBe(401);
    expect(await redis.exists(`${prefix}:revoked:${session.authentication.payload.jti}`)).toBe(1);
    // The socket on B, connected all along, missed A's events meanwhile: it was told to fetch again.
    await until(() => resyncsOnB.length > 0, 'B to tell its sockets to fetch again', 5_000);
    expect(resyncsOnB[0]! - restoredAt).toBeLessThan(10_000);
  });
});
