import { randomBytes } from 'node:crypto';
import authenticationClient, { MemoryStorage } from '@feathersjs/authentication-client';
import { feathers, type Application as FeathersClient } from '@feathersjs/feathers';
import rest from '@feathersjs/rest-client';
import socketio from '@feathersjs/socketio-client';
import { Redis } from 'ioredis';
import type { Knex } from 'knex';
import pino, { type Logger } from 'pino';
import { io, type Socket } from 'socket.io-client';
import { inject } from 'vitest';
import type { EntityName } from '../../domain/entities/index.ts';
import type {
  CallParams,
  Caller,
  ClientServiceMap,
  ServiceMap,
  ServiceName,
  Services,
} from '../../domain/entities/services.ts';
import type { RecordOf, Role } from '../../domain/entities/types.ts';
import type { users } from '../../domain/entities/users.ts';
import { createApi, type Api } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import type { Database } from '../../server/database.ts';
import { createKnex } from '../../server/db/knex.ts';
import { hashPassword, setPasswordHashing } from '../../server/auth/passwords.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import type { UntypedEntityService } from '../../server/services/entity/entity-service.ts';
import { entityServiceAt } from '../../server/services/entity/service-at.ts';

import { ADMIN, copyTemplate, TEMPLATE_SCHEMAS } from './templates.ts';

export { ADMIN };

/** Why the current project's tests are skipped ('' when they run). */
export const skipReason = inject('skipReason');
/** Which database this run of the shared suite uses. */
export const databaseKind = process.env.TEST_DB as 'pglite' | 'postgres';

/** The Redis that tests of several instances and of Redis-held limits use. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** '' when Redis answers; otherwise why the Redis tests are skipped (under CI they must run: it throws). */
export async function redisSkipReason(): Promise<string> {
  if (skipReason) return skipReason;
  const probe = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return '';
  } catch (error) {
    const message = `Redis not reachable at ${TEST_REDIS_URL} (${(error as Error).message})`;
    if (process.env.CI === 'true') throw new Error(`${message}: the Redis tests must run in CI`, { cause: error });
    const reason = `${message}; Redis tests skipped (start Redis or set TEST_REDIS_URL)`;
    console.warn(reason);
    return reason;
  } finally {
    probe.disconnect();
  }
}

// Every test hashes at the test cost (testConfig says so too), whichever it does first.
setPasswordHashing('fast');

/** Mail jobs in tests: a failed attempt is retried at the queue's next poll (a second), not after half a minute. */
export const TEST_MAIL_RETRY = { retryLimit: 10, retryDelay: 0, retryDelayMax: 0 } as const;

export function testConfig(overrides: Partial<Config> = {}): Config {
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_SECRET: 'test-secret-that-is-long-enough-for-hs256-000',
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
  });
  return {
    ...config,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    mail: { ...config.mail, ...TEST_MAIL_RETRY },
    ...overrides,
  };
}

/** This worker's database server (global-setup.ts): PGlite serves one file at a time. */
function databaseUrl(): string {
  const urls = inject('databaseUrls');
  const slot = Number(process.env.VITEST_POOL_ID ?? 1) - 1;
  const url = urls[slot] ?? urls[0];
  if (!url) throw new Error(`No database for worker slot ${slot + 1}`);
  return url;
}

/** A new empty schema on the run's database (the caller drops it, or createTestDatabase's close does). */
export async function createEmptySchema(): Promise<{ url: string; schema: string }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const url = databaseUrl();
  const setupKnex = createKnex(url, { poolMax: 1 });
  await setupKnex.raw('create schema ??', [schema]);
  await setupKnex.destroy();
  return { url, schema };
}

/**
 * A fresh, migrated and seeded database of its own for one test file (without the demo data and
 * accounts when `seed` is false): a copy of the run's template (templates.ts), so files never see
 * each other's data, on PGlite and PostgreSQL alike.
 */
