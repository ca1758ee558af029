import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';

// Counts and bigint sums come back as numbers; our values stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export const POOL_MAX = 8;

/**
 * How long a query waits for the database before it fails (decision 032): a call answers 503
 * within seconds when the database is away, never hangs. A connection not made in
 * `connectMs` is given up; a query that found no pooled connection in `acquireMs` (none could be
 * made, or all are busy that long) fails. Connections keep TCP keep-alive on, so a peer that
 * vanished is noticed on an idle connection too.
 */
export const DATABASE_TIMEOUTS = { connectMs: 3_000, acquireMs: 5_000 } as const;

/** Where knex's own warnings go (a connection lost, none acquired): the server's log, else the console. */
type KnexLogger = Pick<Logger, 'warn' | 'error' | 'debug'>;

export function createKnex(
  url: string,
  options: { searchPath?: string; poolMax?: number; logger?: KnexLogger } = {},
): Knex {
  const { logger } = options;
  return knexFactory({
    client: 'pg',
    ...(logger
      ? {
          log: {
            warn: (message: unknown) => logger.warn({ source: 'knex' }, String(message)),
            error: (message: unknown) => logger.error({ source: 'knex' }, String(message)),
            deprecate: (message: unknown) => logger.warn({ source: 'knex' }, String(message)),
            debug: (message: unknown) => logger.debug({ source: 'knex' }, String(message)),
          },
        }
      : {}),
    connection: { connectionString: url, connectionTimeoutMillis: DATABASE_TIMEOUTS.connectMs, keepAlive: true },
    searchPath: options.searchPath ? [options.searchPath] : undefined,
    pool: { min: 0, max: options.poolMax ?? POOL_MAX, idleTimeoutMillis: 30_000 },
    acquireConnectionTimeout: DATABASE_TIMEOUTS.acquireMs,
  });
}
