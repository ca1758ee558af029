import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { setPasswordHashing } from '../../server/auth/passwords.ts';
import { startEmbeddedDatabase } from '../../server/db/embedded.ts';
import { createKnex } from '../../server/db/knex.ts';
import { migrateLatest } from '../../server/db/migrate.ts';
import { prepareDatabase } from '../../server/db/prepare.ts';

/**
 * The databases test files start from. Migrating and seeding a schema costs a few seconds, and the
 * files make about a hundred of them per database kind; so the run migrates and seeds once
 * (global-setup.ts), and each test database is a copy of that: on PostgreSQL a database created
 * from a template database, on PGlite an instance started from the template's data directory.
 */

export const ADMIN = { email: 'admin@tillpoint.test', password: 'Admin12345' };

/** The template's schemas: migrated and seeded with the demo data, or only migrated. */
export const TEMPLATE_SCHEMAS = { seeded: 't_seeded', bare: 't_bare' } as const;

export type TemplateSource =
  | { kind: 'pglite'; dumpFile: string }
  | { kind: 'postgres'; serverUrl: string; template: string; copyPrefix: string }
  | { kind: 'none' };

/** Migrates and seeds the template's two schemas on the database at `url`. */
export async function prepareTemplate(url: string, kind: 'embedded' | 'postgres'): Promise<void> {
  // The demo accounts are hashed at the test cost, as every test hashes (harness.ts).
  setPasswordHashing('fast');
  const admin = createKnex(url, { poolMax: 1 });
  try {
    for (const schema of Object.values(TEMPLATE_SCHEMAS)) await admin.raw('create schema if not exists ??', [schema]);
  } finally {
    await admin.destroy();
  }
  const seeded = createKnex(url, { searchPath: TEMPLATE_SCHEMAS.seeded, poolMax: 4 });
  try {
    await prepareDatabase(seeded, kind, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
  } finally {
    await seeded.destroy();
  }
  const bare = createKnex(url, { searchPath: TEMPLATE_SCHEMAS.bare, poolMax: 4 });
  try {
    await migrateLatest(bare);
  } finally {
    await bare.destroy();
  }
}

/** A name for the run's databases on a shared server: other runs on the same server keep theirs. */
export function runDatabasePrefix(): string {
  return `tillpoint_run_${randomBytes(4).toString('hex')}`;
}

/** Drops every database of a run (its copies, then its template). */
export async function dropRunDatabases(serverUrl: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1) order by datname = $2',
      [prefix, `${prefix}_template`],
    );
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await client.end();
  }
}

export interface TemplateCopy {
  url: string;
  /** Stops using the copy and deletes it. */
  close(): Promise<void>;
}

let pgliteDump: Blob | undefined;
let postgresAdmin: Promise<pg.Client> | undefined;

function adminClient(serverUrl: string): Promise<pg.Client> {
  postgresAdmin ??= (async () => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
    client.on('error', () => {
      postgresAdmin = undefined;
    });
    await client.connect();
    return client;
  })();
  return postgresAdmin;
}

/** A new database copied from the run's template. */
export async function copyTemplate(source: TemplateSource): Promise<TemplateCopy> {
  if (source.kind === 'pglite') {
    pgliteDump ??= new Blob([readFileSync(source.dumpFile)]);
    const copy = await startEmbeddedDatabase({ loadDataDir: pgliteDump, maxConnections: 24 });
    return { url: copy.url, close: () => copy.stop() };
  }
  if (source.kind === 'none') throw new Error('No database server for this project');
  const name = `${source.copyPrefix}${randomBytes(6).toString('hex')}`;
  const client = await adminClient(source.serverUrl);
  // WAL_LOG copies the template block by block, without the checkpoints FILE_COPY asks for.
  await client.query(`create database "${name}" template "${source.template}" strategy wal_log`);
  const url = new URL(source.serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async close() {
      // Dropping waits on the server's checkpoint: it goes on while the next file runs, and the
      // run's end drops whatever is left (global-setup.ts).
      void adminClient(source.serverUrl)
        .then((admin) => admin.query(`drop database if exists "${name}" with (force)`))
        .catch(() => undefined);
    },
  };
}
