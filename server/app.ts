import { errorHandler, json, rest, type Application as ExpressFeathers } from '@feathersjs/express';
import express, { urlencoded } from '@feathersjs/express';
import { feathers, type HookContext, type NextFunction } from '@feathersjs/feathers';
import socketio from '@feathersjs/socketio';
import sync from 'feathers-sync';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { entities } from '../domain/entities/index.ts';
import { clientAddress, type TrustProxy } from './auth/address.ts';
import { createLimiter, createLoginLimits, type LoginLimits } from './auth/limits.ts';
import { DatabaseRevocationStore, RedisRevocationStore, type RevocationStore } from './auth/revocation.ts';
import { AppAuthenticationService, PasswordStrategy, RevocableJWTStrategy } from './auth/strategies.ts';
import { configureChannels, serializeEvent } from './channels.ts';
import type { Config } from './config.ts';
import { authorize } from './hooks/authorize.ts';
import { cleanOutput } from './hooks/clean-output.ts';
import { publicRecordsOnly } from './hooks/public-records.ts';
import { localizeErrors, normalizeHttpError, unknownEndpoint } from './hooks/errors.ts';
import { sessionCookie } from './auth/cookie.ts';
import { EntityService } from './services/entity/entity-service.ts';
import { blogRules, sanitizeBlogData } from './services/blogs/blogs.ts';
import { subscriberRules } from './services/subscribers/rules.ts';
import { configureFeatures } from './services/features.ts';
import { configureForms } from './services/forms/configure.ts';
import type { JobQueue } from './jobs/queue.ts';
import { configureMissingTranslations } from './services/missing-translations.ts';
import { createPopulator } from './services/populate.ts';
import { hashPasswordData, userRules } from './services/users.ts';

export const JSON_BODY_LIMIT = '256kb';
export const SOCKET_PATH = '/api/socket.io';

export interface ApiDependencies {
  config: Config;
  knex: Knex;
  logger: Logger;
  redis: Redis | null;
}

export type Api = ExpressFeathers & { limits: LoginLimits; revocations: RevocationStore; jobs: JobQueue };

/**
 * The Feathers application: every service, authentication, channels and transports.
 * Mounted by the main server under /api; services keep plain names (`industries`).
 */
export function createApi({ config, knex, logger, redis }: ApiDependencies): Api {
  const api = express(feathers()) as unknown as Api;
  api.disable('x-powered-by');
  api.set('logger', logger);
  api.set('knex', knex);
  api.set('authentication', {
    secret: config.appSecret,
    entity: 'user',
    service: 'users',
    entityId: '_id',
    authStrategies: ['jwt', 'local'],
    jwtOptions: { header: { typ: 'access' }, audience: config.publicUrl ?? 'tillpoint', issuer: 'tillpoint', algorithm: 'HS256', expiresIn: '7d' },
    local: { usernameField: 'email', passwordField: 'password', errorMessage: 'auth.invalidLogin' },
  });
  if (config.trustProxy !== undefined) api.set('trust proxy', config.trustProxy);

  api.use(json({ limit: JSON_BODY_LIMIT }));
  api.use(urlencoded({ extended: true, limit: JSON_BODY_LIMIT }));
  // The caller's address reaches services so sign-in limits can count per address.
  api.use((req, _res, next) => {
    req.feathers = { ...req.feathers, ip: req.ip };
    next();
  });
  api.configure(rest());
  api.configure(
    socketio({ path: SOCKET_PATH, transports: ['websocket'], maxHttpBufferSize: 1e6, serveClient: false }, (io) => {
      io.use((socket, next) => {
        const trust = api.get('trust proxy fn') as TrustProxy | undefined;
        const { address, headers } = socket.handshake;
        (socket as unknown as { feathers: Record<string, unknown> }).feathers.ip = clientAddress(address, headers['x-forwarded-for'], trust);
        next();
      });
    }),
  );
  if (config.redisUrl) {
    api.configure(sync({ uri: config.redisUrl, key: `${config.redisPrefix}:events`, serialize: serializeEvent, deserialize: JSON.parse }));
  }

  const limits = createLoginLimits(redis, `${config.redisPrefix}:limit`, config.loginLimits);
  const revocations: RevocationStore = redis ? new RedisRevocationStore(redis, `${config.redisPrefix}:revoked`) : new DatabaseRevocationStore(knex);
  api.limits = limits;
  api.revocations = revocations;
  const forms = configureForms({ app: api, config, knex, logger, redis });
  api.jobs = forms.jobs;

  api.hooks({ around: { all: [localizeErrors] } });

  // What some services add to the generic entity service: a write transform and their own rules.
  const extras: Record<string, { beforeWrite?: EntityService['beforeWrite']; rules?: (context: HookContext, next: NextFunction) => Promise<void> }> = {
    users: { beforeWrite: hashPasswordData, rules: userRules(limits) },
    blogs: { beforeWrite: sanitizeBlogData, rules: blogRules },
    subscribers: { rules: subscriberRules(createLimiter(redis, `${config.redisPrefix}:limit:newsletter`, config.newsletterLimit)) },
    ...Object.fromEntries(Object.entries(forms.rules).map(([service, rules]) => [service, { rules }])),
  };
  const populator = createPopulator(api);
  for (const def of Object.values(entities)) {
    const service = new EntityService(knex, def);
    service.populator = populator;
    const extra = extras[def.service];
    service.beforeWrite = extra?.beforeWrite;
    api.use(def.service, service, { methods: ['find', 'get', 'create', 'patch', 'remove'], events: [] });
    const around = [authorize(def), cleanOutput(def), publicRecordsOnly(def)];
    if (extra?.rules) around.push(extra.rules);
    api.service(def.service).hooks({ around: { all: around } });
  }

  configureFeatures(api, knex);
  forms.start();
  // Jobs are worked from the moment the app is set up until it is torn down.
  api.hooks({
    setup: [
      async (_context: HookContext, next: NextFunction) => {
        await next();
        await forms.jobs.start();
      },
    ],
    teardown: [
      async (_context: HookContext, next: NextFunction) => {
        await forms.jobs.stop();
        await next();
      },
    ],
  });
  configureMissingTranslations(api, knex);

  const authentication = new AppAuthenticationService(api);
  authentication.revocations = revocations;
  authentication.register('jwt', new RevocableJWTStrategy(revocations));
  authentication.register('local', new PasswordStrategy(limits));
  api.use('authentication', authentication, { methods: ['create', 'remove'] });
  api.service('authentication').hooks({
    // No `authenticate` hook here: Feathers refuses it on this service; `remove` checks the token itself.
    around: { all: [sessionCookie(config)] },
  });

  configureChannels(api);
  api.use(unknownEndpoint);
  api.use(normalizeHttpError(logger));
  api.use(errorHandler({ html: false, logger: false }));
  return api;
}

export type { HookContext };
