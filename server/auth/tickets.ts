import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import {
  AuthenticationBaseStrategy,
  type AuthenticationParams,
  type AuthenticationRequest,
} from '@feathersjs/authentication';
import { Forbidden, MethodNotAllowed, NotAuthenticated } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import { setDispatch } from '@feathersjs/schema';
import express, { type NextFunction as ExpressNext, type Request, type Response } from 'express';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { isHttpsSite, sessionToken } from '../../domain/session-cookie.ts';
import type { Config } from '../config.ts';
import { fromOwnSite } from './cookie.ts';

/**
 * Socket tickets (decision 027): a portal page signs its live connection in without ever holding
 * the session token. The page asks `POST /api/socketTickets` with its session cookie and gets a
 * random ticket that lasts `TICKET_TTL_SECONDS`; the socket redeems it once with
 * `{ strategy: 'ticket', ticket }` and is then signed in with the cookie's session itself, so
 * sign-out, revocation and "sign out everywhere" apply to it as to any socket signed in with a JWT.
 *
 * The store keeps the ticket's SHA-256 only, beside the session token sealed with a key derived
 * from the ticket (AES-256-GCM): whoever reads the store (Redis, the table, a backup) learns
 * neither the ticket nor the token.
 */

export const TICKET_TTL_SECONDS = 60;
export const TICKET_STRATEGY = 'ticket';
/** 32 random bytes, base64url. */
const TICKET_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export interface TicketStore {
  /** Keeps a sealed token under a ticket's hash until it expires. */
  put(hash: string, sealed: string, expiresAt: Date): Promise<void>;
  /** Takes the sealed token of a ticket out of the store (at most once); null when unknown or expired. */
  take(hash: string): Promise<string | null>;
}

const hashOf = (ticket: string) => createHash('sha256').update(`ticket:${ticket}`).digest('hex');
const keyOf = (ticket: string) => createHash('sha256').update(`seal:${ticket}`).digest();

function seal(ticket: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(ticket), iv);
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

function unseal(ticket: string, sealed: string): string | null {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(ticket), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Issues a ticket for a session token (already verified by the caller). */
export async function issueTicket(store: TicketStore, accessToken: string, now = Date.now()): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await store.put(hashOf(ticket), seal(ticket, accessToken), new Date(now + TICKET_TTL_SECONDS * 1000));
  return ticket;
}

/** The session token a ticket stands for, taking the ticket out of the store; null when it is not (or no longer) valid. */
export async function redeemTicket(store: TicketStore, ticket: unknown): Promise<string | null> {
  if (typeof ticket !== 'string' || !TICKET_FORMAT.test(ticket)) return null;
  const sealed = await store.take(hashOf(ticket));
  return sealed ? unseal(ticket, sealed) : null;
}

/** Tickets in the `socket_tickets` table: shared by every instance on the database. */
export class DatabaseTicketStore implements TicketStore {
  private readonly knex: Knex;
  constructor(knex: Knex) {
    this.knex = knex;
  }

  async put(hash: string, sealed: string, expiresAt: Date): Promise<void> {
    await this.knex('socket_tickets').insert({ hash, sealed, expires_at: expiresAt });
    // Old tickets are dropped now and then instead of by a separate job.
    if (Math.random() < 0.05) await this.knex('socket_tickets').where('expires_at', '<', new Date()).delete();
  }

  async take(hash: string): Promise<string | null> {
    // One statement: of two redemptions at once, only one gets the row.
    const rows = (await this.knex('socket_tickets').where({ hash }).delete().returning(['sealed', 'expires_at'])) as {
      sealed: string;
      expires_at: Date | string;
    }[];
    const row = rows[0];
    if (!row || new Date(row.expires_at).getTime() <= Date.now()) return null;
    return row.sealed;
  }
}

/** Tickets in Redis, expiring on their own; `GETDEL` makes each one usable once. */
export class RedisTicketStore implements TicketStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  constructor(redis: Redis, prefix = 'ticket') {
    this.redis = redis;
    this.prefix = prefix;
  }

  async put(hash: string, sealed: string, expiresAt: Date): Promise<void> {
    const ms = Math.max(1, expiresAt.getTime() - Date.now());
    await this.redis.set(`${this.prefix}:${hash}`, sealed, 'PX', ms);
  }

  async take(hash: string): Promise<string | null> {
    return this.redis.getdel(`${this.prefix}:${hash}`);
  }
}

/**
 * Several instances (decision 032): tickets in Redis, and in the table whenever Redis fails to
 * take one (away, or too slow), so a page still gets its live connection. Redemption asks Redis
 * first and the table after it, which finds a ticket issued on any instance while Redis was away.
 */
