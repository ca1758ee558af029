import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase } from '../server/db/embedded.ts';

export interface BenchDatabase {
  url: string;
  label: string;
  kind: 'embedded' | 'postgres';
  stop(): Promise<void>;
}

/**
 * The database a benchmark runs on: a fresh embedded PGlite in a temporary folder, or, with
 * `DATABASE_URL` set, a database `name` on that PostgreSQL server, dropped and recreated (and
 * dropped again at the end, unless BENCH_KEEP_DATABASE=1 leaves it there to look into).
 */
export async function openBenchDatabase(name: string, options: { maxConnections: number }): Promise<BenchDatabase> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  if (!databaseUrl) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
    const embedded = await startEmbeddedDatabase({ dataDir, maxConnections: options.maxConnections });
    return {
      url: embedded.url,
      label: 'PGlite (embedded, in this process, via pglite-socket)',
      kind: 'embedded',
      async stop() {
        await embedded.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
  const recreate = async (create: boolean) => {
    const admin = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
    await admin.connect();
    try {
      await admin.query(`drop database if exists ${name} with (force)`);
      if (create) await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
  };
  await recreate(true);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const keep = process.env.BENCH_KEEP_DATABASE === '1';
  return {
    url: url.toString(),
    label: `PostgreSQL at ${url.host}, database ${name}`,
    kind: 'postgres',
    stop: () => (keep ? Promise.resolve() : recreate(false)),
  };
}
