import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// Counts and bigint sums come back as numbers; our values stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export const POOL_MAX = 8;

export function createKnex(url: string, options: { searchPath?: string; poolMax?: number } = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: url,
    searchPath: options.searchPath ? [options.searchPath] : undefined,
    pool: { min: 0, max: options.poolMax ?? POOL_MAX, idleTimeoutMillis: 30_000 },
    acquireConnectionTimeout: 20_000,
  });
}
