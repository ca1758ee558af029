import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, hydrated, test } from './fixtures.ts';
import { startExtraServer, type ExtraServer } from './extra-server.ts';
import { users } from './users.ts';
import { startTcpProxy, type TcpProxy } from '../integration/tcp-proxy.ts';

/**
 * The pages while the database is away (decision 032), on the production build: a server of its
 * own on a PostgreSQL database of its own, reached through a proxy the test cuts. A public page
 * that was cached is served from its last copy; one that was not answers the error page with 503,
 * `Retry-After` and the message in the page's language; all is well again once the database is back.
 */

const SERVER_URL =
  process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = `tillpoint_e2e_outage_${randomBytes(4).toString('hex')}`;

async function postgresReachable(): Promise<boolean> {
  const probe = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3_000 });
  try {
    await probe.connect();
    return true;
  } catch (error) {
    if (process.env.CI === 'true')
      throw new Error(`PostgreSQL must be reachable in CI at ${SERVER_URL}`, { cause: error });
    return false;
  } finally {
    await probe.end().catch(() => undefined);
  }
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

test.describe.configure({ mode: 'serial' });
// The browser reports the page's own 503, which is what this test asks for.
test.use({ allowedConsoleErrors: [/the server responded with a status of 503/] });
let server: ExtraServer | undefined;
let proxy: TcpProxy | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  test.skip(!(await postgresReachable()), `PostgreSQL not reachable at ${SERVER_URL}`);
  await admin(`create database ${DATABASE}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${DATABASE}`;
  proxy = await startTcpProxy(url.toString());
  // Prepared on the database directly (the proxy lives in this process); served through the proxy.
  server = await startExtraServer({ DATABASE_URL: proxy.url }, { prepareWith: { DATABASE_URL: url.toString() } });
});
test.afterAll(async () => {
  await proxy?.restore().catch(() => undefined);
  await server?.stop();
  await proxy?.close();
  await admin(`drop database if exists ${DATABASE} with (force)`).catch(() => undefined);
});

test('while the database is away, a cached public page is served stale, another answers 503 in its language, and both recover', async ({
  page,
  request,
}) => {
  const site = server!.url;
  // /en cached, then the catalogue changed: its fresh copy is gone, its last copy kept.
  expect((await request.get(`${site}/en`)).status()).toBe(200);
  expect((await request.get(`${site}/en`)).headers()['x-page-cache']).toBe('hit');
  const signIn = await request.post(`${site}/api/authentication`, { data: { strategy: 'local', ...users.admin } });
  const { accessToken } = (await signIn.json()) as { accessToken: string };
  const industry = (
    (await (await request.get(`${site}/api/industries?$limit=1`)).json()) as { data: { _id: string; order: number }[] }
  ).data[0]!;
  const patched = await request.patch(`${site}/api/industries/${industry._id}`, {
    data: { order: industry.order },
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(patched.status()).toBe(200);

  await proxy!.cut();

  const stale = await request.get(`${site}/en`);
  expect(stale.status()).toBe(200);
  expect(stale.headers()['x-page-cache']).toBe('stale');
  expect(stale.headers()['cache-control']).toContain('stale-if-error=86400');

  const started = Date.now();
  const unavailable = await request.get(`${site}/zh-hk/blogs`);
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(unavailable.status()).toBe(503);
  expect(unavailable.headers()['retry-after']).toBe('5');
  expect(unavailable.headers()['cache-control']).toBe('private, no-store');

  // In a browser: the error page says so in the page's language, after hydration too.
  const response = await page.goto(`${site}/zh-hk/blogs`);
  expect(response?.status()).toBe(503);
  await expect(page.getByTestId('error-page')).toContainText('503');
  await expect(page.getByTestId('error-page')).toContainText('服務暫時未能使用。');
  await hydrated(page);
  await expect(page.getByTestId('error-page')).toContainText('服務暫時未能使用。');

  const api = await request.get(`${site}/api/industries`, { headers: { 'x-locale': 'zh-hk' } });
  expect(api.status()).toBe(503);
  expect(await api.json()).toMatchObject({ name: 'Unavailable', message: '服務暫時未能使用，請於數秒後再試。' });

  await proxy!.restore();
  await expect
    .poll(async () => (await request.get(`${site}/zh-hk/blogs`)).status(), { timeout: 5_000, intervals: [100] })
    .toBe(200);
  expect((await request.get(`${site}/en`)).headers()['x-page-cache']).toBe('miss');
});
