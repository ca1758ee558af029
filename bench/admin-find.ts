/**
 * `npm run bench:admin-find`: what the back office's table of contact forms costs to read, each
 * read asked exactly as the table asks it: its URL's view (`parseView`) turned into the service
 * query (`viewQuery`), sent over REST as an admin with a token. Reads:
 *   - page mode with its total, counted up to the table's cap (`$countUpTo`, decision 045; "1,000+"
 *     past it): page 1 (the default sort, newest first) and a deep page ($skip 50 000, or the last
 *     page of a smaller table);
 *   - cursor mode (the table's own for contact forms): the first page, the next one, and one
 *     50 000 rows in (its cursor walked to 100 rows at a time, not timed);
 *   - free text (`$or` of a case-insensitive `$regex` on the searchable fields), with the total and
 *     by cursor, for short, common, rare and absent texts;
 *   - each filter of the search panel (choices, yes/no, date ranges), with the total and by cursor;
 *   - page 1 with the total sorted by each sortable column of the table, both ways.
 *
 * Prints figures only: no assertions, no thresholds. Runs on an embedded PGlite by default and on
 * PostgreSQL when DATABASE_URL is set (in a database `tillpoint_bench_admin`, dropped and
 * recreated; BENCH_KEEP_DATABASE=1 leaves it there afterwards, to EXPLAIN a read; BENCH_REUSE=1
 * measures again on the database a run left there, migrated to the latest, its contact forms
 * loaded again only when they are not BENCH_ROWS). Requests go one at a time from this process, so
 * p50 is one read's latency.
 *
 *   BENCH_ROWS (100000)  BENCH_REQUESTS (30 per line)  BENCH_WARMUP (3)
 */
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { columnsOf, defaultModeOf, filtersOf, searchFieldsOf } from '../domain/admin/screens.ts';
import { parseView, viewQuery } from '../domain/admin/view.ts';
import { entities } from '../domain/entities/index.ts';
import { createKnex, POOL_MAX } from '../server/db/knex.ts';
import { migrateLatest } from '../server/db/migrate.ts';
import { seed } from '../server/db/seed/seed.ts';
import { startServer } from '../server/server.ts';
import { openBenchDatabase } from './bench-database.ts';
import { BENCH_ADMIN, benchServerConfig, intEnv, mulberry32 } from './shared.ts';

const DATABASE_URL = process.env.DATABASE_URL || undefined;
const ROWS = intEnv('BENCH_ROWS', 100_000, 100);
const REQUESTS = intEnv('BENCH_REQUESTS', 30, 1);
const WARMUP = intEnv('BENCH_WARMUP', 3, 0);
const ADMIN = BENCH_ADMIN;
const SOURCE = 'contactForms';
const DEFINITION = entities[SOURCE];
const DEEP_ROWS = 50_000;
const BATCH = 10_000;

const FIRST_NAMES = [
  'Mei',
  'Wing',
  'Ka',
  'Siu',
  'Chun',
  'Hoi',
  'Lok',
  'Yan',
  'Ming',
  'Tsz',
  'Amy',
  'Ben',
  'Chloe',
  'David',
  'Emma',
  'Felix',
  'Grace',
  'Henry',
  'Ivy',
  'Jason',
];
const LAST_NAMES = [
  'Chan',
  'Wong',
  'Lee',
  'Cheung',
  'Lau',
  'Ng',
  'Ho',
  'Leung',
  'Tang',
  'Lam',
  'Tan',
  'Lim',
  'Goh',
  'Koh',
  'Teo',
  'Smith',
  'Brown',
  'Taylor',
  'Nguyen',
  'Tran',
];
const COMPANY_WORDS = [
  'Golden',
  'Harbour',
  'Dragon',
  'Lucky',
  'Jade',
  'Garden',
  'Noodle',
  'Tea',
  'Bakery',
  'Kitchen',
  'Trading',
  'Store',
  'Cafe',
  'Express',
  'Fresh',
  'Ocean',
  'Star',
  'Pearl',
  'Bamboo',
  'Lotus',
];
const DOMAINS = ['example.test', 'mail.test', 'shop.test', 'food.test'];
const DAY = 86_400_000;

/**
 * Inserts `rows` contact forms sent over the last two years, names and companies drawn from small
 * lists. Staff have answered most of them: the last two weeks' are mostly still `new`, older ones
 * mostly `closed`, each updated when it was followed up. One in fifty is a try-out (`testing`), one
 * in a hundred marked as not one; the rest leave it empty, as the home page's form does.
 * Sent 10 000 rows a statement, as one JSON parameter.
 */
