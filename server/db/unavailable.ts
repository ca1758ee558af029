import { Unavailable } from '@feathersjs/errors';

/**
 * Telling "the database is away" from every other failure, in one place (decision 032): such a
 * failure is answered 503 with `Retry-After`, never a generic 500, and public pages fall back to
 * their last cached copy.
 */

/** Seconds a caller is told to wait before trying again while the database is away. */
export const DATABASE_RETRY_AFTER = 5;

/** The message key of that answer (locales/*.json, `errors.databaseUnavailable`). */
export const DATABASE_UNAVAILABLE = 'errors.databaseUnavailable';

/** Socket-level codes of a server that refuses, drops or never answers a connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/**
 * PostgreSQL's own codes for a server that cannot serve: class 08 (connection exception), 57P01-03
 * (shut down by an administrator, crashed, starting up or shutting down), 53300 (too many connections).
 */
const SERVER_CODES = /^(08\d{3}|57P0[123]|53300)$/;

/**
 * What `pg`, its pool, knex's pool and the embedded server's socket (PGlite behind pglite-socket
 * speaks the same protocol, so the same errors) say when the connection is lost or never made.
 */
const MESSAGES = [
  /^Connection terminated/, // pg: the server or the network closed the connection (also "… due to connection timeout")
  /^Knex: Timeout acquiring a connection/, // knex: no connection within acquireConnectionTimeout
  /is not queryable$/, // pg: a client whose connection already failed
  /^timeout expired$/, // pg: connectionTimeoutMillis passed while connecting
  /^Query read timeout$/, // pg: query_timeout passed
  /^read ECONNRESET$/,
  /^connect ECONNREFUSED/,
];

/** True when an error (or an error it wraps) says the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { code, name, message, cause, errors } = error as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.test(code))) return true;
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  // Node's AggregateError (a host with several addresses, each refused) and wrapped causes.
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return cause !== undefined && isDatabaseUnavailable(cause, depth + 1);
}

/** The answer to a call that failed because the database is away: 503, to be retried. */
export function databaseUnavailable(): Unavailable {
  return new Unavailable(DATABASE_UNAVAILABLE, { retryAfter: DATABASE_RETRY_AFTER, reason: 'database' });
}

/** True for the error `databaseUnavailable` makes (also once its message is translated). */
export function isDatabaseUnavailableAnswer(error: unknown): boolean {
  const e = error as { code?: unknown; data?: { reason?: unknown } } | null;
  return e?.code === 503 && e.data?.reason === 'database';
}
