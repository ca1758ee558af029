import type { Logger } from 'pino';
import { graphImportAvailable } from './services/facebook/source.ts';
import { createRequestHandler } from '@react-router/express';
import type { Request, RequestHandler, Response } from 'express';
import {
  createRequestHandler as createFetchHandler,
  type RouterContext,
  RouterContextProvider,
  type ServerBuild,
} from 'react-router';
import type { ServerContext, SessionUser } from '../domain/page-context.ts';
import type { ServiceMap, SessionAuthentication } from '../domain/entities/services.ts';
import { isHttpsSite, sessionToken } from '../domain/session-cookie.ts';
import type { Api } from './app.ts';
import { cachedPages, invalidateOnCatalogueChanges } from './cached-pages.ts';
import type { Config } from './config.ts';
import type { PageCache } from './page-cache.ts';
import { pageServices } from './page-services.ts';
import { createGateway } from './payments/index.ts';

/** The page build's server entry, which hands over its own context key (app/entry.server.tsx). */
type ServerEntry = ServerBuild['entry']['module'] & { serverContext?: RouterContext<ServerContext> };

interface Session {
  user: SessionUser | null;
  accessToken: string | null;
  authentication: SessionAuthentication | null;
}

export interface PageHandlerOptions {
  build: ServerBuild;
  api: Api;
  config: Config;
  mode?: 'production' | 'development';
  /** Anonymous public pages from this cache (production); without it every page renders fresh. */
  cache?: PageCache;
}

/** The React Router handler, with the signed-in user (from the session cookie) and the API in context. */
export async function createPageHandler({
  build,
  api,
  config,
  mode = 'production',
  cache,
}: PageHandlerOptions): Promise<RequestHandler> {
  // The build's own instance of the key: the one its loaders read (a copy imported here would be another).
  const entry: ServerEntry = build.entry.module;
  const key = entry.serverContext;
  if (!key) throw new Error('The page build does not export serverContext from its server entry');
  // Pages reach the services through their types only; the database away is a 503 page (page-services.ts).
  const services: ServiceMap = pageServices(api);
  const logger: Logger = api.get('logger');

  const secureCookies = isHttpsSite(config.publicUrl);
  const sessionUser = async (req: Request): Promise<Session> => {
    const token = sessionToken(req.headers.cookie, secureCookies);
    if (!token) return { user: null, accessToken: null, authentication: null };
    try {
      const result = await services
        .service('authentication')
        .create({ strategy: 'jwt', accessToken: token }, { provider: 'ssr', headers: req.headers });
      const jti = result.authentication.payload?.jti;
      return {
        user: result.user,
        accessToken: token,
        authentication: { strategy: 'jwt', accessToken: token, payload: typeof jti === 'string' ? { jti } : {} },
      };
    } catch {
      return { user: null, accessToken: null, authentication: null };
    }
  };

  const loadContext = (req: Request, res: Response, session: Session) => {
    const context = new RouterContextProvider();
    context.set(key, {
      api: services,
      user: session.user,
      accessToken: session.accessToken,
      authentication: session.authentication,
      nonce: res.locals.cspNonce as string,
      ip: req.ip,
      headers: req.headers,
      secureCookies,
      site: config.site,
      // Read per request: the sandbox's origin is known once its server listens.
      payments: createGateway(config, api.get('knex'), api.get('logger')).clientConfig(),
      development: config.env === 'development',
      facebookPage: graphImportAvailable(config.facebook),
      // The process's logger (with `redact`), not the access log's: a page's errors may hold anything.
      log: logger.child({ req: { id: req.id } }),
    });
    return context;
  };

  const fresh = createRequestHandler({
    build,
    mode,
    getLoadContext: async (req: Request, res: Response) => loadContext(req, res, await sessionUser(req)),
  });
  if (!cache) return fresh;

  invalidateOnCatalogueChanges(api, cache);
  return cachedPages({
    cache,
    render: createFetchHandler(build, mode),
    anonymousContext: (req, res) => loadContext(req, res, { user: null, accessToken: null, authentication: null }),
    fresh,
    logger: api.get('logger'),
  });
}
