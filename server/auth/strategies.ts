import {
  AuthenticationService,
  JWTStrategy,
  type AuthenticationParams,
  type AuthenticationRequest,
  type AuthenticationResult,
  type ConnectionEvent,
} from '@feathersjs/authentication';
import { LocalStrategy } from '@feathersjs/authentication-local';
import { BadRequest, NotAuthenticated, NotFound, TooManyRequests } from '@feathersjs/errors';
import type { FeathersService, HookContext, Params, RealTimeConnection } from '@feathersjs/feathers';
import type { Authentication } from '../../domain/entities/services.ts';
import type { EntityDef } from '../../domain/entities/types.ts';
import { hiddenFields, stripResult } from '../hooks/clean-output.ts';
import { describeService } from '../openapi/registry.ts';
import { callerAddressKey } from './address.ts';
import { ExpiringCache } from './expiring-cache.ts';
import { dummyHash, hashPassword, verifyPassword } from './passwords.ts';
import { admitSignIn, type LoginLimits } from './limits.ts';
import type { RevocationStore } from './revocation.ts';

/**
 * Email and password sign-in. Closes what the stock strategy leaves open: non-string input
 * (a 400, never a query operator), the timing difference for unknown accounts, and brute force.
 */
export class PasswordStrategy extends LocalStrategy {
  private readonly limits: LoginLimits;

  constructor(limits: LoginLimits) {
    super();
    this.limits = limits;
  }

  /** The account as sign-in limits count it. */
  protected limitKey(account: string): string {
    return account;
  }

  override async hashPassword(password: string): Promise<string> {
    return hashPassword(password);
  }

  override async comparePassword(entity: Record<string, unknown>, password: string): Promise<Record<string, unknown>> {
    // An unknown email is checked against a dummy hash, so it costs as much time as a known one.
    const hash = typeof entity.password === 'string' ? entity.password : await dummyHash();
    const ok = await verifyPassword(hash, password);
    if (!ok || typeof entity.password !== 'string') throw new NotAuthenticated('auth.invalidLogin');
    return entity;
  }

  override async authenticate(data: AuthenticationRequest, params: Params) {
    const { email, password } = data as { email?: unknown; password?: unknown };
    // Only plain strings reach the user lookup: an object here would be a query operator.
    const problem = (value: unknown, max: number) =>
      typeof value !== 'string'
        ? value === undefined || value === null
          ? 'validation.required'
          : 'validation.invalid'
        : value.length > max
          ? 'validation.tooBig'
          : null;
    const errors = Object.fromEntries(
      Object.entries({ email: problem(email, 254), password: problem(password, 200) }).filter(
        ([, message]) => message !== null,
      ),
    );
    if (typeof email !== 'string' || typeof password !== 'string' || Object.keys(errors).length > 0) {
      throw new BadRequest('validation.failed', { errors });
    }
    const account = email.trim().toLowerCase();
    // Counted per account and address, so a stranger's failures do not lock the owner out (limits.ts).
    const attempt = await admitSignIn(this.limits, this.limitKey(account), callerAddressKey(params));
    if ('retryAfter' in attempt) throw new TooManyRequests('auth.tooManyAttempts', { retryAfter: attempt.retryAfter });

    const { provider, ...internal } = params;
    const found = await this.entityService.find({ ...internal, paginate: false, query: { email: account, $limit: 1 } });
    const entity = (Array.isArray(found) ? found[0] : found.data[0]) as Record<string, unknown> | undefined;
    await this.comparePassword(entity ?? {}, password);
    await attempt.succeeded();
    // Under the population's own name (`user`, or `appUser` for `appAuthentication`): the token's
    // subject and session version are read from there, and the channels tell the two apart by it.
    const { entity: name } = this.configuration as { entity: string };
    return {
      authentication: { strategy: this.name ?? 'local' },
      [name]: await this.getEntity(entity as Record<string, unknown>, { ...params, provider }),
    };
  }
}

