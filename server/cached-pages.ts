import type { Request, RequestHandler, Response } from 'express';
import { parse as parseCookie } from 'cookie';
import type { Logger } from 'pino';
import type { RouterContextProvider } from 'react-router';
import { isPrivatePath } from '../domain/public-pages.ts';
import type { Api } from './app.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import type { PageCache } from './page-cache.ts';
import { preparePage, sendPage } from './page-entry.ts';

/**
 * Public HTML: a CDN may keep it 5 s, serve it stale for 30 s while it fetches a fresh one, and
 * for a day while this site answers errors (the database away: decision 032).
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=5, stale-while-revalidate=30, stale-if-error=86400';
/** A signed-in visitor's page (their name in the header), or any answer not fit to share. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** Services whose records public pages show; `blogs` is watched once the blog registers it. */
export const CATALOGUE_SERVICES = [
  'industries',
  'modules',
  'appTemplates',
  'blogs',
  'features',
  'campaigns',
  // An item's page (the link of its Facebook post: decision 059).
  'news',
] as const;
const CHANGE_EVENTS = ['created', 'updated', 'patched', 'removed'] as const;

/**
 * Empties the cache on any change to what public pages show. With REDIS_URL, feathers-sync emits
 * every instance's service events on every instance, so each one's cache follows.
 */
export function invalidateOnCatalogueChanges(api: Api, cache: PageCache): void {
  for (const name of CATALOGUE_SERVICES) {
    if (!(name in api.services)) continue;
    const service = api.service(name);
    for (const event of CHANGE_EVENTS) service.on(event, () => cache.clear());
  }
  // The campaign microsites show their published ads. An ad's counts move its event up to once a
  // second while it is published: those leave the pages alone (a published ad's other changes show
  // within the cache's age), an ad leaving `published` (met, drafted, removed) clears them.
  if ('ads' in api.services)
    for (const event of CHANGE_EVENTS)
      api.service('ads').on(event, (record: unknown) => {
        if (event === 'removed' || (record as { status?: unknown } | null)?.status !== 'published') cache.clear();
      });
}

/**
 * Cookies the pages never read differently per visitor: the language (read only by redirects,
 * which are not stored), the currency choice (part of the key) and analytics cookies. Any other
 * cookie (the session, a flash message, one added later) means the page is rendered fresh.
 */
const SHAREABLE_COOKIE = /^(i18n_redirected|currency|_ga.*|_gid|_gcl_.*|_fbp|_fbc)$/;

/** The cache key of an anonymous GET, or null when the request must be rendered for this visitor. */
export function cacheKey(req: Request, origin: string): string | null {
  if (req.method !== 'GET' || isPrivatePath(req.path)) return null;
  const cookies = parseCookie(req.headers.cookie ?? '');
  if (Object.keys(cookies).some((name) => !SHAREABLE_COOKIE.test(name))) return null;
  return `${origin}${req.originalUrl}\n${cookies.currency ?? ''}`;
}

/** The request's origin as React Router's Express adapter computes it (forwarded host behind a trusted proxy). */
function originOf(req: Request): string {
  const forwarded = req.app.enabled('trust proxy') ? req.get('x-forwarded-host') : undefined;
  const host = (forwarded ?? req.get('host') ?? 'localhost').split(',')[0]!.trim();
  return `${req.protocol}://${host}`;
}

function fetchRequest(req: Request, origin: string): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return new Request(`${origin}${req.originalUrl}`, { method: 'GET', headers });
}

function send(res: Response, status: number, headers: Iterable<[string, string]>, body: string, cacheControl: string) {
  res.status(status);
  for (const [name, value] of headers) res.append(name, value);
  res.setHeader('Cache-Control', cacheControl);
  res.send(body);
}

/** The headers already set on a response (the security headers), as pairs. */
function headersSet(res: Response): [string, string][] {
  return Object.entries(res.getHeaders()).flatMap(([name, value]) =>
    value === undefined
      ? []
      : Array.isArray(value)
        ? value.map((item): [string, string] => [name, item])
        : [[name, String(value)] as [string, string]],
  );
}

