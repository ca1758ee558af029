import knex from 'knex';
import pino from 'pino';
import { CALLERS, type Caller } from '../../domain/admin/access.ts';
import { createApi } from '../app.ts';
import { loadConfig } from '../config.ts';
import { API_VERSION, openApiDocument, type OpenApiDocument } from './document.ts';
import { sourcesOf } from './route.ts';

/**
 * The reference's documents for every caller, written from an application that registers its
 * services without ever reaching a database (a pool that is never asked for a connection): what
 * the lint and the generated client read in CI (scripts/openapi.ts).
 */
export function offlineDocuments(): Record<Caller, OpenApiDocument> {
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_SECRET: 'reference-only-secret-that-is-long-enough-000',
    LOG_LEVEL: 'silent',
    PORT: '0',
  });
  const database = knex({
    client: 'pg',
    connection: 'postgres://reference@127.0.0.1:1/reference',
    pool: { min: 0, max: 1 },
  });
  const api = createApi({ config, knex: database, logger: pino({ level: 'silent' }), redis: null });
  const sources = sourcesOf(api);
  return Object.fromEntries(
    CALLERS.map((caller) => [caller, openApiDocument(sources, caller, { version: API_VERSION })]),
  ) as Record<Caller, OpenApiDocument>;
}
