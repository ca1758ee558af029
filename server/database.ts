import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { sandboxFor } from './payments/index.ts';
import type { SeedOptions } from './db/seed/seed.ts';
import { startEmbeddedDatabase } from './db/embedded.ts';
import { createKnex, POOL_MAX } from './db/knex.ts';
import { prepareDatabase } from './db/prepare.ts';
import { setPasswordHashing } from './auth/passwords.ts';

export interface Database {
  knex: Knex;
  /** `embedded` when PGlite serves the data; `postgres` for a server. */
  kind: 'embedded' | 'postgres';
  close(): Promise<void>;
}

/**
 * Connects (starting PGlite when there is no DATABASE_URL), migrates and seeds (logging what the
 * seed warns of); instances starting together take turns (db/prepare.ts).
 */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  let kind: Database['kind'] = 'postgres';
  let url = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    kind = 'embedded';
    const embedded = await startEmbeddedDatabase({ dataDir: config.dataDir, maxConnections: POOL_MAX });
    url = embedded.url;
    stopEmbedded = embedded.stop;
  }
  // The seed hashes the first accounts' passwords.
  setPasswordHashing(config.passwordHashing);
  if (config.passwordHashing === 'fast' && config.env === 'production') {
    logger.warn('PASSWORD_HASHING=fast: passwords are hashed at a test cost; never set it for a real site');
  }
  // Lost connections and acquire timeouts (the database away) go to the server's log as lines of their own.
  const knex = createKnex(url, { logger });
  try {
    const { warnings } = await prepareDatabase(knex, kind, seedOptionsOf(config, knex, logger));
    for (const warning of warnings) logger.warn(warning);
  } catch (error) {
    await knex.destroy();
    await stopEmbedded?.();
    throw error;
  }
  return {
    knex,
    kind,
    async close() {
      await knex.destroy();
      await stopEmbedded?.();
    },
  };
}

/**
 * What the start's seed is told: the first admin, whether demo data is on, and, with demo data on
 * the sandbox gateway, the sandbox the app's gateway uses (one per database handle), which then
 * holds the demo plans' cards (decision 065).
 */
export function seedOptionsOf(config: Config, knex: Knex, logger: Logger): SeedOptions {
  const sandbox = config.demoData && config.payments.provider === 'sandbox';
  return {
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    demoData: config.demoData,
    production: config.env === 'production',
    ...(sandbox ? { paymentSandbox: sandboxFor(config, knex, logger) } : {}),
  };
}