/**
 * Answers an anonymous GET from the cache when it holds the page, before anything else runs for
 * it (the security headers are part of the stored entry): a hit writes stored bytes, or a 304.
 */
export function cachedPageHits(cache: PageCache): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' || cache.size === 0) {
      next();
      return;
    }
    const key = cacheKey(req, originOf(req));
    const hit = key === null ? undefined : cache.get(key);
    if (hit) sendPage(req, res, hit, PUBLIC_CACHE_CONTROL, 'hit');
    else next();
  };
}

export interface CachedPagesOptions {
  cache: PageCache;
  /** React Router's fetch-API handler (`createRequestHandler(build, mode)` of `react-router`). */
  render: (request: globalThis.Request, context: RouterContextProvider) => Promise<globalThis.Response>;
  /** The load context of an anonymous visitor. */
  anonymousContext: (req: Request, res: Response) => RouterContextProvider;
  /** Every request the cache does not serve (signed in, private, not GET). */
  fresh: RequestHandler;
  logger: Logger;
}

/**
 * Anonymous GETs of public pages are answered from the cache when it has them (`cachedPageHits`
 * serves most hits before this), else rendered whole; a page fit to share (200, no Set-Cookie,
 * text) is stored as every visitor will get it (server/page-entry.ts: no nonce, its inline
 * scripts allowed by their hashes, precompressed, a strong ETag) and sent as stored. A page not
 * fit to share keeps the nonce of its own CSP header. When a page cannot be rendered because the
 * database is away (its answer is the 503 error page, or rendering throws such an error), the
 * page's last copy is served instead, however old (up to a day: PageCache's `stale`).
 * `x-page-cache` says hit, miss, stale or bypass.
 */
export function cachedPages({ cache, render, anonymousContext, fresh, logger }: CachedPagesOptions): RequestHandler {
  return async (req, res, next) => {
    const origin = originOf(req);
    const key = cacheKey(req, origin);
    const nonce = res.locals.cspNonce as string;
    if (key === null) {
      res.setHeader('x-page-cache', 'bypass');
      res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
      fresh(req, res, next);
      return;
    }
    const hit = cache.get(key);
    if (hit) {
      sendPage(req, res, hit, PUBLIC_CACHE_CONTROL, 'hit');
      return;
    }
    const serveStale = () => {
      const last = cache.stale(key);
      if (!last) return false;
      sendPage(req, res, last, PUBLIC_CACHE_CONTROL, 'stale');
      return true;
    };
    try {
      const generation = cache.generation;
      const response = await render(fetchRequest(req, origin), anonymousContext(req, res));
      if (response.status === 503 && cache.stale(key)) {
        await response.body?.cancel();
        serveStale();
        return;
      }
      const body = await response.text();
      const headers = [...response.headers].filter(([name]) => name !== 'content-length');
      const type = response.headers.get('content-type') ?? '';
      const shareable =
        response.status === 200 &&
        !response.headers.has('set-cookie') &&
        /^(text\/|application\/(xml|json))/.test(type);
      const page = shareable
        ? await preparePage({ status: response.status, headers: [...headersSet(res), ...headers], body, nonce })
        : null;
      if (!page) {
        res.setHeader('x-page-cache', 'miss');
        send(res, response.status, headers, body, response.headers.get('cache-control') ?? PRIVATE_CACHE_CONTROL);
        return;
      }
      if (!cache.set(key, page, generation))
        logger.debug({ url: req.originalUrl }, 'page not cached: the catalogue changed while it rendered');
      sendPage(req, res, { ...page, storedAt: Date.now() }, PUBLIC_CACHE_CONTROL, 'miss');
    } catch (error) {
      if (isDatabaseUnavailable(error) && serveStale()) return;
      next(error);
    }
  };
}