export class FallbackTicketStore implements TicketStore {
  private readonly redis: TicketStore;
  private readonly database: TicketStore;
  private readonly onError: (error: unknown) => void;
  constructor(redis: TicketStore, database: TicketStore, onError: (error: unknown) => void = () => undefined) {
    this.redis = redis;
    this.database = database;
    this.onError = onError;
  }

  async put(hash: string, sealed: string, expiresAt: Date): Promise<void> {
    try {
      await this.redis.put(hash, sealed, expiresAt);
    } catch (error) {
      this.onError(error);
      await this.database.put(hash, sealed, expiresAt);
    }
  }

  async take(hash: string): Promise<string | null> {
    try {
      const sealed = await this.redis.take(hash);
      if (sealed) return sealed;
    } catch (error) {
      this.onError(error);
    }
    return this.database.take(hash);
  }
}

interface JwtStrategyLike {
  authenticate(authentication: AuthenticationRequest, params: AuthenticationParams): Promise<Record<string, unknown>>;
}

/**
 * `{ strategy: 'ticket', ticket }`, over socket.io only: redeems the ticket and signs the
 * connection in with the session it was issued for, checked as the JWT strategy checks any token
 * (signature, expiry, revocation, the account's session version). The result carries the token so
 * the connection is set up exactly as a JWT sign-in; `hideTicketSession` removes it from what the
 * socket is answered.
 */
export class TicketStrategy extends AuthenticationBaseStrategy {
  private readonly store: TicketStore;
  constructor(store: TicketStore) {
    super();
    this.store = store;
  }

  async authenticate(data: AuthenticationRequest, params: AuthenticationParams) {
    if (params.provider !== 'socketio') throw new NotAuthenticated('auth.notAuthenticated');
    const accessToken = await redeemTicket(this.store, (data as { ticket?: unknown }).ticket);
    if (!accessToken) throw new NotAuthenticated('auth.sessionEnded');
    const jwt = this.authentication?.getStrategy('jwt') as JwtStrategyLike | undefined;
    if (!jwt) throw new NotAuthenticated('auth.notAuthenticated');
    return jwt.authenticate({ strategy: 'jwt', accessToken }, params);
  }
}

/**
 * Around the authentication service: a ticket sign-in answers the account and how it signed in,
 * never the session token. The result itself keeps the token, since the service's own hooks (which
 * run outside this one) sign the connection in and announce the login with it; what is sent back
 * is the result's dispatch, which the service's `resolveDispatch` takes from here.
 */
export async function hideTicketSession(context: HookContext, next: NextFunction): Promise<void> {
  await next();
  const strategy = (context.data as { strategy?: unknown } | undefined)?.strategy;
  if (
    context.method !== 'create' ||
    strategy !== TICKET_STRATEGY ||
    !context.result ||
    typeof context.result !== 'object'
  )
    return;
  const {
    accessToken: _token,
    authentication,
    ...rest
  } = context.result as { accessToken?: string; authentication?: { payload?: { exp?: unknown } } };
  const exp = authentication?.payload?.exp;
  const answer = {
    ...rest,
    authentication: {
      strategy: TICKET_STRATEGY,
      ...(typeof exp === 'number' ? { expiresAt: new Date(exp * 1000).toISOString() } : {}),
    },
  };
  setDispatch(context.result, answer);
  context.dispatch = answer;
}

interface AuthApp {
  defaultAuthentication?: () => {
    authenticate(data: AuthenticationRequest, params: AuthenticationParams, ...strategies: string[]): Promise<unknown>;
  } | null;
}

/**
 * `POST /socketTickets` (under /api): a page of this site, with its session cookie, gets a ticket
 * for its live connection. Refused to any other site (Origin, else Sec-Fetch-Site), to a caller
 * without a valid session, and never cached.
 */
export function socketTicketRoute(app: AuthApp, config: Config, store: TicketStore): express.Router {
  const router = express.Router();
  const secure = isHttpsSite(config.publicUrl);
  router.all('/socketTickets', (req: Request, res: Response, next: ExpressNext) => {
    res.setHeader('Cache-Control', 'no-store');
    (async () => {
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        throw new MethodNotAllowed('errors.noEndpoint');
      }
      if (!fromOwnSite(req.headers, config.publicUrl)) throw new Forbidden('auth.forbidden');
      const token = sessionToken(req.headers.cookie, secure);
      const authentication = app.defaultAuthentication?.();
      if (!token || !authentication) throw new NotAuthenticated('auth.notAuthenticated');
      await authentication.authenticate(
        { strategy: 'jwt', accessToken: token },
        { provider: 'rest', headers: req.headers },
        'jwt',
      );
      const ticket = await issueTicket(store, token);
      res.status(201).json({ ticket, expiresIn: TICKET_TTL_SECONDS });
    })().catch(next);
  });
  return router;
}