/**
 * False when the account's sessions were ended after this token was signed (a password change,
 * "sign out everywhere"): its session version is not the account's, and it is not the one kept.
 */
export function isCurrentSession(
  payload: { jti?: unknown; sv?: unknown },
  user: { sessionVersion?: unknown; sessionKept?: unknown } | undefined,
): boolean {
  if (!user) return true;
  const version = typeof user.sessionVersion === 'string' ? user.sessionVersion : null;
  const signedFor = typeof payload.sv === 'string' ? payload.sv : null;
  return version === signedFor || (typeof user.sessionKept === 'string' && payload.jti === user.sessionKept);
}

/** How long, and for how many tokens, a verified token and its user are reused. */
export const SESSION_CACHE = { ttlMs: 5_000, maxEntries: 1_000 };
/**
 * How long they are reused while events of other instances may be missed (Redis away, see
 * `RevocableJWTStrategy`): a password change on another instance is then refused here within a
 * second as a client measures it (0.8 s measured 0.83 s), the round trips of its requests included.
 */
export const FALLBACK_SESSION_MS = 500;

type JwtPayload = { jti?: string; exp?: number; sub?: string } & Record<string, unknown>;
type SessionUser = Record<string, unknown> & { _id?: unknown; sessionVersion?: unknown; sessionKept?: unknown };

interface Session {
  payload: JwtPayload;
  user: SessionUser | undefined;
  /** When the token and its user were verified. */
  at: number;
}

/** What Feathers and the channels keep on a realtime connection about its sign-in. */
export interface SignedInConnection {
  authentication?: { strategy?: string; accessToken?: string };
  user?: SessionUser;
}

/**
 * Access tokens, with the revocation list checked on every call.
 *
 * Outside calls (REST, pages) send their token each time. Verifying it and loading its user is
 * done once and reused for a few seconds (`SESSION_CACHE`, bounded in size, never past the token's
 * expiry); the revocation list is still asked every time, so a sign-out takes effect at once. A
 * change to the user (patch, removal) forgets that user's entries before the change is answered on
 * this instance, and when the event arrives on the others. While other instances' events may be
 * missed (`eventsMayBeMissed`: Redis away), a session verified over `FALLBACK_SESSION_MS` ago is
 * verified again: a change to the account on another instance (a password change ending its
 * sessions) is then seen here within a second, from the database.
 *
 * A socket signs in once; its later calls use the user its connection holds (see
 * `connectionSession`).
 */
export class RevocableJWTStrategy extends JWTStrategy {
  private readonly revocations: RevocationStore;
  private readonly sessions: ExpiringCache<Session>;
  /** The token each connection signed in with, as this strategy verified it. */
  private readonly connectionTokens = new WeakMap<
    object,
    { accessToken: string; jti: string; exp: number; sessionVersion: unknown; verifiedAt: number; generation: number }
  >();
  /** Changes whenever a user is forgotten, so a lookup that overlapped the change is not kept. */
  private userGeneration = 0;
  private readonly eventsMayBeMissed: () => boolean;

  constructor(
    revocations: RevocationStore,
    cache: { ttlMs: number; maxEntries: number } = SESSION_CACHE,
    options: { eventsMayBeMissed?: () => boolean } = {},
  ) {
    super();
    this.revocations = revocations;
    this.sessions = new ExpiringCache(cache);
    this.eventsMayBeMissed = options.eventsMayBeMissed ?? (() => false);
  }

  /** How long a verified session is trusted now. */
  private trustMs(): number {
    return this.eventsMayBeMissed() ? Math.min(FALLBACK_SESSION_MS, this.sessions.ttlMs) : this.sessions.ttlMs;
  }