async function loadContactForms(knex: Knex, rows: number): Promise<void> {
  const random = mulberry32(20_260_301);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const now = Date.now();
  const span = 2 * 365 * DAY;
  const from = now - span;
  for (let start = 0; start < rows; start += BATCH) {
    const batch: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(rows, start + BATCH); i++) {
      const first = pick(FIRST_NAMES);
      const last = pick(LAST_NAMES);
      const created = from + Math.floor(((i + random()) * span) / rows);
      const followed = random();
      const followUp =
        now - created < 14 * DAY
          ? followed < 0.6
            ? 'new'
            : 'contacted'
          : followed < 0.03
            ? 'new'
            : followed < 0.2
              ? 'contacted'
              : 'closed';
      const updated = followUp === 'new' ? created : Math.min(now, created + Math.floor(random() * 7 * DAY));
      const tried = random();
      batch.push({
        id: `${Math.floor(created / 1000).toString(16)}${String(i).padStart(16, '0')}`,
        name: `${first} ${last}`,
        email: `${first}.${last}${i}@${pick(DOMAINS)}`.toLowerCase(),
        phone: `9${String(1_000_000 + i).slice(-7)}`,
        company_name: `${pick(COMPANY_WORDS)} ${pick(COMPANY_WORDS)} ${pick(['Ltd', 'Co', 'Group', 'Shop'])}`,
        testing: tried < 0.02 ? true : tried < 0.03 ? false : null,
        follow_up: followUp,
        created_at: new Date(created).toISOString(),
        updated_at: new Date(updated).toISOString(),
      });
    }
    await knex.raw(
      `insert into contact_forms (id, name, email, phone, company_name, testing, follow_up, created_at, updated_at)
       select id, name, email, phone, company_name, testing, follow_up, created_at, updated_at
         from json_to_recordset(?::json) as r(id text, name text, email text, phone text, company_name text, testing boolean,
                                              follow_up text, created_at timestamptz, updated_at timestamptz)`,
      [JSON.stringify(batch)],
    );
  }
  // A deployment's autovacuum would have done this; PGlite runs none.
  await knex.raw('vacuum analyze contact_forms');
}

/** A service query as REST parameters, nested objects and lists in brackets as Feathers' REST client writes them. */
function restParams(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  const add = (value: unknown, key: string) => {
    if (typeof value === 'object' && value !== null)
      for (const [inner, v] of Object.entries(value)) add(v, `${key}[${inner}]`);
    else params.append(key, String(value));
  };
  for (const [key, value] of Object.entries(query)) add(value, key);
  return params.toString();
}

