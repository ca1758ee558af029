/**
 * `npm run bench:exports`: what exporting a back-office table costs, as the export dialog asks for
 * it (decision 036): every contact form, six columns, as CSV and as XLSX, written by the export job
 * as the admin, through the entity service page by page. Prints rows per second and the process's
 * memory (resident set, sampled every 50 ms while the job runs): figures only, no assertions.
 * Runs on an embedded PGlite by default (in this process: its memory is in the figures) and on
 * PostgreSQL when DATABASE_URL is set (a database `tillpoint_bench_exports`, dropped and recreated).
 *
 *   BENCH_ROWS (100000; 1000000 for the figure)
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { createKnex, POOL_MAX } from '../server/db/knex.ts';
import { migrateLatest } from '../server/db/migrate.ts';
import { seed } from '../server/db/seed/seed.ts';
import { startServer } from '../server/server.ts';
import type { ExportsService } from '../server/services/exports/exports.ts';
import { openBenchDatabase } from './bench-database.ts';
import { BENCH_ADMIN, benchServerConfig, intEnv } from './shared.ts';

const DATABASE_URL = process.env.DATABASE_URL || undefined;
const ROWS = intEnv('BENCH_ROWS', 100_000, 100);
const ADMIN = BENCH_ADMIN;
const COLUMNS = ['name', 'email', 'phone', 'companyName', 'testing', 'createdAt'];

async function loadContactForms(knex: Knex, rows: number): Promise<void> {
  const from = Date.UTC(2024, 0, 1);
  for (let start = 0; start < rows; start += 1000) {
    const batch: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(rows, start + 1000); i++) {
      const created = new Date(from + i * 60_000);
      batch.push({
        id: `${Math.floor(created.getTime() / 1000).toString(16)}${String(i).padStart(16, '0')}`,
        name: i % 3 === 0 ? `陳大文 ${i}` : `Chan Tai Man ${i}`,
        email: `chan${i}@example.test`,
        phone: `9${String(1_000_000 + i).slice(-7)}`,
        company_name: i % 97 === 0 ? `=SUM(A${i})` : `Harbour Bakery ${i % 500} Ltd`,
        testing: i % 10 === 0,
        created_at: created,
        updated_at: created,
      });
    }
    await knex('contact_forms').insert(batch);
  }
  await knex.raw('vacuum analyze contact_forms');
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

async function main(): Promise<void> {
  const cleanup: (() => Promise<void>)[] = [];
  const files = mkdtempSync(path.join(os.tmpdir(), 'bench-exports-'));
  cleanup.push(async () => rmSync(files, { recursive: true, force: true }));
  try {
    const database = await openBenchDatabase('tillpoint_bench_exports', { maxConnections: POOL_MAX + 4 });
    cleanup.push(() => database.stop());
    const knex = createKnex(database.url, { poolMax: POOL_MAX });
    cleanup.push(() => knex.destroy());
    await migrateLatest(knex);
    await seed(knex, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: false });
    const loadStart = Date.now();
    await loadContactForms(knex, ROWS);
    const loadSeconds = (Date.now() - loadStart) / 1000;
    const config = {
      ...benchServerConfig(),
      exports: {
        storage: { kind: 'folder' as const, root: path.join(files, 'stored') },
        tempDir: path.join(files, 'temp'),
      },
    };
    const server = await startServer(config, {
      database: { knex, kind: DATABASE_URL ? 'postgres' : 'embedded', close: async () => {} },
      pages: false,
    });
    cleanup.push(() => server.close());
    const admin = (await knex('users').where({ email: ADMIN.email }).first('id')) as { id: string };
    const exportsService = server.api.service('exports') as unknown as ExportsService;

    console.log(`export benchmark on ${database.label}`);
    console.log(
      `contact forms: ${fmt(ROWS)} rows (loaded in ${loadSeconds.toFixed(1)} s) | ${COLUMNS.length} columns | as the admin, pages of 100`,
    );
    console.log();
    console.log(
      `  ${'format'.padEnd(8)}${'seconds'.padStart(10)}${'rows/s'.padStart(12)}${'file'.padStart(10)}${'RSS before'.padStart(13)}${'peak RSS'.padStart(12)}`,
    );
    for (const format of ['csv', 'xlsx'] as const) {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 50);
      const start = performance.now();
      const created = await exportsService.create(
        { source: 'contactForms', format, columns: COLUMNS, locale: 'zh-hk' },
        { provider: 'rest', user: { _id: admin.id, role: 'admin' } } as never,
      );
      let record = await exportsService.read(created._id);
      while (!['done', 'failed', 'cancelled'].includes(record.state)) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        record = await exportsService.read(created._id);
      }
      const seconds = (performance.now() - start) / 1000;
      clearInterval(sampler);
      if (record.state !== 'done' || !record.fileKey) throw new Error(`export ${record.state}: ${record.error ?? ''}`);
      const size = statSync(path.join(files, 'stored', ...record.fileKey.split('/'))).size;
      console.log(
        `  ${format.padEnd(8)}${seconds.toFixed(1).padStart(10)}${fmt(record.rows / seconds).padStart(12)}${mb(size).padStart(10)}${mb(before).padStart(13)}${mb(peak).padStart(12)}`,
      );
    }
  } finally {
    for (const step of cleanup.reverse()) await step().catch((error: unknown) => console.error(error));
  }
}

await main();
