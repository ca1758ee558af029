import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseTicketStore, issueTicket } from '../../server/auth/tickets.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  redisSkipReason,
  rejectionOf,
  skipReason,
  socketClient,
  startTestServer,
  startTestServers,
  TEST_REDIS_URL,
  type SocketClient,
} from './harness.ts';

/**
 * The portal's live connection (decision 027): a page trades its session cookie for a one-time
 * socket ticket, and the socket redeems it. Tried as the page does and as an attacker would.
 */

const MONTHLY = { email: 'monthly@tillpoint.test', password: 'Monthly12345' };
const PREPAID = { email: 'prepaid@tillpoint.test', password: 'Prepaid12345' };
/** How long a connection that should not get an event is watched after the others got it. */
const QUIET_MS = 400;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

interface Session {
  token: string;
  userId: string;
  cookie: string;
}

function helpers(server: () => RunningServer) {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server().url}/api${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...init.headers },
    });

  /** Signs in as a page of the site does (the cookie is set for the site's own origin). */
  async function login(account: { email: string; password: string }): Promise<Session> {
    const response = await api('/authentication', {
      method: 'POST',
      headers: { origin: server().url },
      body: JSON.stringify({ strategy: 'local', ...account }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { accessToken: string; user: { _id: string } };
    return { token: body.accessToken, userId: body.user._id, cookie: `tp_session=${body.accessToken}` };
  }

  /** `POST /api/socketTickets` as a page of the site would send it (or with other headers). */
  const askTicket = (headers: Record<string, string>) =>
    fetch(`${server().url}/api/socketTickets`, { method: 'POST', headers });
  async function ticketFor(session: Session, base = server()): Promise<string> {
    const response = await fetch(`${base.url}/api/socketTickets`, {
      method: 'POST',
      headers: { cookie: session.cookie, origin: base.url },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { ticket: string; expiresIn: number };
    expect(body.expiresIn).toBe(60);
    return body.ticket;
  }
  return { api, login, askTicket, ticketFor };
}

/** A socket that records the order, subscription and invoice events it receives. */
function watch(s: SocketClient): { path: string; event: string; data: Record<string, unknown> }[] {
  const events: { path: string; event: string; data: Record<string, unknown> }[] = [];
  for (const path of ['orders', 'subscriptions', 'invoices']) {
    for (const event of ['created', 'patched'])
      s.client.service(path).on(event, (data: Record<string, unknown>) => events.push({ path, event, data }));
  }
  return events;
}

describe.skipIf(skipReason)('portal live connection: socket tickets', () => {
  let server: RunningServer;
  const sockets: SocketClient[] = [];
  const { api, login, askTicket, ticketFor } = helpers(() => server);
  let adminToken: string;

  const socket = () => {
    const s = socketClient(server.url);
    sockets.push(s);
    return s;
  };
  const byTicket = (s: SocketClient, ticket: unknown) =>
    s.client.service('authentication').create({ strategy: 'ticket', ticket });

  /** The member's order, patched by an admin with its own shipping: a `patched` event for its owner. */
  async function staffTouchesOrderOf(userId: string): Promise<string> {
    const headers = { authorization: `Bearer ${adminToken}` };
    const found = (await (await api(`/orders?user=${userId}&$limit=1`, { headers })).json()) as {
      data: { _id: string; shipping: unknown }[];
    };
    const order = found.data[0];
    if (!order) throw new Error(`no order for ${userId}`);
    const patched = await api(`/orders/${order._id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ shipping: order.shipping }),
    });
    expect(patched.status).toBe(200);
    return order._id;
  }

  beforeAll(async () => {
    server = await startTestServer();
    const admin = await api('/authentication', {
      method: 'POST',
      body: JSON.stringify({ strategy: 'local', ...ADMIN }),
    });
    adminToken = ((await admin.json()) as { accessToken: string }).accessToken;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  it('issues a ticket to a page of the site with a valid session cookie, never cached', async () => {
    const session = await login(MONTHLY);
    const ticket = await ticketFor(session);
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Sec-Fetch-Site alone (no Origin) is enough when it says same-origin.
    const fetchSite = await askTicket({ cookie: session.cookie, 'sec-fetch-site': 'same-origin' });
    expect(fetchSite.status).toBe(201);
    // Neither the ticket's answer nor the store holds the token.
    expect(JSON.stringify(await fetchSite.json())).not.toContain(session.token);
    const rows = (await server.database.knex('socket_tickets').select('hash', 'sealed')) as {
      hash: string;
      sealed: string;
    }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.hash).not.toBe(ticket);
      expect(row.sealed).not.toContain(session.token.split('.')[1]);
    }
  });

  it('refuses a ticket without a session, with a bad one, and to other sites', async () => {
    const session = await login(MONTHLY);
    const cases: [Record<string, string>, number][] = [
      [{ origin: server.url }, 401],
      [{ origin: server.url, cookie: 'tp_session=not-a-token' }, 401],
      [{ origin: 'https://evil.example', cookie: session.cookie }, 403],
      [{ origin: 'null', cookie: session.cookie }, 403],
      [{ 'sec-fetch-site': 'cross-site', cookie: session.cookie }, 403],
      [{ 'sec-fetch-site': 'same-site', cookie: session.cookie }, 403],
      // An app or a script that says nothing of where it comes from is not a page of the site.
      [{ cookie: session.cookie }, 403],
      // A bearer token is no way in either: only the page's cookie is.
      [{ origin: server.url, authorization: `Bearer ${session.token}` }, 401],
    ];
    for (const [headers, status] of cases) {
      const response = await askTicket(headers);
      expect(response.status, JSON.stringify(headers)).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = (await response.json()) as { ticket?: string; name: string };
      expect(body.ticket).toBeUndefined();
    }
    const get = await fetch(`${server.url}/api/socketTickets`, {
      headers: { cookie: session.cookie, origin: server.url },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('cache-control')).toBe('no-store');
  });

  it('signs a socket in as the session, answering no token', async () => {
    const session = await login(MONTHLY);
    const s = socket();
    const result = (await byTicket(s, await ticketFor(session))) as Record<string, unknown>;
    expect(result.accessToken).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain(session.token);
    expect(JSON.stringify(result)).not.toContain('"password"');
    expect(result).toMatchObject({
      authentication: { strategy: 'ticket' },
      user: { _id: session.userId, email: MONTHLY.email },
    });
    // The socket acts as the member: their own account, not another's.
    expect(await s.client.service('users').get(session.userId)).toMatchObject({ _id: session.userId });
    const own = (await s.client.service('subscriptions').find({ query: {} })) as { data: { user: string }[] };
    expect(own.data.length).toBeGreaterThan(0);
    expect(own.data.every((row) => row.user === session.userId)).toBe(true);
  });

  it('takes each ticket once', async () => {
    const session = await login(MONTHLY);
    const ticket = await ticketFor(session);
    await byTicket(socket(), ticket);
    const again = await rejectionOf(byTicket(socket(), ticket));
    expect(again).toMatchObject({ name: 'NotAuthenticated', code: 401 });
    // Two sockets racing for one ticket: one wins.
    const raced = await ticketFor(session);
    const results = await Promise.allSettled([byTicket(socket(), raced), byTicket(socket(), raced)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('refuses an expired ticket, a made-up one and malformed ones without harm', async () => {
    const session = await login(MONTHLY);
    const store = new DatabaseTicketStore(server.database.knex);
    const expired = await issueTicket(store, session.token, Date.now() - 61_000);
    expect(await rejectionOf(byTicket(socket(), expired))).toMatchObject({ name: 'NotAuthenticated', code: 401 });
    const s = socket();
    for (const bad of [randomBytes(32).toString('base64url'), '', 'x'.repeat(10_000), { $ne: null }, ['a'], 42, null]) {
      expect(await rejectionOf(byTicket(s, bad))).toMatchObject({ code: 401 });
    }
    const ticket = await ticketFor(session);
    // The socket still works after all that, and so does the server.
    await byTicket(s, ticket);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('is redeemed over socket.io only, never over REST', async () => {
    const session = await login(MONTHLY);
    const ticket = await ticketFor(session);
    const rest = await api('/authentication', {
      method: 'POST',
      headers: { origin: server.url },
      body: JSON.stringify({ strategy: 'ticket', ticket }),
    });
    expect(rest.status).toBe(401);
    expect(rest.headers.get('set-cookie')).toBeNull();
    // The REST attempt did not use it up.
    await byTicket(socket(), ticket);
  });

  it('refuses a ticket once its session has signed out, and no ticket is issued for it', async () => {
    const session = await login(MONTHLY);
    const ticket = await ticketFor(session);
    expect(
      (await api('/authentication', { method: 'DELETE', headers: { authorization: `Bearer ${session.token}` } }))
        .status,
    ).toBe(200);
    expect(await rejectionOf(byTicket(socket(), ticket))).toMatchObject({ name: 'NotAuthenticated', code: 401 });
    expect((await askTicket({ cookie: session.cookie, origin: server.url })).status).toBe(401);
  });

  it('a socket signed in by ticket hears its member’s own record events, not another member’s', async () => {
    const monthly = await login(MONTHLY);
    const prepaid = await login(PREPAID);
    const a = socket();
    const b = socket();
    await byTicket(a, await ticketFor(monthly));
    await byTicket(b, await ticketFor(prepaid));
    const heardA = watch(a);
    const heardB = watch(b);

    const orderA = await staffTouchesOrderOf(monthly.userId);
    await until(
      () => heardA.some((e) => e.path === 'orders' && e.data._id === orderA),
      'the owner to hear of their order',
    );
    const orderB = await staffTouchesOrderOf(prepaid.userId);
    await until(
      () => heardB.some((e) => e.path === 'orders' && e.data._id === orderB),
      'the other owner to hear of theirs',
    );
    await sleep(QUIET_MS);
    expect(heardA.every((e) => e.data.user === monthly.userId)).toBe(true);
    expect(heardB.every((e) => e.data.user === prepaid.userId)).toBe(true);
    expect(JSON.stringify([...heardA, ...heardB])).not.toContain('requestHash');
  });

  it('a revoked session’s socket is closed by the server and hears nothing more', async () => {
    const session = await login(MONTHLY);
    const s = socket();
    await byTicket(s, await ticketFor(session));
    const heard = watch(s);
    await staffTouchesOrderOf(session.userId);
    await until(() => heard.length > 0, 'the event while signed in');

    // Signed out elsewhere (the page's sign-out revokes the same token over REST).
    expect(
      (await api('/authentication', { method: 'DELETE', headers: { authorization: `Bearer ${session.token}` } }))
        .status,
    ).toBe(200);
    await sleep(100);
    heard.length = 0;
    await staffTouchesOrderOf(session.userId);
    expect(await s.closedWithin()).toBe('io server disconnect');
    await sleep(QUIET_MS);
    expect(heard).toEqual([]);
  });

  it('signing out over the socket itself ends the session everywhere', async () => {
    const session = await login(MONTHLY);
    const s = socket();
    await byTicket(s, await ticketFor(session));
    await s.client.service('authentication').remove(null);
    expect(
      (await api(`/users/${session.userId}`, { headers: { authorization: `Bearer ${session.token}` } })).status,
    ).toBe(401);
    expect((await askTicket({ cookie: session.cookie, origin: server.url })).status).toBe(401);
    expect(await rejectionOf(s.client.service('users').get(session.userId))).toMatchObject({ code: 401 });
  });

  it('a password change that ends the other sessions closes the ticket socket too', async () => {
    const session = await login(PREPAID);
    const s = socket();
    await byTicket(s, await ticketFor(session));
    const heard = watch(s);
    const ended = await api(`/userSessions/${session.userId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(ended.status).toBeLessThan(300);
    await sleep(100);
    await staffTouchesOrderOf(session.userId);
    await sleep(QUIET_MS);
    expect(heard).toEqual([]);
    expect(await s.closedWithin()).toBe('io server disconnect');
  });
});

describe.skipIf(skipReason)('portal live connection: several instances on one database', () => {
  let servers: RunningServer[];
  const sockets: SocketClient[] = [];
  let current: RunningServer;
  const { login, ticketFor } = helpers(() => current);

  beforeAll(async () => {
    servers = await startTestServers(2);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const server of servers ?? []) await server.close();
  });

  it('a ticket issued by one instance is redeemed on another, once', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    current = a;
    const session = await login(MONTHLY);
    const ticket = await ticketFor(session, a);
    const onB = socketClient(b.url);
    const onA = socketClient(a.url);
    sockets.push(onB, onA);
    await onB.client.service('authentication').create({ strategy: 'ticket', ticket });
    expect(
      await rejectionOf(onA.client.service('authentication').create({ strategy: 'ticket', ticket })),
    ).toMatchObject({ code: 401 });
  });
});

const redisReason = await redisSkipReason();

describe.skipIf(skipReason || redisReason)('portal live connection: tickets in Redis', () => {
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  let servers: RunningServer[];
  let redis: Redis;
  const sockets: SocketClient[] = [];
  let current: RunningServer;
  const { login, ticketFor } = helpers(() => current);

  beforeAll(async () => {
    servers = await startTestServers(2, { redisUrl: TEST_REDIS_URL, redisPrefix: prefix });
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const server of servers ?? []) await server.close();
    const keys = await redis?.keys(`${prefix}:*`);
    if (keys?.length) await redis.del(...keys);
    redis?.disconnect();
  });

  it('keeps the ticket hashed in Redis with its expiry, redeemable once on any instance', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    current = a;
    const session = await login(MONTHLY);
    const ticket = await ticketFor(session, a);
    const keys = await redis.keys(`${prefix}:ticket:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(ticket);
    const ttl = await redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await redis.get(keys[0]!)).not.toContain(session.token.split('.')[1]);
    expect(await server0Tickets(a)).toBe(0);

    const onB = socketClient(b.url);
    const onA = socketClient(a.url);
    sockets.push(onB, onA);
    await onB.client.service('authentication').create({ strategy: 'ticket', ticket });
    expect(await redis.keys(`${prefix}:ticket:*`)).toHaveLength(0);
    expect(
      await rejectionOf(onA.client.service('authentication').create({ strategy: 'ticket', ticket })),
    ).toMatchObject({ code: 401 });

    // Signed out on A: B's socket is closed, and hears nothing more of the member.
    const heard = watch(onB);
    const out = await fetch(`${a.url}/api/authentication`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(out.status).toBe(200);
    expect(await onB.closedWithin()).toBe('io server disconnect');
    expect(heard).toEqual([]);
  });

  /** With Redis, the database keeps no tickets. */
  async function server0Tickets(server: RunningServer): Promise<number> {
    const row = (await server.database.knex('socket_tickets').count({ n: '*' }).first()) as { n: string | number };
    return Number(row.n);
  }
});
