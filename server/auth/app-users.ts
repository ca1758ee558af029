import type { AuthenticationParams, AuthenticationRequest } from '@feathersjs/authentication';
import { NotAuthenticated } from '@feathersjs/errors';
import type { Application } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Authentication } from '../../domain/entities/services.ts';
import type { Config } from '../config.ts';
import type { LoginLimits } from './limits.ts';
import type { RevocationStore } from './revocation.ts';
import { describeService } from '../openapi/registry.ts';
import {
  AppAuthenticationService,
  PasswordStrategy,
  RevocableJWTStrategy,
  SESSION_CACHE,
  signInAnswer,
  signInRequest,
} from './strategies.ts';

/*
 * The users of the company's apps sign in through an authentication service of their own
 * (`appAuthentication`, decision 053), as FeathersJS provides for a second population: its own
 * entity (`appUser`) and service (`appUsers`), and its own JWT audience. A token it signs is
 * refused by the default service's JWT strategy (the audience differs), so it opens nothing of
 * the members' and staff's; the access rules name the population (`appUser`) where it may call.
 */

/** The audience of an app user's token; members' and staff's tokens name the site. */
export const APP_AUDIENCE = 'tillpoint-apps';
export const APP_AUTHENTICATION_PATH = 'appAuthentication';
/** How long an app user stays signed in: a phone's app is not signed in every week. */
export const APP_TOKEN_LIFETIME = '30d';

/**
 * Whether a token says it is an app user's. Read without verifying, only to know which
 * authentication service verifies it: that service's own checks decide.
 */
export function isAppToken(token: unknown): boolean {
  if (typeof token !== 'string' || token.length > 4096) return false;
  const payload = token.split('.')[1];
  if (!payload) return false;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { aud?: unknown };
    return claims.aud === APP_AUDIENCE || (Array.isArray(claims.aud) && claims.aud.includes(APP_AUDIENCE));
  } catch {
    return false;
  }
}

/** Signing in with an email and password, refused while staff have disabled the account. */
class AppPasswordStrategy extends PasswordStrategy {
  /** Counted apart from a member's sign-ins: the same email in both populations is two accounts. */
  protected override limitKey(account: string): string {
    return `app:${account}`;
  }

  override async comparePassword(entity: Record<string, unknown>, password: string): Promise<Record<string, unknown>> {
    const checked = await super.comparePassword(entity, password);
    // Told only to the one who knows the password: to others an account is as good as any.
    if (checked.disabledAt) throw new NotAuthenticated('auth.accountDisabled');
    return checked;
  }
}

/** The app users' sign-in: the same answers and sign-out as the members', and the time of each sign-in kept. */
class AppUsersAuthenticationService extends AppAuthenticationService {
  knex: Knex | undefined;

  override async create(data: AuthenticationRequest, params?: AuthenticationParams): Promise<Authentication> {
    const result = await super.create(data, params);
    const appUser = (result as { appUser?: { _id?: unknown } }).appUser;
    if (this.knex && data.strategy === 'local' && typeof appUser?._id === 'string') {
      await this.knex('app_users').where('id', appUser._id).update({ last_sign_in_at: new Date() });
    }
    return result;
  }
}

export interface AppAuthenticationDependencies {
  config: Config;
  knex: Knex;
  limits: LoginLimits;
  revocations: RevocationStore;
  eventsMayBeMissed: () => boolean;
}

/** The reference's word on `appAuthentication` (decision 058): the apps' users' sessions. */
export const appAuthenticationDescription = describeService(APP_AUTHENTICATION_PATH, {
  summary: 'Signing in and out: users of the company’s apps',
  description:
    'The same as `authentication` for the apps’ own population: its tokens (audience `tillpoint-apps`) open only what ' +
    'app users may call, and a members’ token is refused here (decision 053).',
  access: { find: 'none', get: 'none', create: 'public', patch: 'none', remove: ['appUser'] },
  withoutId: ['remove'],
  methods: {
    create: {
      summary: 'Sign in',
      request: signInRequest(['local', 'jwt']),
      answer: signInAnswer('appUser', 'appUsers'),
    },
    remove: { summary: 'Sign out (revoke the token)', answer: signInAnswer('appUser', 'appUsers') },
  },
});

/** Registers `appAuthentication` (after the default `authentication`, which stays the default). */
export function configureAppAuthentication(
  api: Application,
  { config, knex, limits, revocations, eventsMayBeMissed }: AppAuthenticationDependencies,
): AppAuthenticationService {
  api.set(APP_AUTHENTICATION_PATH, {
    secret: config.appSecret,
    entity: 'appUser',
    service: 'appUsers',
    entityId: '_id',
    authStrategies: ['jwt', 'local'],
    jwtOptions: {
      header: { typ: 'access' },
      audience: APP_AUDIENCE,
      issuer: 'tillpoint',
      algorithm: 'HS256',
      expiresIn: APP_TOKEN_LIFETIME,
    },
    local: { usernameField: 'email', passwordField: 'password', errorMessage: 'auth.invalidLogin' },
  });
  const service = new AppUsersAuthenticationService(api, APP_AUTHENTICATION_PATH);
  service.knex = knex;
  service.revocations = revocations;
  service.register('jwt', new RevocableJWTStrategy(revocations, SESSION_CACHE, { eventsMayBeMissed }));
  service.register('local', new AppPasswordStrategy(limits));
  return service;
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../services/types.ts' {
  interface ServerServices {
    appAuthentication: AppAuthenticationService;
  }
}
