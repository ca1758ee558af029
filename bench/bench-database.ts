import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase } from '../server/db/embedded.ts';

export interface BenchDatabase {
  url: string;
  label: string;
  kind: 'embedded' | 'postgres';
  /** The database was there from an earlier run and was kept as it was (`BENCH_REUSE=1`). */
  reused: boolean;
  stop(): Promise<void>;
}

/**
 * The database a benchmark runs on: a fresh embedded PGlite in a temporary folder, or, with
 * `DATABASE_URL` set, a database `name` on that PostgreSQL server, dropped and recreated (and
 * dropped again at the end, unless BENCH_KEEP_DATABASE=1 leaves it there to look into). A
 * benchmark that passes `reusable` takes BENCH_REUSE=1 to open that database as an earlier run
 * left it, when it is there (kept at the end too), so that measuring again loads nothing twice.
 */
export async function openBenchDatabase(
  name: string,
  options: { maxConnections: number; reusable?: boolean },
): Promise<BenchDatabase> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  if (!databaseUrl) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
    const embedded = await startEmbeddedDatabase({ dataDir, maxConnections: options.maxConnections });
    return {
      url: embedded.url,
      label: 'PGlite (embedded, in this process, via pglite-socket)',
      kind: 'embedded',
      reused: false,
      async stop() {
        await embedded.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
  const onServer = async <T>(work: (admin: pg.Client) => Promise<T>): Promise<T> => {
    const admin = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
    await admin.connect();
    try {
      return await work(admin);
    } finally {
      await admin.end();
    }
  };
  const recreate = (create: boolean) =>
    onServer(async (admin) => {
      await admin.query(`drop database if exists ${name} with (force)`);
      if (create) await admin.query(`create database ${name}`);
    });
  const reuse = options.reusable === true && process.env.BENCH_REUSE === '1';
  const reused =
    reuse &&
    (await onServer(
      async (admin) => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount,
    )) === 1;
  if (!reused) await recreate(true);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const keep = reuse || process.env.BENCH_KEEP_DATABASE === '1';
  return {
    url: url.toString(),
    label: `PostgreSQL at ${url.host}, database ${name}${reused ? ' (reused)' : ''}`,
    kind: 'postgres',
    reused,
    stop: () => (keep ? Promise.resolve() : recreate(false)),
  };
}