  async setup(): Promise<void> {
    const service = this.entityService as unknown as FeathersService | null;
    if (!service) return;
    const forget = (record: unknown) => this.forgetUser((record as SessionUser | null)?._id);
    // On this instance before the change is answered, and on the others when its event arrives.
    const afterChange = (context: Pick<HookContext, 'id' | 'result'>) => {
      forget(context.result);
      if (context.id !== undefined && context.id !== null) forget({ _id: context.id });
    };
    service.hooks({ after: { patch: [afterChange], remove: [afterChange] } });
    service.on('patched', forget);
    service.on('removed', forget);
  }

  /** Forgets the cached sessions of one user (after a change to the account). */
  forgetUser(id: unknown): void {
    if (id === undefined || id === null) return;
    this.userGeneration += 1;
    const key = String(id);
    this.sessions.deleteWhere((session) => String(session.user?._id ?? session.payload.sub) === key);
  }

  /** Forgets a token's cached session (after it was signed out). */
  forgetToken(accessToken: string): void {
    this.sessions.delete(accessToken);
  }

  private async ensureNotRevoked(payload: JwtPayload, user: SessionUser | undefined): Promise<void> {
    const { jti } = payload;
    if (
      typeof jti !== 'string' ||
      !jti ||
      !isCurrentSession(payload, user) ||
      (await this.revocations.isRevoked(jti))
    ) {
      throw new NotAuthenticated('auth.sessionEnded');
    }
  }

  override async authenticate(authentication: AuthenticationRequest, params: AuthenticationParams) {
    const { accessToken } = authentication as { accessToken?: unknown };
    // In-process calls, and calls with their own verification options, take the plain way.
    const cacheable = typeof accessToken === 'string' && Boolean(params.provider) && params.jwt === undefined;
    const now = Date.now();
    const kept = cacheable ? this.sessions.get(accessToken, now) : undefined;
    const cached = kept && now - kept.at < this.trustMs() ? kept : undefined;
    let session: Session;
    if (cached) {
      session = cached;
    } else {
      const generation = this.userGeneration;
      const result = await super.authenticate(authentication, params);
      const { entity } = this.configuration as { entity: string };
      session = {
        payload: result.authentication.payload as JwtPayload,
        user: (result as AuthenticationResult)[entity] as SessionUser | undefined,
        at: now,
      };
      await this.ensureNotRevoked(session.payload, session.user);
      if (cacheable && generation === this.userGeneration) {
        const exp = typeof session.payload.exp === 'number' ? session.payload.exp * 1000 : Number.POSITIVE_INFINITY;
        this.sessions.set(accessToken, session, exp);
      }
      return result;
    }
    await this.ensureNotRevoked(session.payload, session.user);
    const { entity } = this.configuration as { entity: string };
    return {
      accessToken,
      authentication: { strategy: this.name ?? 'jwt', accessToken, payload: session.payload },
      [entity]: session.user ? { ...session.user } : session.user,
    };
  }

  /**
   * One lookup of the user, with what the users service hides from outside callers removed. The
   * stock strategy loads the user twice (once inside, once as an outside call to apply the
   * service's output rules); the users' rules let a signed-in user read their own record, so
   * only the hiding of secret fields is left to do.
   */
  override async getEntity(id: string, params: Params) {
    const service = this.entityService as unknown as {
      def?: EntityDef;
      get(id: string, params: Params): Promise<unknown>;
    } | null;
    const def = service?.def;
    if (!service || !def) return super.getEntity(id, params);
    const { provider, ...internal } = params;
    const entity = await service
      .get(id, { ...internal, query: await this.getEntityQuery(params) })
      .catch((error: unknown) => {
        // A valid token whose account is gone ends the session like a revoked one.
        throw error instanceof NotFound ? new NotAuthenticated('auth.sessionEnded') : error;
      });
    return provider ? stripResult(entity, hiddenFields(def)) : entity;
  }

