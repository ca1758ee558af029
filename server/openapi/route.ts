import { createHash } from 'node:crypto';
import { NotAuthenticated } from '@feathersjs/errors';
import feathersModule from '@feathersjs/feathers';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Caller } from '../../domain/admin/access.ts';
import { sessionToken } from '../../domain/session-cookie.ts';
import { APP_AUTHENTICATION_PATH, isAppToken } from '../auth/app-users.ts';
import { openApiDocument, serviceSources, type OpenApiDocument } from './document.ts';

// The package is CommonJS: its helpers are read from the default export.
const { getServiceOptions } = feathersModule;

interface Authenticator {
  authenticate(data: unknown, params: unknown, ...strategies: string[]): Promise<Record<string, unknown>>;
}

interface ReferenceApp {
  services: object;
  defaultAuthentication?: () => Authenticator | undefined;
  service(path: string): unknown;
}

/** A document as served: its text and its entity tag. */
interface Served {
  body: string;
  etag: string;
}

/** The methods a registered service offers to outside callers. */
export function methodsOf(service: unknown): readonly string[] {
  return getServiceOptions(service)?.methods ?? [];
}

/** Every registered service, with its methods: what the document is written from. */
export function sourcesOf(app: Pick<ReferenceApp, 'services'>) {
  return serviceSources(app.services, methodsOf);
}

const bearerOf = (req: Request): string | undefined => {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
};

/**
 * Who reads the document, as any service reads its caller: no token is a visitor; a token is
 * verified by the authentication service of its population (a refused one is a 401, as elsewhere).
 * Without a token, the site's session cookie is read as the pages read it (the reference page's
 * renderer asks for the reader's document with it): one that no longer verifies is a visitor's.
 */
async function readerOf(app: ReferenceApp, req: Request, secureCookies: boolean): Promise<Caller> {
  const accessToken = bearerOf(req);
  if (accessToken) return callerOf(app, req, accessToken);
  const session = sessionToken(req.headers.cookie, secureCookies);
  if (!session || isAppToken(session)) return 'anonymous';
  return callerOf(app, req, session).catch(() => 'anonymous' as const);
}

async function callerOf(app: ReferenceApp, req: Request, accessToken: string): Promise<Caller> {
  const params = { provider: 'rest', headers: req.headers };
  const data = { strategy: 'jwt', accessToken };
  if (isAppToken(accessToken)) {
    const appAuthentication = app.service(APP_AUTHENTICATION_PATH) as Authenticator;
    await appAuthentication.authenticate(data, params, 'jwt');
    return 'appUser';
  }
  const authentication = app.defaultAuthentication?.();
  if (!authentication) throw new NotAuthenticated('auth.notAuthenticated');
  const result = await authentication.authenticate(data, params, 'jwt');
  const role = (result.user as { role?: unknown } | undefined)?.role;
  if (role === 'member' || role === 'editor' || role === 'admin') return role;
  throw new NotAuthenticated('auth.notAuthenticated');
}

/**
 * `GET /openapi.json` (under /api, decision 058): the API's reference for the caller, written once
 * per role from the registered services and kept; an `ETag` lets a client keep its copy. The
 * reference page's renderer reads it here too, so the page itself does not carry it.
 */
export function openApiRoute(app: ReferenceApp, options: { version: string; secureCookies: boolean }): express.Router {
  const router = express.Router();
  const written = new Map<Caller, Served>();
  const documentFor = (caller: Caller): Served => {
    const known = written.get(caller);
    if (known) return known;
    const body = JSON.stringify(openApiDocument(sourcesOf(app), caller, { version: options.version }));
    const served = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    written.set(caller, served);
    return served;
  };
  router.get('/openapi.json', (req: Request, res: Response, next: NextFunction) => {
    (async () => {
      const caller = await readerOf(app, req, options.secureCookies);
      const { body, etag } = documentFor(caller);
      res.setHeader('ETag', etag);
      res.setHeader('Vary', 'Authorization, Cookie');
      // Kept and checked again before each use: a staff member's copy stays in their own cache.
      res.setHeader('Cache-Control', caller === 'anonymous' ? 'public, no-cache' : 'private, no-cache');
      if (req.headers['if-none-match'] === etag) {
        res.status(304).end();
        return;
      }
      res.type('application/json').send(body);
    })().catch(next);
  });
  return router;
}

export type { OpenApiDocument };
