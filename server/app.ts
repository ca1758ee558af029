import { errorHandler, json, rest, type Application as ExpressFeathers } from '@feathersjs/express';
import { idempotentWrites } from './idempotency.ts';
import express from '@feathersjs/express';
import { feathers, type HookContext } from '@feathersjs/feathers';
import socketio from '@feathersjs/socketio';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { clientAddress, type TrustProxy } from './auth/address.ts';
import { createLoginLimits, type LoginLimits } from './auth/limits.ts';
import { DatabaseRevocationStore, SharedRevocationStore, type RevocationStore } from './auth/revocation.ts';
import { AppAuthenticationService, PasswordStrategy, RevocableJWTStrategy, SESSION_CACHE } from './auth/strategies.ts';
import { configureChannels, serializeEvent } from './channels.ts';
import { APP_AUTHENTICATION_PATH, configureAppAuthentication } from './auth/app-users.ts';
import type { Config } from './config.ts';
import { setPasswordHashing } from './auth/passwords.ts';
import { jsonBodiesOnly, localizeErrors, normalizeHttpError, unknownEndpoint } from './hooks/errors.ts';
import { sessionCookie } from './auth/cookie.ts';
import {
  DatabaseTicketStore,
  FallbackTicketStore,
  hideTicketSession,
  RedisTicketStore,
  socketTicketRoute,
  TicketStrategy,
  type TicketStore,
} from './auth/tickets.ts';
import { configureJobs } from './jobs/jobs.ts';
import type { JobQueue } from './jobs/queue.ts';
import { configureServices } from './services/index.ts';
import { redisSync, type EventSync } from './sync.ts';
import { paymentWebhookRoute } from './services/payments/webhooks.ts';
import { uploadsOf } from './services/attachments/attachments.ts';
import { attachmentRoutes } from './services/attachments/routes.ts';
import { invoicePdfRoute } from './invoices/route.ts';
import { exportDownloadRoute } from './exports/route.ts';
import { facebookUploadRoute } from './services/facebook/route.ts';
import { API_VERSION } from './openapi/document.ts';
import { openApiRoute } from './openapi/route.ts';
import { isHttpsSite } from '../domain/session-cookie.ts';
import type { ServerServices } from './services/types.ts';

export const JSON_BODY_LIMIT = '256kb';
export const SOCKET_PATH = '/api/socket.io';
/** Sent to every connection when it may have missed events: it fetches again what it shows (app/api/live.ts). */
export const RESYNC_EVENT = 'resync';

export interface ApiDependencies {
  config: Config;
  knex: Knex;
  logger: Logger;
  redis: Redis | null;
}

/** The Feathers application, typed by the services it registers (server/services/types.ts). */
export type Api = ExpressFeathers<ServerServices> & {
  limits: LoginLimits;
  revocations: RevocationStore;
  jobs: JobQueue;
};

/**
 * The Feathers application: every service, authentication, channels and transports.
 * Mounted by the main server under /api; services keep plain names (`industries`).
 */