  override async handleConnection(
    event: ConnectionEvent,
    connection: RealTimeConnection,
    authResult?: AuthenticationResult,
  ) {
    await super.handleConnection(event, connection, authResult);
    const payload = (authResult?.authentication as { payload?: JwtPayload } | undefined)?.payload;
    if (
      event === 'login' &&
      typeof authResult?.accessToken === 'string' &&
      typeof payload?.jti === 'string' &&
      typeof payload.exp === 'number'
    ) {
      this.connectionTokens.set(connection, {
        accessToken: authResult.accessToken,
        jti: payload.jti,
        exp: payload.exp,
        sessionVersion: payload.sv,
        verifiedAt: Date.now(),
        generation: this.userGeneration,
      });
    } else if (event === 'disconnect' || (event === 'logout' && !(connection as SignedInConnection).authentication)) {
      this.connectionTokens.delete(connection);
    }
  }

  /**
   * The caller of a realtime connection's call. The connection signed in once, with a token this
   * strategy verified, and is kept current since (channels.ts: a sign-out here or elsewhere, the
   * token's expiry and the account's removal sign it out; a role change updates its user). Its user
   * is trusted as it stands, with the revocation list asked on every call, for as long as a cached
   * session would be; then, or as soon as any account changed on this instance, the token and
   * its user are checked again (through the session cache). A missed event therefore never
   * outlives `SESSION_CACHE.ttlMs`. Answers null when the connection holds no sign-in made here.
   */
  async connectionSession(
    connection: SignedInConnection,
    params: AuthenticationParams,
  ): Promise<{
    authentication: NonNullable<SignedInConnection['authentication']> & { payload: JwtPayload };
    user: SessionUser;
  } | null> {
    const known = this.connectionTokens.get(connection);
    const { entity } = this.configuration as { entity: string };
    const { authentication } = connection;
    // The connection's account, under its population's name (`user`, or `appUser`: decision 053).
    const user = (connection as Record<string, unknown>)[entity] as SessionUser | undefined;
    if (!known || !user || !authentication || authentication.accessToken !== known.accessToken) return null;
    const now = Date.now();
    if (known.exp * 1000 <= now) throw new NotAuthenticated('auth.sessionEnded');
    if (now - known.verifiedAt < this.trustMs() && known.generation === this.userGeneration) {
      await this.ensureNotRevoked({ jti: known.jti, sv: known.sessionVersion }, user);
      return { authentication: { ...authentication, payload: { jti: known.jti, sv: known.sessionVersion } }, user };
    }
    const generation = this.userGeneration;
    const result = await this.authenticate(
      { strategy: this.name ?? 'jwt', accessToken: known.accessToken },
      { ...params, authenticated: true },
    );
    const fresh = (result as AuthenticationResult)[entity] as SessionUser | undefined;
    if (!fresh) throw new NotAuthenticated('auth.sessionEnded');
    // The connection's user is trusted again once it matches the account; until the channels have
    // caught up with a change, each call uses the account as it is now.
    if (String(fresh._id) === String(user._id) && fresh.role === user.role) {
      known.verifiedAt = now;
      known.generation = generation;
    }
    return {
      authentication: { ...authentication, payload: { jti: known.jti, sv: known.sessionVersion } },
      user: fresh,
    };
  }
}

/**
 * Feathers types an authentication result as `{ [key: string]: any }`. Ours always holds the
 * token, how it was made (strategy, token, payload) and the account, its secrets removed for an
 * outside caller (`getEntity` above): `Authentication` in the service map. The one cast of the
 * authentication wiring, from Feathers' loose type to that shape.
 */
function asAuthentication(result: AuthenticationResult): Authentication {
  return result as Authentication;
}