export async function createTestDatabase(options: { seed?: boolean } = {}): Promise<Database> {
  const copy = await copyTemplate(inject('template'));
  const schema = options.seed === false ? TEMPLATE_SCHEMAS.bare : TEMPLATE_SCHEMAS.seeded;
  const knex: Knex = createKnex(copy.url, { searchPath: schema, poolMax: 4 });
  return {
    knex,
    kind: databaseKind === 'pglite' ? 'embedded' : 'postgres',
    async close() {
      await knex.destroy();
      await copy.close();
    },
  };
}

export interface TestApp {
  api: Api;
  database: Database;
  close(): Promise<void>;
}

/**
 * The Feathers application on a fresh schema, called in-process (no HTTP). Given a `database`, it
 * runs on that one instead (as a restarted server would) and leaves it open when it closes.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  options: { database?: Database; logger?: Logger } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = testConfig(overrides);
  const api = createApi({
    config,
    knex: database.knex,
    logger: options.logger ?? pino({ level: 'silent' }),
    redis: null,
  });
  await api.setup();
  return {
    api,
    database,
    async close() {
      await api.teardown().catch(() => undefined);
      if (!options.database) await database.close();
    },
  };
}

/** The whole server on a free port (API and socket.io; no pages), on a fresh schema. */
export async function startTestServer(overrides: Partial<Config> = {}): Promise<RunningServer> {
  const database = await createTestDatabase();
  return startServer(testConfig(overrides), { database, pages: false });
}

/**
 * Several servers on one shared schema (several instances of the product behind a load balancer).
 * Each server's `close()` leaves the shared database open; the last one to close closes it.
 */
export async function startTestServers(count: number, overrides: Partial<Config> = {}): Promise<RunningServer[]> {
  const database = await createTestDatabase();
  let open = count;
  const shared: Database = {
    knex: database.knex,
    kind: database.kind,
    async close() {
      open -= 1;
      if (open === 0) await database.close();
    },
  };
  const servers: RunningServer[] = [];
  try {
    for (let i = 0; i < count; i += 1)
      servers.push(await startServer(testConfig(overrides), { database: shared, pages: false }));
  } catch (error) {
    for (const server of servers) await server.close();
    if (servers.length < count) await database.close();
    throw error;
  }
  return servers;
}

/** The official Feathers client over REST (`/api`), with its token kept in memory. */
export function restClient(url: string, headers: Record<string, string> = {}): FeathersClient {
  const client = feathers();
  client.configure(rest(`${url}/api`).fetch(fetch, { headers }));
  client.configure(authenticationClient({ storage: new MemoryStorage() }));
  return client;
}

export interface SocketClient {
  client: FeathersClient;
  socket: Socket;
  close(): void;
  /**
   * Why the socket was disconnected, once it is, within `ms`: `io server disconnect` when the
   * server closed it (a session ended elsewhere, server/channels.ts); `open` if it still is.
   */
  closedWithin(ms?: number): Promise<string>;
}

/** The official Feathers client over socket.io (websocket only, 30 s timeout), token in memory. */
export function socketClient(url: string, headers: Record<string, string> = {}): SocketClient {
  const socket = io(url, {
    path: '/api/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: headers,
  });
  const client = feathers();
  client.configure(socketio(socket, { timeout: 30_000 }));
  client.configure(authenticationClient({ storage: new MemoryStorage() }));
  let reason: string | undefined;
  const disconnected = new Promise<string>((resolve) =>
    socket.once('disconnect', (why) => {
      reason = why;
      resolve(why);
    }),
  );
  return {
    client,
    socket,
    close() {
      socket.disconnect();
    },
    closedWithin(ms = 2_000) {
      if (reason) return Promise.resolve(reason);
      return Promise.race([disconnected, new Promise<string>((resolve) => setTimeout(() => resolve('open'), ms))]);
    },
  };
}

/** Resolves with what a promise rejects with; fails when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<FeathersErrorJSON> {
  try {
    await promise;
  } catch (error) {
    return error as FeathersErrorJSON;
  }
  throw new Error('expected the call to be rejected');
}

/** What a Feathers error looks like to a client (REST JSON body or socket error). */
export interface FeathersErrorJSON {
  name: string;
  message: string;
  code: number;
  className: string;
  data?: Record<string, unknown>;
  errors?: Record<string, string>;
}

