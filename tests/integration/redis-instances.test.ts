import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS, pairKey } from '../../server/auth/limits.ts';
import { invalidateOnCatalogueChanges } from '../../server/cached-pages.ts';
import { PageCache } from '../../server/page-cache.ts';
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
} from './harness.ts';

/**
 * Two instances of the server on one database and one Redis (as behind a load balancer): a token
 * revoked on one is refused by the other, sign-in limits count together, and service events
 * reach sockets connected to either (feathers-sync), carrying no secrets through Redis.
 */

const redisReason = await redisSkipReason();
/** Small, so the test reaches it in a few calls; every call of this file comes from 127.0.0.1. */
const NEWSLETTER_TEST_LIMIT = { points: 4, duration: 600 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe.skipIf(redisReason)('several instances sharing PostgreSQL and Redis', () => {
  // Keys and the events channel of this run only: other runs (and the other project) share the Redis.
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  let a: RunningServer;
  let b: RunningServer;
  let redis: Redis;
  let subscriber: Redis;
  const published: string[] = [];
  const sockets: SocketClient[] = [];

  beforeAll(async () => {
    [a, b] = (await startTestServers(2, {
      redisUrl: TEST_REDIS_URL,
      redisPrefix: prefix,
      newsletterLimit: NEWSLETTER_TEST_LIMIT,
    })) as [RunningServer, RunningServer];
    redis = new Redis(TEST_REDIS_URL);
    subscriber = new Redis(TEST_REDIS_URL);
    subscriber.on('message', (_channel: string, message: string) => published.push(message));
    await subscriber.subscribe(`${prefix}:events`);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all([a?.close(), b?.close()]);
    const keys = await redis?.keys(`${prefix}:*`);
    if (keys?.length) await redis.del(...keys);
    subscriber?.disconnect();
    redis?.disconnect();
  });

  async function api(
    server: RunningServer,
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ) {
    const response = await fetch(`${server.url}/api${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    };
  }
  const signIn = async (server: RunningServer, account: { email: string; password: string }) => {
    const { status, body } = await api(server, 'POST', '/authentication', {
      body: { strategy: 'local', email: account.email, password: account.password },
    });
    expect(status).toBe(201);
    return body as { accessToken: string; authentication: { payload: { jti: string } }; user: { _id: string } };
  };

  it('a token signed out on one instance is refused by the other; the revocation is in the table and in Redis', async () => {
    const member = await createAccount(a.database.knex);
    const session = await signIn(a, member);
    expect((await api(b, 'GET', `/users/${member._id}`, { token: session.accessToken })).status).toBe(200);

    expect((await api(a, 'DELETE', '/authentication', { token: session.accessToken })).status).toBe(200);

    expect((await api(b, 'GET', `/users/${member._id}`, { token: session.accessToken })).status).toBe(401);
    expect(
      (await api(b, 'POST', '/authentication', { body: { strategy: 'jwt', accessToken: session.accessToken } })).status,
    ).toBe(401);
    const jti = session.authentication.payload.jti;
    expect(await redis.exists(`${prefix}:revoked:${jti}`)).toBe(1);
    expect(await redis.ttl(`${prefix}:revoked:${jti}`)).toBeGreaterThan(6 * 24 * 60 * 60);
    // The table is the record (decision 032); Redis the copy every call asks.
    expect(await a.database.knex('revoked_tokens').where({ jti }).first()).toMatchObject({ jti });
  });

  it('a token signed out on one instance closes the socket on the other that signed in with it, and is refused there', async () => {
    const member = await createAccount(a.database.knex);
    const s = socketClient(b.url);
    sockets.push(s);
    const { accessToken } = await s.client.authenticate({
      strategy: 'local',
      email: member.email,
      password: member.password,
    });
    expect(await s.client.service('users').get(member._id)).toMatchObject({ _id: member._id });

    expect((await api(a, 'DELETE', '/authentication', { token: accessToken })).status).toBe(200);

    // No waiting for the event: the revocation list in Redis is asked on every sign-in and call.
    const again = socketClient(b.url);
    sockets.push(again);
    await expect(again.client.authenticate({ strategy: 'jwt', accessToken })).rejects.toMatchObject({
      name: 'NotAuthenticated',
      code: 401,
    });
    // The event closes the socket that signed in with it.
    expect(await s.closedWithin()).toBe('io server disconnect');
  });

  it('a role change applies at once on the instance that made it, and within moments on the other', async () => {
    const editor = await createAccount(a.database.knex, { role: 'editor' });
    const session = await signIn(a, editor);
    const admin = await signIn(a, ADMIN);
    const total = async (server: RunningServer) =>
      (await api(server, 'GET', '/users?$limit=1', { token: session.accessToken })).body.total;
    // Both instances have just verified the editor's token and keep the session for a few seconds.
    expect(await total(a)).toBeGreaterThan(1);
    expect(await total(b)).toBeGreaterThan(1);

    expect(
      (await api(a, 'PATCH', `/users/${editor._id}`, { body: { role: 'member' }, token: admin.accessToken })).status,
    ).toBe(200);

    expect(await total(a)).toBe(1);
    // On B when the event arrives through Redis: well before the cached session would expire.
    const end = Date.now() + 2_000;
    while ((await total(b)) !== 1) {
      if (Date.now() > end) throw new Error('instance B still answers with the old role');
      await sleep(20);
    }
  });

  it('sign-in failures on both instances count against one limit', async () => {
    const member = await createAccount(a.database.knex);
    for (let attempt = 0; attempt < LOGIN_LIMITS.consecutiveFailures.points; attempt += 1) {
      const server = attempt % 2 === 0 ? a : b;
      expect(
        (
          await api(server, 'POST', '/authentication', {
            body: { strategy: 'local', email: member.email, password: 'Wrong1234' },
          })
        ).status,
      ).toBe(401);
    }
    for (const server of [a, b]) {
      const locked = await api(server, 'POST', '/authentication', {
        body: { strategy: 'local', email: member.email, password: member.password },
      });
      expect(locked.status).toBe(429);
    }
    // Every call of this file comes from 127.0.0.1.
    expect(await redis.exists(`${prefix}:limit:consecutiveFailures:${pairKey('127.0.0.1', member.email)}`)).toBe(1);
  });

  it('newsletter subscriptions from one address on both instances count against one limit', async () => {
    const subscribe = (server: RunningServer, n: number) =>
      api(server, 'POST', '/subscribers', {
        body: { campaign: '23hkrace', email: `limit-${n}@shop.hk` },
        headers: { 'x-locale': 'zh-cn' },
      });
    for (let n = 0; n < NEWSLETTER_TEST_LIMIT.points; n += 1)
      expect((await subscribe(n % 2 === 0 ? a : b, n)).status).toBe(201);
    for (const server of [a, b]) {
      const limited = await subscribe(server, 99);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body).toMatchObject({ name: 'TooManyRequests', message: '你的网络订阅次数太多，请稍后再试。' });
    }
    expect(await redis.keys(`${prefix}:limit:newsletter:*`)).toHaveLength(1);
  });

  it('a service event on one instance reaches sockets on the other, within the channel rules', async () => {
    const received: Record<string, { path: string; data: Record<string, unknown> }[]> = {
      anonymousB: [],
      adminB: [],
      anonymousA: [],
    };
    const watch = async (name: string, server: RunningServer, account?: { email: string; password: string }) => {
      const s = socketClient(server.url);
      sockets.push(s);
      for (const path of ['industries', 'users']) {
        s.client.service(path).on('patched', (data: Record<string, unknown>) => received[name]!.push({ path, data }));
      }
      if (account) await s.client.authenticate({ strategy: 'local', ...account });
      else
        await new Promise<void>((resolve) =>
          s.socket.connected ? resolve() : s.socket.once('connect', () => resolve()),
        );
    };
    await Promise.all([watch('anonymousB', b), watch('adminB', b, ADMIN), watch('anonymousA', a)]);

    const admin = await signIn(a, ADMIN);
    const industries = await api(a, 'GET', '/industries?$limit=1');
    const industry = (industries.body.data as { _id: string; order: number }[])[0]!;
    expect(
      (
        await api(a, 'PATCH', `/industries/${industry._id}`, {
          body: { order: industry.order + 1 },
          token: admin.accessToken,
        })
      ).status,
    ).toBe(200);
    await until(
      () => received.anonymousB!.some((e) => e.path === 'industries' && e.data._id === industry._id),
      'the socket on B',
    );
    await until(
      () => received.anonymousA!.some((e) => e.path === 'industries' && e.data._id === industry._id),
      'the socket on A',
    );
    expect(received.anonymousB!.filter((e) => e.path === 'industries')).toHaveLength(1);

    // A user record: to the admin's socket on the other instance, not to the anonymous one.
    const member: TestAccount = await createAccount(a.database.knex);
    const newPassword = 'Plaintext-Secret-987';
    expect(
      (
        await api(a, 'PATCH', `/users/${member._id}`, {
          body: { name: 'Synced', password: newPassword },
          token: admin.accessToken,
        })
      ).status,
    ).toBe(200);
    await until(
      () => received.adminB!.some((e) => e.path === 'users' && e.data._id === member._id),
      'the admin socket on B',
    );
    await sleep(300);
    expect(received.anonymousB!.filter((e) => e.path === 'users')).toEqual([]);
    expect(received.adminB!.find((e) => e.data._id === member._id)?.data).toMatchObject({ name: 'Synced' });
    expect(JSON.stringify(received)).not.toContain('password');

    // What went through Redis: the records as clients see them, no password (plain or hashed), no token.
    expect(published.length).toBeGreaterThanOrEqual(2);
    const wire = published.join('\n');
    for (const secret of [newPassword, '$argon2', '"password"', admin.accessToken, 'authorization'])
      expect(wire).not.toContain(secret);
  });

  it('signing out on one instance stops the events of a socket on the other that used that token', async () => {
    const member = await createAccount(a.database.knex);
    const s = socketClient(b.url);
    sockets.push(s);
    const seen: Record<string, unknown>[] = [];
    s.client.service('users').on('patched', (data: Record<string, unknown>) => seen.push(data));
    const { accessToken } = await s.client.authenticate({
      strategy: 'local',
      email: member.email,
      password: member.password,
    });
    const admin = await signIn(a, ADMIN);
    expect(
      (await api(a, 'PATCH', `/users/${member._id}`, { body: { name: 'Before' }, token: admin.accessToken })).status,
    ).toBe(200);
    await until(() => seen.some((e) => e.name === 'Before'), 'the member socket on B');

    expect((await api(a, 'DELETE', '/authentication', { token: accessToken })).status).toBe(200);
    await sleep(200);
    const adminSocket = socketClient(b.url);
    sockets.push(adminSocket);
    const adminSeen: Record<string, unknown>[] = [];
    adminSocket.client.service('users').on('patched', (data: Record<string, unknown>) => adminSeen.push(data));
    await adminSocket.client.authenticate({ strategy: 'local', ...ADMIN });
    expect(
      (await api(a, 'PATCH', `/users/${member._id}`, { body: { name: 'After' }, token: admin.accessToken })).status,
    ).toBe(200);
    await until(() => adminSeen.some((e) => e.name === 'After'), 'the admin socket on B');
    await sleep(300);
    expect(seen.map((e) => e.name)).toEqual(['Before']);
    expect(JSON.stringify(published)).not.toContain(accessToken);
  });

  it('a catalogue change on one instance empties the page cache of both (decision 010)', async () => {
    const caches = [new PageCache(), new PageCache()] as const;
    invalidateOnCatalogueChanges(a.api, caches[0]);
    invalidateOnCatalogueChanges(b.api, caches[1]);
    for (const cache of caches)
      cache.set('/en', { status: 200, headers: [], body: Buffer.from('<html>'), etag: 'e' }, cache.generation);
    const admin = await signIn(a, ADMIN);
    const industry = ((await api(a, 'GET', '/industries?$limit=1')).body.data as { _id: string; name: unknown }[])[0];
    expect(
      (
        await api(a, 'PATCH', `/industries/${industry?._id}`, {
          body: { name: industry?.name },
          token: admin.accessToken,
        })
      ).status,
    ).toBe(200);
    await until(() => caches.every((cache) => cache.size === 0), 'both page caches to empty');
  });
});
