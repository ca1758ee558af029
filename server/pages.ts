import { createRequestHandler } from '@react-router/express';
import type { Request, RequestHandler, Response } from 'express';
import { parse as parseCookie } from 'cookie';
import { createRequestHandler as createFetchHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import type { Api } from './app.ts';
import { SESSION_COOKIE } from './auth/cookie.ts';
import { cachedPages, invalidateOnCatalogueChanges } from './cached-pages.ts';
import type { Config } from './config.ts';
import type { PageCache } from './page-cache.ts';

interface BuildWithContext extends ServerBuild {
  entry: ServerBuild['entry'] & { module: ServerBuild['entry']['module'] & { serverContext?: unknown } };
}

interface Session {
  user: unknown;
  accessToken: string | null;
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
export async function createPageHandler({ build, api, config, mode = 'production', cache }: PageHandlerOptions): Promise<RequestHandler> {
  const key = (build as BuildWithContext).entry.module.serverContext;
  if (!key) throw new Error('The page build does not export serverContext from its server entry');

  const sessionUser = async (req: Request): Promise<Session> => {
    const token = parseCookie(req.headers.cookie ?? '')[SESSION_COOKIE];
    if (!token) return { user: null, accessToken: null };
    try {
      const result = await api.service('authentication').create(
        { strategy: 'jwt', accessToken: token },
        { provider: 'ssr', headers: req.headers },
      );
      return { user: (result as { user: unknown }).user, accessToken: token };
    } catch {
      return { user: null, accessToken: null };
    }
  };

  const loadContext = (req: Request, res: Response, session: Session) => {
    const context = new RouterContextProvider();
    context.set(key as never, {
      api,
      user: session.user,
      accessToken: session.accessToken,
      nonce: res.locals.cspNonce as string,
      ip: req.ip,
      headers: req.headers,
      secureCookies: Boolean(config.publicUrl?.startsWith('https://')),
      site: config.site,
      development: config.env === 'development',
      log: req.log ?? api.get('logger'),
    } as never);
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
    anonymousContext: (req, res) => loadContext(req, res, { user: null, accessToken: null }),
    fresh,
    logger: api.get('logger'),
  });
}
