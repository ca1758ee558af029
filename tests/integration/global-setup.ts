import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase } from '../../server/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    /** Why this project's tests are skipped, or empty when they run. */
    skipReason: string;
  }
}

const CI = process.env.CI === 'true';
const SERVER_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEST_DATABASE = 'tillpoint_test';

/** One database server per run: an in-memory PGlite, or a test database on the PostgreSQL server. */
export default async function setup(project: TestProject) {
  const kind = project.config.env?.TEST_DB ?? process.env.TEST_DB;
  if (kind === 'pglite') {
    const embedded = await startEmbeddedDatabase({ maxConnections: 24 });
    project.provide('databaseUrl', embedded.url);
    project.provide('skipReason', '');
    return () => embedded.stop();
  }

  const admin = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    if (CI) throw new Error(`PostgreSQL tests must run in CI but ${SERVER_URL} is unreachable: ${(error as Error).message}`, { cause: error });
    const reason = `PostgreSQL not reachable at ${SERVER_URL}; PostgreSQL tests skipped (set DATABASE_URL or start a server)`;
    console.warn(reason);
    project.provide('databaseUrl', '');
    project.provide('skipReason', reason);
    return;
  }
  const exists = await admin.query('select 1 from pg_database where datname = $1', [TEST_DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${TEST_DATABASE}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${TEST_DATABASE}`;
  project.provide('databaseUrl', url.toString());
  project.provide('skipReason', '');
}
