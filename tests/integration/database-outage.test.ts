import http from 'node:http';
import express from 'express';
import type { Knex } from 'knex';
import pino from 'pino';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedPages, PUBLIC_CACHE_CONTROL } from '../../server/cached-pages.ts';
import type { Database } from '../../server/database.ts';
import { createKnex } from '../../server/db/knex.ts';
import { prepareDatabase } from '../../server/db/prepare.ts';
import { translate } from '../../server/i18n.ts';
import { PageCache } from '../../server/page-cache.ts';
import { pageServices } from '../../server/page-services.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  createEmptySchema,
  databaseKind,
  skipReason,
  socketClient,
  testConfig,
  validEnquiry,
  type SocketClient,
} from './harness.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * The database away (decision 032): the server reaches its database through a proxy the test cuts
 * (connections reset, new ones refused, as a stopped server does). The API answers 503 with
 * `Retry-After` and the message in the caller's language within seconds, over REST and sockets;
 * a public page is served from its last cached copy; `/health` says the database is down; and
 * writes work again within 5 s of its return, with no restart.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** "Within a few seconds": the pool gives up on a database that refuses at once. */
const ANSWER_WITHIN_MS = 3_000;

describe.skipIf(skipReason)('the database away', () => {
  let proxy: TcpProxy;
  let direct: Knex;
  let schema: string;
  let server: RunningServer;
  let pages: http.Server;
  let pagesUrl: string;
  let socket: SocketClient;

  beforeAll(async () => {
    const empty = await createEmptySchema();
    schema = empty.schema;
    direct = createKnex(empty.url, { poolMax: 1 });
    proxy = await startTcpProxy(empty.url);
    const knex = createKnex(proxy.url, { searchPath: schema, poolMax: 4 });
    const kind = databaseKind === 'pglite' ? 'embedded' : 'postgres';
    await prepareDatabase(knex, kind, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
    const database: Database = { knex, kind, close: () => knex.destroy() };
    server = await startServer(testConfig(), { database, pages: false });
    pages = await startPages(server);
    pagesUrl = `http://127.0.0.1:${(pages.address() as { port: number }).port}`;
    socket = socketClient(server.url, { 'x-locale': 'zh-hk' });
  });
  afterAll(async () => {
    socket?.close();
    await new Promise((resolve) => pages?.close(resolve));
    await proxy?.restore().catch(() => undefined);
    await server?.close();
    await proxy?.close();
    await direct?.raw('drop schema if exists ?? cascade', [schema]).catch(() => undefined);
    await direct?.raw('drop schema if exists ?? cascade', [`${schema}_jobs`]).catch(() => undefined);
    await direct?.destroy();
  });

  const rest = async (method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { accept: 'application/json', 'content-type': 'application/json', 'x-locale': 'zh-hk' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
      ms: performance.now() - started,
    };
  };

  it('while it answers, the API, a public page and /health are as usual', async () => {
    expect((await rest('GET', '/api/industries?$limit=1')).status).toBe(200);
    const page = await fetch(`${pagesUrl}/en`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-page-cache')).toBe('miss');
    expect(page.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    const health = await rest('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      database: { status: 'ok', latencyMs: expect.any(Number) },
      jobs: { status: 'ok' },
    });
    expect(health.body).not.toHaveProperty('redis');
  });

  it('while it is away: 503 with Retry-After in the caller’s language, never a hang; stale pages; /health 503', async () => {
    // The page's fresh copy has expired (its cache keeps 100 ms): only its last copy is left.
    await sleep(150);
    await proxy.cut();
    const message = translate('zh-hk', 'errors.databaseUnavailable');

    const read = await rest('GET', '/api/industries?$limit=1');
    expect(read.ms).toBeLessThan(ANSWER_WITHIN_MS);
    expect(read.status).toBe(503);
    expect(read.headers.get('retry-after')).toBe('5');
    expect(read.body).toMatchObject({ name: 'Unavailable', code: 503, message });

    const write = await rest('POST', '/api/enquiries', validEnquiry('away@example.test'));
    expect(write.ms).toBeLessThan(ANSWER_WITHIN_MS);
    expect(write.status).toBe(503);
    expect(write.body).toMatchObject({ name: 'Unavailable', message });

    const signIn = await rest('POST', '/api/authentication', { strategy: 'local', ...ADMIN });
    expect(signIn.status).toBe(503);

    const started = performance.now();
    const overSocket = await socket.client
      .service('industries')
      .find({ query: { $limit: 1 } })
      .catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
    expect(overSocket).toMatchObject({ name: 'Unavailable', code: 503, message });

    const page = await fetch(`${pagesUrl}/en`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-page-cache')).toBe('stale');
    expect(page.headers.get('cache-control')).toContain('stale-if-error=');
    expect(await page.text()).toContain('industries');
    // A page never stored has nothing to fall back on: the 503 page itself.
    expect((await fetch(`${pagesUrl}/zh-hk`)).status).toBe(503);

    const health = await rest('GET', '/health');
    expect(health.ms).toBeLessThan(2_000);
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unavailable', database: { status: 'down' } });
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
  });

  it('when it is back, writes work again within 5 s, with no restart', async () => {
    await proxy.restore();
    const back = performance.now();
    let created = await rest('POST', '/api/enquiries', validEnquiry('back@example.test'));
    while (created.status !== 201 && performance.now() - back < 5_000) {
      await sleep(100);
      created = await rest('POST', '/api/enquiries', validEnquiry('back@example.test'));
    }
    expect(created.status).toBe(201);
    expect(performance.now() - back).toBeLessThan(5_000);
    expect(
      await direct.withSchema(schema).table('enquiries').where({ email: 'back@example.test' }).first(),
    ).toBeTruthy();
    const page = await fetch(`${pagesUrl}/en`);
    expect(page.headers.get('x-page-cache')).toBe('miss');
    const health = await rest('GET', '/health');
    expect(health.status).toBe(200);
  });

  it('a write whose Idempotency-Key was taken as the database went away may be sent again with that key once it is back', async () => {
    const key = `outage-${Date.now()}`;
    const email = 'keyed@example.test';
    const send = () =>
      fetch(`${server.url}/api/enquiries`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(validEnquiry(email)),
      });
    // The database goes away after the key is taken, as the write itself is sent: the key cannot be freed then.
    const knex = server.database.knex;
    const cutOnWrite = (query: { sql?: string }) => {
      if (!/insert into "enquiries"/i.test(query.sql ?? '')) return;
      knex.off('query', cutOnWrite);
      void proxy.cut();
    };
    knex.on('query', cutOnWrite);
    const failed = await send();
    knex.off('query', cutOnWrite);
    expect(failed.status).toBe(503);
    await proxy.restore();
    const back = performance.now();
    // Sent again with its key, as a client does: a 409 ("still pending") only until the key is freed.
    let again = await send();
    while (again.status !== 201 && performance.now() - back < 5_000) {
      expect([409, 503]).toContain(again.status);
      await sleep(100);
      again = await send();
    }
    expect(again.status).toBe(201);
    expect(performance.now() - back).toBeLessThan(5_000);
    expect(await direct.withSchema(schema).table('enquiries').where({ email })).toHaveLength(1);
  });
});

/**
 * Public pages as the page handler serves them, on the real page cache and the services as pages
 * reach them (`pageServices`); the render stands in for React Router's: its loader reads the
 * industries, and a route error it throws becomes a response with that status.
 */
async function startPages(server: RunningServer): Promise<http.Server> {
  const services = pageServices(server.api);
  const app = express();
  app.use((_req, res, next) => {
    res.locals.cspNonce = 'nonce';
    next();
  });
  app.use(
    cachedPages({
      cache: new PageCache({ ttlMs: 100 }),
      render: async () => {
        try {
          const industries = await services.service('industries').find({ provider: 'rest', query: { $limit: 1 } });
          return new Response(`<html><body>industries: ${industries.data.length}</body></html>`, {
            headers: { 'content-type': 'text/html' },
          });
        } catch (error) {
          const status = (error as { init?: { status?: number } }).init?.status;
          if (status)
            return new Response('<html>error page</html>', { status, headers: { 'content-type': 'text/html' } });
          throw error;
        }
      },
      anonymousContext: () => new RouterContextProvider(),
      fresh: (_req, res) => res.status(500).end(),
      logger: pino({ level: 'silent' }),
    }),
  );
  const listening = http.createServer(app);
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', () => resolve()));
  return listening;
}
