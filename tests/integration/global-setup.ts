import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../server/db/embedded.ts';
import { dropRunDatabases, prepareTemplate, runDatabasePrefix, type TemplateSource } from './templates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One URL per worker slot (`VITEST_POOL_ID` - 1): the same server for every slot on PostgreSQL. */
    databaseUrls: string[];
    /** Why this project's tests are skipped, or empty when they run. */
    skipReason: string;
    /** What each test database is a copy of (templates.ts). */
    template: TemplateSource;
  }
}

const CI = process.env.CI === 'true';
const SERVER_URL =
  process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEST_DATABASE = 'tillpoint_test';

/**
 * Extensions the migrations use, installed once in `public`, beside the files' own schemas. A
 * migration's `create extension if not exists` would put one in the first file's schema, and
 * dropping that schema at the file's end would take the extension, and other files' indexes over
 * it, away while they run.
 */
async function installSharedExtensions(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_trgm schema public');
  } finally {
    await client.end();
  }
}

/**
 * The run's database servers: on PGlite, one in-memory instance per worker slot (PGlite is a single
 * session shared by all its connections, so two files at once on one instance would set each
 * other's search_path); on PostgreSQL, a test database every file shares, one schema per file.
 */
export default async function setup(project: TestProject) {
  const kind = project.config.env?.TEST_DB ?? process.env.TEST_DB;
  if (kind === 'pglite') {
    const slots = Number(project.globalConfig.maxWorkers) || 1;
    const embedded: EmbeddedDatabase[] = [];
    for (let slot = 0; slot < slots; slot += 1) embedded.push(await startEmbeddedDatabase({ maxConnections: 24 }));
    for (const database of embedded) await installSharedExtensions(database.url);
    // The template: a PGlite of its own, migrated and seeded, whose data directory each test copies.
    const template = await startEmbeddedDatabase({ maxConnections: 4 });
    const folder = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-template-'));
    const dumpFile = path.join(folder, 'pgdata.tar');
    try {
      await installSharedExtensions(template.url);
      await prepareTemplate(template.url, 'embedded');
      writeFileSync(dumpFile, new Uint8Array(await (await template.dump()).arrayBuffer()));
    } finally {
      await template.stop();
    }
    project.provide(
      'databaseUrls',
      embedded.map((database) => database.url),
    );
    project.provide('template', { kind: 'pglite', dumpFile });
    project.provide('skipReason', '');
    return async () => {
      for (const database of embedded) await database.stop();
      rmSync(folder, { recursive: true, force: true });
    };
  }

  const admin = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    if (CI)
      throw new Error(`PostgreSQL tests must run in CI but ${SERVER_URL} is unreachable: ${(error as Error).message}`, {
        cause: error,
      });
    const reason = `PostgreSQL not reachable at ${SERVER_URL}; PostgreSQL tests skipped (set DATABASE_URL or start a server)`;
    console.warn(reason);
    project.provide('databaseUrls', []);
    project.provide('template', { kind: 'none' });
    project.provide('skipReason', reason);
    return;
  }
  const exists = await admin.query('select 1 from pg_database where datname = $1', [TEST_DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${TEST_DATABASE}`);
  // The run's template database, beside the shared test database (templates.ts).
  const prefix = runDatabasePrefix();
  const template = `${prefix}_template`;
  await admin.query(`create database "${template}"`);
  await admin.end();
  const drop = () => dropRunDatabases(SERVER_URL, prefix);
  try {
    const templateUrl = new URL(SERVER_URL);
    templateUrl.pathname = `/${template}`;
    await installSharedExtensions(templateUrl.toString());
    await prepareTemplate(templateUrl.toString(), 'postgres');
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
  const url = new URL(SERVER_URL);
  url.pathname = `/${TEST_DATABASE}`;
  await installSharedExtensions(url.toString());
  project.provide('databaseUrls', [url.toString()]);
  project.provide('template', { kind: 'postgres', serverUrl: SERVER_URL, template, copyPrefix: `${prefix}_copy_` });
  project.provide('skipReason', '');
  return drop;
}