/** The service query the table sends for a URL's view (its search parameters). */
function tableQuery(view: string): Record<string, unknown> {
  return viewQuery(DEFINITION, parseView(DEFINITION, new URLSearchParams(view), defaultModeOf(SOURCE)));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A Hong Kong day as the table's date filters write it. */
const hongKongDay = (time: number) => new Date(time + 8 * 3_600_000).toISOString().slice(0, 10);

interface FoundPage {
  total: number;
  totalCapped?: boolean;
  data: unknown[];
  cursors: { previous: string | null; next: string | null };
}

async function main(): Promise<void> {
  const started = Date.now();
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const database = await openBenchDatabase('tillpoint_bench_admin', {
      maxConnections: POOL_MAX + 4,
      reusable: true,
    });
    cleanup.push(() => database.stop());
    const knex = createKnex(database.url, { poolMax: POOL_MAX });
    cleanup.push(() => knex.destroy());
    await migrateLatest(knex);
    await seed(knex, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: false });
    const loadStart = Date.now();
    const held = database.reused
      ? Number(((await knex('contact_forms').count({ n: '*' }).first()) as { n: string | number } | undefined)?.n ?? 0)
      : 0;
    const loaded = held === ROWS;
    if (!loaded) {
      if (held > 0) await knex.raw('truncate contact_forms');
      await loadContactForms(knex, ROWS);
    }
    const loadSeconds = (Date.now() - loadStart) / 1000;
    const serverVersion =
      ((await knex.raw('show server_version')) as { rows: { server_version: string }[] }).rows[0]?.server_version ??
      '?';

    const config = {
      ...benchServerConfig(),
    };
    const server = await startServer(config, {
      database: { knex, kind: DATABASE_URL ? 'postgres' : 'embedded', close: async () => {} },
      pages: false,
    });
    cleanup.push(() => server.close());
    const login = await fetch(`${server.url}/api/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ strategy: 'local', ...ADMIN }),
    });
    if (!login.ok) throw new Error(`admin sign-in failed: HTTP ${login.status} ${await login.text()}`);
    const { accessToken } = (await login.json()) as { accessToken: string };

    const find = async (query: Record<string, unknown>): Promise<FoundPage> => {
      const response = await fetch(`${server.url}/api/${SOURCE}?${restParams(query)}`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      const body = (await response.json()) as FoundPage;
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
      return body;
    };
    /** One line: the read the table sends for `view`, timed REQUESTS times after WARMUP. */
    const line = async (view: string, label = view) => {
      const query = tableQuery(view);
      const latencies: number[] = [];
      let page: FoundPage | undefined;
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const start = performance.now();
        page = await find(query);
        if (i >= WARMUP) latencies.push(performance.now() - start);
      }
      latencies.sort((a, b) => a - b);
      const matches =
        page && page.total >= 0
          ? `${fmt(page.total)}${page.totalCapped ? '+' : ''}`
          : `${page?.data.length ?? 0} shown`;
      console.log(
        `  ${label.padEnd(66)}${matches.padStart(12)}${fmt(percentile(latencies, 50), 1).padStart(10)}${fmt(percentile(latencies, 95), 1).padStart(10)}`,
      );
    };
    const heading = (text: string) => console.log(`${text}`);

    console.log(`contact forms table benchmark on ${database.label}, server ${serverVersion}`);
    console.log(
      `contact forms: ${fmt(ROWS)} rows (${loaded ? 'as an earlier run loaded them' : `loaded in ${loadSeconds.toFixed(1)} s`}) | ${REQUESTS} requests per line, one at a time, ${WARMUP} warm-up | REST as the admin`,
    );
    console.log(
      `each line: the table's URL view, as parseView and viewQuery (domain/admin/view.ts) turn it into the service query; page size 10`,
    );
    console.log();
    console.log(`  ${'view'.padEnd(66)}${'matches'.padStart(12)}${'p50 ms'.padStart(10)}${'p95 ms'.padStart(10)}`);

    heading('page mode, with the total (counted up to the cap)');
    await line('mode=page');
    const deepPage = Math.min(DEEP_ROWS / 10 + 1, Math.ceil(ROWS / 10));
    await line(`mode=page&page=${deepPage}`, `mode=page&page=${deepPage} ($skip ${fmt((deepPage - 1) * 10)})`);

    heading('cursor mode (the table’s own for contact forms), no total');
    await line('', '(the first page)');
    const next = (await find(tableQuery(''))).cursors.next ?? '';
    await line(`cursor=${next}`, 'cursor=… (the next page)');
    // The cursor of the page DEEP_ROWS rows in, walked to 100 rows a step (not timed).
    let deep = '';
    for (let walked = 0; walked + 100 <= Math.min(DEEP_ROWS, ROWS - 20); walked += 100) {
      deep = (await find(tableQuery(`size=100${deep ? `&cursor=${deep}` : ''}`))).cursors.next ?? '';
    }
    await line(`cursor=${deep}`, `cursor=… (row ${fmt(Math.min(DEEP_ROWS, ROWS - 20) + 1)} on)`);

    heading(`free text ($or of $regex, case-insensitive, on ${searchFieldsOf(DEFINITION).join(', ')}), newest first`);
    const texts: [string, string][] = [
      ['ch', 'two letters: from the start'],
      ['tea', 'a short word, anywhere'],
      ['harbour', 'a word, anywhere'],
      ['lotus bamboo', 'two words, rarer'],
      ['chan12', 'part of an email'],
      ['99999', 'digits of an email, a few, most of them new'],
      ['zzq', 'nothing matches'],
    ];
    for (const [text, what] of texts) {
      const q = new URLSearchParams({ q: text }).toString();
      await line(`mode=page&${q}`, `mode=page&${q} (${what})`);
      await line(q, `${q} (cursor)`);
    }

    heading('filters of the search panel, newest first');
    const now = Date.now();
    const filterViews: string[] = [];
    for (const filter of filtersOf(DEFINITION)) {
      const f = `f.${filter.name}`;
      if (filter.type === 'choice') {
        const values = filter.def.enum ?? [];
        for (const value of values) filterViews.push(`${f}=${value}`);
        if (values.length > 2)
          filterViews.push(
            values
              .slice(0, 2)
              .map((value) => `${f}=${value}`)
              .join('&'),
          );
      } else if (filter.type === 'boolean') {
        filterViews.push(`${f}=true`, `${f}=false`);
      } else if (filter.type === 'dateRange') {
        filterViews.push(
          `${f}.min=${hongKongDay(now - 30 * DAY)}`,
          `${f}.min=${hongKongDay(now - 400 * DAY)}&${f}.max=${hongKongDay(now - 370 * DAY)}`,
        );
      } else {
        filterViews.push(`${f}.min=1`);
      }
    }
    for (const view of filterViews) {
      await line(`mode=page&${view}`);
      await line(view, `${view} (cursor)`);
    }

    heading('page mode sorted by each sortable column, with the total (counted up to the cap)');
    for (const column of columnsOf(DEFINITION).filter((field) => field.def.sortable)) {
      await line(`mode=page&sort=${column.name}`);
      await line(`mode=page&sort=-${column.name}`);
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
