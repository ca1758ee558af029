/**
 * `npm run bench:admin-find`: what the back office's free-text search over contact forms costs, as
 * its search box sends it (`$or` of a case-insensitive `$regex` on name, email and company), with
 * the total (page mode) and without (`$cursor` mode), through the REST API as an admin.
 *
 * Prints figures only: no assertions, no thresholds. Runs on an embedded PGlite by default and on
 * PostgreSQL when DATABASE_URL is set (in a database `tillpoint_bench_admin`, dropped and
 * recreated). Requests go one at a time from this process, so p50 is one search's latency.
 *
 *   BENCH_ROWS (100000)  BENCH_REQUESTS (30 per line)  BENCH_WARMUP (3)
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { loadConfig } from '../server/config.ts';
import { createKnex, POOL_MAX } from '../server/db/knex.ts';
import { migrateLatest } from '../server/db/migrate.ts';
import { seed } from '../server/db/seed/seed.ts';
import { startServer } from '../server/server.ts';
import { openBenchDatabase } from './bench-database.ts';
import { intEnv, mulberry32 } from './shared.ts';

const DATABASE_URL = process.env.DATABASE_URL || undefined;
const ROWS = intEnv('BENCH_ROWS', 100_000, 100);
const REQUESTS = intEnv('BENCH_REQUESTS', 30, 1);
const WARMUP = intEnv('BENCH_WARMUP', 3, 0);
const ADMIN = { email: 'admin@tillpoint.test', password: 'Admin12345' };
const LIMIT = 10;

const FIRST_NAMES = ['Mei', 'Wing', 'Ka', 'Siu', 'Chun', 'Hoi', 'Lok', 'Yan', 'Ming', 'Tsz', 'Amy', 'Ben', 'Chloe', 'David', 'Emma', 'Felix', 'Grace', 'Henry', 'Ivy', 'Jason'];
const LAST_NAMES = ['Chan', 'Wong', 'Lee', 'Cheung', 'Lau', 'Ng', 'Ho', 'Leung', 'Tang', 'Lam', 'Tan', 'Lim', 'Goh', 'Koh', 'Teo', 'Smith', 'Brown', 'Taylor', 'Nguyen', 'Tran'];
const COMPANY_WORDS = ['Golden', 'Harbour', 'Dragon', 'Lucky', 'Jade', 'Garden', 'Noodle', 'Tea', 'Bakery', 'Kitchen', 'Trading', 'Store', 'Cafe', 'Express', 'Fresh', 'Ocean', 'Star', 'Pearl', 'Bamboo', 'Lotus'];
const DOMAINS = ['example.test', 'mail.test', 'shop.test', 'food.test'];

/** Inserts `rows` contact forms sent over the last two years, names and companies drawn from small lists. */
async function loadContactForms(knex: Knex, rows: number): Promise<void> {
  const random = mulberry32(20_260_301);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const span = 2 * 365 * 86_400_000;
  const from = Date.now() - span;
  for (let start = 0; start < rows; start += 1000) {
    const batch: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(rows, start + 1000); i++) {
      const first = pick(FIRST_NAMES);
      const last = pick(LAST_NAMES);
      const created = new Date(from + Math.floor(((i + random()) * span) / rows));
      batch.push({
        id: `${Math.floor(created.getTime() / 1000).toString(16)}${String(i).padStart(16, '0')}`,
        name: `${first} ${last}`,
        email: `${first}.${last}${i}@${pick(DOMAINS)}`.toLowerCase(),
        phone: `9${String(1_000_000 + i).slice(-7)}`,
        company_name: `${pick(COMPANY_WORDS)} ${pick(COMPANY_WORDS)} ${pick(['Ltd', 'Co', 'Group', 'Shop'])}`,
        created_at: created,
        updated_at: created,
      });
    }
    await knex('contact_forms').insert(batch);
  }
  // A deployment's autovacuum would have done this; PGlite runs none.
  await knex.raw('vacuum analyze contact_forms');
}

