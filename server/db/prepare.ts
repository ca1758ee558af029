import type { Knex } from 'knex';
import { migrateLatest } from './migrate.ts';
import { seed, type SeedOptions, type SeedReport } from './seed/seed.ts';

/**
 * Migrates and seeds the database at start-up. Several instances starting at the same moment on
 * one fresh PostgreSQL take turns: each holds a transaction-scoped advisory lock (one per schema)
 * while it migrates and seeds, so the next one finds the work done instead of creating the same
 * tables at once (where one of them would crash). The lock ends with its transaction, so an
 * instance killed half-way frees it. PGlite serves one process alone, whose connections share one
 * session (a lock would be its own), so it goes straight on.
 */
export async function prepareDatabase(knex: Knex, kind: 'embedded' | 'postgres', options: SeedOptions): Promise<SeedReport> {
  const prepare = async () => {
    await migrateLatest(knex);
    return seed(knex, options);
  };
  if (kind === 'embedded') return prepare();
  // The lock holds one pooled connection; the migrations and the seed use others.
  return knex.transaction(async (lock) => {
    await lock.raw(`select pg_advisory_xact_lock(hashtext('tillpoint:prepare:' || current_schema()))`);
    return prepare();
  });
}
