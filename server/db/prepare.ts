import type { Knex } from 'knex';
import { migrateLatest } from './migrate.ts';
import { seed, type SeedOptions, type SeedReport } from './seed/seed.ts';

/** A `pg` client as knex makes it outside its pool. */
interface RawConnection {
  query(text: string): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
interface RawConnections {
  acquireRawConnection(): Promise<RawConnection>;
  destroyRawConnection(connection: RawConnection): Promise<void>;
}

/** One lock per schema, so test schemas (and deployments sharing a server) do not wait on each other. */
const LOCK_KEY = `hashtext('tillpoint:prepare:' || current_schema())`;

/**
 * Migrates and seeds the database at start-up. Several instances starting at the same moment on
 * one fresh PostgreSQL take turns (decision 032): each takes a session advisory lock (one per
 * schema) on a connection of its own, outside the pool, and holds it while it migrates and seeds;
 * the others wait on that lock, then find the work done instead of creating the same tables at
 * once (where one of them would crash). The lock lives with its connection, so an instance killed
 * half-way frees it; it holds no transaction open meanwhile (which an `idle_in_transaction`
 * timeout would end) and takes no connection from the pool the migrations use. PGlite serves one
 * process alone, whose connections share one session (a lock would be its own), so it goes
 * straight on.
 */
export async function prepareDatabase(
  knex: Knex,
  kind: 'embedded' | 'postgres',
  options: SeedOptions,
): Promise<SeedReport> {
  const prepare = async () => {
    await migrateLatest(knex);
    return seed(knex, options);
  };
  if (kind === 'embedded') return prepare();
  // knex's own way to a connection outside the pool (with the search path set), as it cancels queries.
  const connections = knex.client as unknown as RawConnections;
  const lock = await connections.acquireRawConnection();
  // A dropped connection rejects the query in flight; this keeps the client's own 'error' event quiet.
  lock.on('error', () => undefined);
  try {
    await lock.query(`select pg_advisory_lock(${LOCK_KEY})`);
    try {
      return await prepare();
    } finally {
      await lock.query(`select pg_advisory_unlock(${LOCK_KEY})`).catch(() => undefined);
    }
  } finally {
    await connections.destroyRawConnection(lock).catch(() => undefined);
  }
}