export function createApi({ config, knex, logger, redis }: ApiDependencies): Api {
  const app = express(feathers<ServerServices>());
  setPasswordHashing(config.passwordHashing);
  app.disable('x-powered-by');
  app.set('logger', logger);
  app.set('knex', knex);
  app.set('authentication', {
    secret: config.appSecret,
    entity: 'user',
    service: 'users',
    entityId: '_id',
    authStrategies: ['jwt', 'local', 'ticket'],
    jwtOptions: {
      header: { typ: 'access' },
      audience: config.publicUrl ?? 'tillpoint',
      issuer: 'tillpoint',
      algorithm: 'HS256',
      expiresIn: '7d',
    },
    local: { usernameField: 'email', passwordField: 'password', errorMessage: 'auth.invalidLogin' },
  });
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);

  // Payment providers' webhooks: signed over the raw body, so they come before the JSON parser.
  app.use(paymentWebhookRoute(app, logger));
  // Uploads are multipart, read by busboy within their limits; files are served as bytes.
  app.use(attachmentRoutes(app, config, () => uploadsOf(app)));
  // An invoice as a PDF file, read as the caller through the invoices service (decision 029).
  app.use(invoicePdfRoute(app, config));
  // A finished export's file, to the staff member who asked or an admin (decision 036).
  app.use(exportDownloadRoute(app, config));
  // A Facebook page's export, uploaded by staff to import its posts as draft news (decision 060).
  app.use(facebookUploadRoute(app, config));
  // Portal pages sign their live connection in with a one-time ticket, never the token (decision 027).
  // With Redis, the table takes the tickets Redis cannot (decision 032).
  const redisAway = (error: unknown) => logger.warn({ err: error }, 'Redis did not answer; the database stands in');
  const tickets: TicketStore = redis
    ? new FallbackTicketStore(
        new RedisTicketStore(redis, `${config.redisPrefix}:ticket`),
        new DatabaseTicketStore(knex),
        redisAway,
      )
    : new DatabaseTicketStore(knex);
  app.use(socketTicketRoute(app, config, tickets));
  // The API's reference, written from the registered services for the caller's role (decision 058).
  app.use(openApiRoute(app, { version: API_VERSION, secureCookies: isHttpsSite(config.publicUrl) }));
  // JSON only: no form body (which another site's page could send) reaches a service.
  app.use(jsonBodiesOnly);
  app.use(json({ limit: JSON_BODY_LIMIT }));
  // The caller's address reaches services so sign-in limits can count per address.
  app.use((req, _res, next) => {
    req.feathers = { ...req.feathers, ip: req.ip };
    next();
  });
  // A retried write with the same `Idempotency-Key` gets its first answer (decision 041).
  app.use(idempotentWrites(knex, logger));
  app.configure(rest());
  /** The socket.io server, once the transport has made it. */
  let sockets: { emit(event: string): unknown } | undefined;
  app.configure(
    socketio({ path: SOCKET_PATH, transports: ['websocket'], maxHttpBufferSize: 1e6, serveClient: false }, (io) => {
      sockets = io;
      // The instance's name on socket.io's own answers too (server/server.ts sets it on every other).
      const named = (headers: Record<string, string | string[]>) => {
        headers['X-Instance'] = config.instanceName;
      };
      // An app set up without an HTTP server (the services alone, in tests) has no engine yet.
      const engine = io.engine as typeof io.engine | undefined;
      engine?.on('initial_headers', named);
      engine?.on('headers', named);
      io.use((socket, next) => {
        const trust = app.get('trust proxy fn') as TrustProxy | undefined;
        const { address, headers } = socket.handshake;
        (socket as unknown as { feathers: Record<string, unknown> }).feathers.ip = clientAddress(
          address,
          headers['x-forwarded-for'],
          trust,
        );
        next();
      });
    }),
  );
  if (redis) {
    // A connection of its own for listening (a subscribed connection sends nothing else).
    const sub = redis.duplicate({ connectionName: `${redis.options.connectionName ?? 'tillpoint'}:events` });
    sub.on('error', () => undefined);
    app.configure(
      redisSync({
        pub: redis,
        sub,
        key: `${config.redisPrefix}:events`,
        serialize: serializeEvent,
        deserialize: JSON.parse,
        logger,
      }),
    );
    // Events of other instances may have been missed (Redis was away): every connection is told to
    // fetch again what it shows, as after a reconnection (decision 032, addendum).
    (app as unknown as { sync: EventSync }).sync.onResumed(() => {
      logger.info('service events flow between instances again; connections asked to fetch again');
      sockets?.emit(RESYNC_EVENT);
    });
  }

  const limits = createLoginLimits(redis, `${config.redisPrefix}:limit`, config.loginLimits);
  // With Redis, the table stays the record and Redis a copy that answers at once (decision 032).
  const revocations: RevocationStore = redis
    ? new SharedRevocationStore(redis, knex, { prefix: `${config.redisPrefix}:revoked`, onError: redisAway })
    : new DatabaseRevocationStore(knex);
  const api: Api = Object.assign(app, { limits, revocations, jobs: configureJobs(app, knex, logger, config.jobs) });

  api.hooks({ around: { all: [localizeErrors] } });
  configureServices(api, { config, knex, logger, redis, limits, jobs: api.jobs });

  const authentication = new AppAuthenticationService(api);
  authentication.revocations = revocations;
  // While other instances' events may be missed, sessions are verified again after a moment.
  const events = (app as unknown as { sync?: EventSync }).sync;
  authentication.register(
    'jwt',
    new RevocableJWTStrategy(revocations, SESSION_CACHE, { eventsMayBeMissed: () => events?.mayMiss() ?? false }),
  );
  authentication.register('local', new PasswordStrategy(limits));
  authentication.register('ticket', new TicketStrategy(tickets));
  api.use('authentication', authentication, { methods: ['create', 'remove'] });
  api.service('authentication').hooks({
    // No `authenticate` hook here: Feathers refuses it on this service; `remove` checks the token itself.
    around: { all: [sessionCookie(config), hideTicketSession] },
  });

  // The apps' users sign in apart, with tokens of their own audience (decision 053).
  const appAuthentication = configureAppAuthentication(api, {
    config,
    knex,
    limits,
    revocations,
    eventsMayBeMissed: () => events?.mayMiss() ?? false,
  });
  api.use(APP_AUTHENTICATION_PATH, appAuthentication, { methods: ['create', 'remove'] });

  configureChannels(api);
  api.use(unknownEndpoint);
  api.use(normalizeHttpError(logger));
  api.use(errorHandler({ html: false, logger: false }));
  return api;
}

export type { HookContext };