/** The search box's query for a text, as REST parameters. */
function searchQuery(text: string, cursor: boolean): string {
  const params = new URLSearchParams();
  ['name', 'email', 'companyName'].forEach((field, i) => {
    params.append(`$or[${i}][${field}][$regex]`, text);
    params.append(`$or[${i}][${field}][$options]`, 'i');
  });
  params.append('$limit', String(LIMIT));
  if (cursor) params.append('$cursor', '');
  return params.toString();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function main(): Promise<void> {
  const started = Date.now();
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const database = await openBenchDatabase('tillpoint_bench_admin', { maxConnections: POOL_MAX + 4 });
    cleanup.push(() => database.stop());
    const knex = createKnex(database.url, { poolMax: POOL_MAX });
    cleanup.push(() => knex.destroy());
    await migrateLatest(knex);
    await seed(knex, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: false });
    const loadStart = Date.now();
    await loadContactForms(knex, ROWS);
    const loadSeconds = (Date.now() - loadStart) / 1000;
    const serverVersion = ((await knex.raw('show server_version')) as { rows: { server_version: string }[] }).rows[0]?.server_version ?? '?';

    const config = {
      ...loadConfig({
        NODE_ENV: 'production',
        PAYMENT_SANDBOX: '1',
        APP_SECRET: randomBytes(32).toString('base64url'),
        LOG_LEVEL: 'silent',
        PORT: '0',
        HOST: '127.0.0.1',
        DEMO_DATA: 'false',
        ADMIN_PASSWORD: ADMIN.password,
      }),
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
    };
    const server = await startServer(config, { database: { knex, kind: DATABASE_URL ? 'postgres' : 'embedded', close: async () => {} }, pages: false });
    cleanup.push(() => server.close());
    const login = await fetch(`${server.url}/api/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ strategy: 'local', ...ADMIN }),
    });
    if (!login.ok) throw new Error(`admin sign-in failed: HTTP ${login.status} ${await login.text()}`);
    const { accessToken } = (await login.json()) as { accessToken: string };

    console.log(`free-text search benchmark on ${database.label}, server ${serverVersion}`);
    console.log(`contact forms: ${fmt(ROWS)} rows (loaded in ${loadSeconds.toFixed(1)} s) | ${REQUESTS} requests per line, one at a time, ${WARMUP} warm-up | REST as the admin`);
    console.log(`search: $or of $regex (i) on name, email, companyName; $limit ${LIMIT}; newest first`);
    console.log();
    console.log(`  ${'text'.padEnd(44)}${'matches'.padStart(10)}${'total p50 ms'.padStart(15)}${'cursor p50 ms'.padStart(15)}`);
    const texts: [string, string][] = [
      ['ch', 'two letters: from the start'],
      ['tea', 'a short word, anywhere'],
      ['harbour', 'a word, anywhere'],
      ['lotus bamboo', 'two words, rarer'],
      ['chan12', 'part of an email'],
      ['zzq', 'nothing matches'],
    ];
    for (const [text, what] of texts) {
      const timed = async (cursor: boolean) => {
        const url = `${server.url}/api/contactForms?${searchQuery(text, cursor)}`;
        const latencies: number[] = [];
        let total = -1;
        for (let i = 0; i < WARMUP + REQUESTS; i++) {
          const start = performance.now();
          const response = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
          const body = (await response.json()) as { total?: number };
          if (!response.ok) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
          if (i >= WARMUP) latencies.push(performance.now() - start);
          total = body.total ?? -1;
        }
        return { p50: percentile(latencies.sort((a, b) => a - b), 50), total };
      };
      const withTotal = await timed(false);
      const withCursor = await timed(true);
      console.log(
        `  ${`'${text}' (${what})`.padEnd(44)}${fmt(withTotal.total).padStart(10)}${fmt(withTotal.p50, 2).padStart(15)}${fmt(withCursor.p50, 2).padStart(15)}`,
      );
    }
    console.log();
    console.log(`total ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    for (const step of cleanup.reverse()) await step().catch((error: unknown) => console.error('cleanup:', error));
  }
}

await main();
// Everything is closed; a handle left open by a library must not keep the run alive.
setTimeout(() => {
  console.error('bench: handles still open after cleanup; exiting');
  process.exit(0);
}, 5000).unref();
