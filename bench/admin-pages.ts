/**
 * `npm run bench:admin-pages` (and part of `npm run bench`): the time from opening
 * `/{locale}/admin/users` over BENCH_ROWS accounts to its first rows shown, in page mode and cursor
 * mode, on the first page and deep in the table.
 *
 * Two figures for each: the server's (the page's HTML, which holds the first rows, read whole by a
 * signed-in staff member: p50 and p95 of BENCH_REQUESTS) and the browser's (Debian's Chromium
 * opening the address until the first row is on screen: p50 of BENCH_OPENS). Figures only, no
 * thresholds. Runs on an embedded PGlite by default and on PostgreSQL when DATABASE_URL is set (in
 * a database `tillpoint_bench_admin_pages`, dropped and recreated). Uses the production build in build/
 * (made first when it is missing).
 *
 *   BENCH_ROWS (100000)  BENCH_REQUESTS (15)  BENCH_OPENS (5)
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import argon2 from 'argon2';
import { chromium } from 'playwright-core';
import { loadConfig } from '../server/config.ts';
import type { Database } from '../server/database.ts';
import { createKnex } from '../server/db/knex.ts';
import { prepareDatabase } from '../server/db/prepare.ts';
import { startServer } from '../server/server.ts';
import { openBenchDatabase } from './bench-database.ts';
import { intEnv } from './shared.ts';

const ROWS = intEnv('BENCH_ROWS', 100_000, 100);
const REQUESTS = intEnv('BENCH_REQUESTS', 15, 1);
const OPENS = intEnv('BENCH_OPENS', 5, 1);
const ADMIN = { email: 'admin@bench.test', password: 'BenchAdmin123' };
const PAGE_SIZE = 10;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};

async function main(): Promise<void> {
  if (!existsSync('build/server/index.js')) {
    console.log('Building the pages first (npx react-router build)…');
    const built = spawnSync('npx', ['react-router', 'build'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the build failed');
  }
  const db = await openBenchDatabase('tillpoint_bench_admin_pages', { maxConnections: 12 });
  const knex = createKnex(db.url);
  const database: Database = { knex, kind: db.kind, close: () => knex.destroy() };
  await prepareDatabase(knex, db.kind, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: false });

  // The accounts, one second apart, in batches (setup, not measured).
  const started = Date.now();
  const hash = await argon2.hash('BenchMember123', { memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const base = Date.UTC(2024, 0, 1);
  for (let from = 0; from < ROWS; from += 5_000) {
    const rows = [];
    for (let i = from; i < Math.min(ROWS, from + 5_000); i += 1) {
      rows.push({
        id: randomBytes(12).toString('hex'),
        email: `member-${i}@bench.test`,
        name: `Member ${i}`,
        company_name: `Shop ${i % 997}`,
        password: hash,
        role: 'member',
        created_at: new Date(base + i * 1000),
      });
    }
    await knex('users').insert(rows);
  }
  await knex.raw('analyze users');
  console.log(
    `${ROWS.toLocaleString('en')} accounts made in ${((Date.now() - started) / 1000).toFixed(1)} s on ${db.label}.`,
  );

  const config = loadConfig({
    NODE_ENV: 'production',
    APP_SECRET: randomBytes(32).toString('hex'),
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_EMAIL: ADMIN.email,
    PAYMENT_SANDBOX: '1',
    LOG_LEVEL: 'error',
    PORT: '0',
    HOST: '127.0.0.1',
  });
  const server = await startServer(config, { database });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const signIn = await fetch(`${server.url}/api/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ strategy: 'local', ...ADMIN }),
    });
    if (signIn.status !== 201) throw new Error(`signing in failed: ${signIn.status}`);
    const cookie = (signIn.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
    const { accessToken } = (await signIn.json()) as { accessToken: string };

    // The cursor of a page deep in the table: walked to through the API, 100 rows a step.
    const sortQuery = '$sort[createdAt]=-1&$sort[_id]=1';
    let deepCursor = '';
    for (let walked = 0; walked < ROWS - PAGE_SIZE * 2; walked += 100) {
      const page = (await (
        await fetch(`${server.url}/api/users?$limit=100&$cursor=${deepCursor}&${sortQuery}`, {
          headers: { authorization: `Bearer ${accessToken}` },
        })
      ).json()) as {
        cursors: { next: string | null };
      };
      if (!page.cursors.next) break;
      deepCursor = page.cursors.next;
    }
    const lastPage = Math.ceil(ROWS / PAGE_SIZE);
    const cases = [
      ['page mode, first page', '/en/admin/users'],
      [`page mode, page ${lastPage.toLocaleString('en')}`, `/en/admin/users?page=${lastPage}`],
      ['cursor mode, first page', '/en/admin/users?mode=cursor'],
      ['cursor mode, deep page', `/en/admin/users?mode=cursor&cursor=${deepCursor}`],
      ['page mode, searched by company', '/en/admin/users?q=Shop+42'],
    ] as const;

    console.log(
      `\n/{locale}/admin/users over ${ROWS.toLocaleString('en')} accounts (${db.kind}), ${PAGE_SIZE} rows a page`,
    );
    console.log('case                                   server p50  server p95  browser p50 (first row shown)');
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.addCookies([
      { name: cookie.split('=')[0] as string, value: cookie.split('=').slice(1).join('='), url: server.url },
    ]);
    const tab = await context.newPage();
    for (const [label, path] of cases) {
      const server_ms: number[] = [];
      for (let i = 0; i < REQUESTS + 2; i += 1) {
        const t0 = performance.now();
        const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
        const html = await response.text();
        const elapsed = performance.now() - t0;
        if (!html.includes('data-testid="admin-row"'))
          throw new Error(`${path}: no rows in the page (${response.status})`);
        if (i >= 2) server_ms.push(elapsed);
      }
      const browser_ms: number[] = [];
      for (let i = 0; i < OPENS + 1; i += 1) {
        const t0 = performance.now();
        await tab.goto(`${server.url}${path}`, { waitUntil: 'commit' });
        await tab.locator('[data-testid="admin-row"]').first().waitFor({ state: 'visible' });
        if (i >= 1) browser_ms.push(performance.now() - t0);
      }
      const ms = (value: number) => `${value.toFixed(0).padStart(7)} ms`;
      console.log(
        `${label.padEnd(38)} ${ms(percentile(server_ms, 50))}  ${ms(percentile(server_ms, 95))}  ${ms(percentile(browser_ms, 50))}`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
    await db.stop();
  }
}

await main();