/** The answers of a complete enquiry form. */
export const validEnquiry = (email = 'chan@example.test') => ({
  salutation: 'ms',
  firstName: 'Mei',
  lastName: 'Chan',
  companyName: 'Chan Noodles',
  customerType: 'new',
  businessType: 'restaurant',
  planNeeded: 'restaurant-flexi',
  contactMethods: ['email', 'phone'],
  email,
  countryCode: '+852',
  phone: '9123 4567',
  needDescription: 'Two shops, one kitchen display each.',
  advancedFeatures: ['kds'],
  consultationType: 'demonstration',
  personalDataConsent: true,
});

/** A unique email for an account a test creates. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.test`;
}

/** True when anything inside a value (at any depth) has a `password` key. */
export function containsPassword(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsPassword);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, inner]) => key === 'password' || containsPassword(inner));
}

/** An account a test signs in with: its record's id and email, its password and its role. */
export type TestAccount = Pick<RecordOf<typeof users>, '_id' | 'email'> & { password: string; role: Role };

/**
 * An account written straight to the database (argon2 hash, as registration stores it), for tests
 * whose subject is not registration itself: its email verified unless `verified: false`.
 */
export async function createAccount(
  knex: Knex,
  options: { role?: TestAccount['role']; password?: string; label?: string; verified?: boolean } = {},
): Promise<TestAccount> {
  const account = {
    _id: randomBytes(12).toString('hex'),
    email: uniqueEmail(options.label ?? options.role ?? 'member'),
    password: options.password ?? 'Account123',
    role: options.role ?? 'member',
  };
  await knex('users').insert({
    id: account._id,
    email: account.email,
    password: await hashPassword(account.password),
    role: account.role,
    // Verified unless asked otherwise: tests of other subjects act as established accounts.
    email_verified_at: options.verified === false ? null : new Date(),
  });
  return account;
}

/** Signs an account in over REST (from the address given, which per-address limits count) and answers its access token. */
export async function accessTokenOf(
  url: string,
  account: { email: string; password: string },
  address = '127.0.0.1',
): Promise<string> {
  const response = await fetch(`${url}/api/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ strategy: 'local', email: account.email, password: account.password }),
  });
  if (response.status !== 201) throw new Error(`Sign-in of ${account.email} answered ${response.status}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}

/** A REST call with a JSON body, as an outside caller: with a token or none, in a language, from an address. */
export async function restCall(
  url: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; locale?: string; address?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/api/${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-locale': options.locale ?? 'en',
      ...(options.address ? { 'x-forwarded-for': options.address } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export type { Page } from '../../domain/entities/services.ts';

/** A service of the in-process app, typed from its definition: records as the server holds them (dates as `Date`). */
export function typedService<K extends ServiceName>(api: Api, path: K): Services[K] {
  const services: ServiceMap = api;
  return services.service(path);
}

/**
 * An entity service of the in-process app as an attacker's request reaches it: any data, any
 * query, nothing checked by the compiler (the service checks it). For tests of what a service
 * refuses; every other call goes through the typed map (`typedService`).
 */
export function untypedService(api: Api, path: EntityName): UntypedEntityService {
  const service = entityServiceAt(api, path);
  if (!service) throw new Error(`No entity service at '${path}'`);
  return service;
}

/** A service through an official client (REST or socket.io), typed: records as JSON carries them (dates as text). */
export function clientService<K extends ServiceName>(client: FeathersClient, path: K): Services<'json'>[K] {
  const services: ClientServiceMap = client;
  return services.service(path);
}

/** Params of an outside REST call, optionally as a user and with a query (its literal values kept for typed services). */
export function asRest<const Q extends object = Record<never, never>>(
  user?: Caller,
  query?: Q,
): CallParams & { provider: 'rest'; query?: Q } {
  return { provider: 'rest', ...(user ? { user } : {}), ...(query ? { query } : {}) };
}