/** A sign-in's request as the reference shows it: a password, a session's token, or a page's one-time ticket. */
export function signInRequest(strategies: readonly ('local' | 'jwt' | 'ticket')[]) {
  const shapes = {
    local: {
      type: 'object',
      required: ['strategy', 'email', 'password'],
      properties: {
        strategy: { const: 'local' },
        email: { type: 'string', format: 'email' },
        password: { type: 'string' },
      },
    },
    jwt: {
      type: 'object',
      required: ['strategy', 'accessToken'],
      properties: { strategy: { const: 'jwt' }, accessToken: { type: 'string' } },
    },
    ticket: {
      type: 'object',
      required: ['strategy', 'ticket'],
      properties: { strategy: { const: 'ticket' }, ticket: { type: 'string' } },
    },
  };
  return { oneOf: strategies.map((strategy) => shapes[strategy]) };
}

/** A sign-in's answer: the token, how it was made, and the account (`entity`: `users` or `appUsers`). */
export function signInAnswer(key: 'user' | 'appUser', entity: 'users' | 'appUsers') {
  return {
    type: 'object',
    required: ['accessToken', 'authentication', key],
    properties: {
      accessToken: { type: 'string' },
      authentication: { type: 'object', properties: { strategy: { type: 'string' } } },
      [key]: { entity },
    },
  };
}

/** The reference's word on `authentication` (decision 058): members' and staff's sessions. */
export const authenticationDescription = describeService('authentication', {
  summary: 'Signing in and out: members and staff',
  description:
    'Sign in with an email and password (`local`), or check a token (`jwt`); the answer’s `accessToken` goes in ' +
    '`Authorization: Bearer …` on later calls, or in a socket’s own `create`. `DELETE /api/authentication` with the ' +
    'token revokes it. Limited per address and account (429, with `Retry-After`).',
  access: { find: 'none', get: 'none', create: 'public', patch: 'none', remove: 'authenticated' },
  withoutId: ['remove'],
  methods: {
    create: {
      summary: 'Sign in',
      request: signInRequest(['local', 'jwt', 'ticket']),
      answer: signInAnswer('user', 'users'),
    },
    remove: { summary: 'Sign out (revoke the token)', answer: signInAnswer('user', 'users') },
  },
});

export class AppAuthenticationService extends AuthenticationService {
  revocations: RevocationStore | undefined;

  /**
   * A sign-in answers the token, how it was made, and the account (`Authentication`, as the
   * service map declares it) rather than Feathers' untyped `{ [key: string]: any }`.
   */
  override async create(data: AuthenticationRequest, params?: AuthenticationParams): Promise<Authentication> {
    return asAuthentication(await super.create(data, params));
  }

  /** A new token carries its account's session version, so ending the sessions ends it too. */
  override async getPayload(authResult: AuthenticationResult, params: AuthenticationParams) {
    const payload = await super.getPayload(authResult, params);
    const { entity } = this.configuration as { entity: string };
    const version = (authResult[entity] as { sessionVersion?: unknown } | undefined)?.sessionVersion;
    return typeof version === 'string' ? { ...payload, sv: version } : payload;
  }

  /**
   * Signing out verifies the caller's own access token and revokes it, so a copy of it is useless
   * afterwards. Replaces the stock `remove`, which crashes on a missing token and revokes nothing.
   */
  override async remove(id: string | null, params: AuthenticationParams): Promise<Authentication> {
    const authentication = params.authentication as { strategy?: string; accessToken?: string } | undefined;
    if (!authentication?.accessToken || (id !== null && id !== authentication.accessToken)) {
      throw new NotAuthenticated('auth.notAuthenticated');
    }
    const result = await this.authenticate({ ...authentication, strategy: 'jwt' }, params, 'jwt');
    const payload = (result.authentication as { payload?: { jti?: string; exp?: number } } | undefined)?.payload;
    if (payload?.jti && this.revocations) {
      await this.revocations.revoke(payload.jti, new Date((payload.exp ?? Date.now() / 1000 + 86_400) * 1000));
    }
    const jwt = this.getStrategy('jwt');
    if (jwt instanceof RevocableJWTStrategy) jwt.forgetToken(authentication.accessToken);
    return asAuthentication(result);
  }
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../services/types.ts' {
  interface ServerServices {
    authentication: AppAuthenticationService;
  }
}
