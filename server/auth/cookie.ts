import type { HookContext, NextFunction } from '@feathersjs/feathers';
import { isHttpsSite, sessionCookie as sessionCookieHeader } from '../../domain/session-cookie.ts';
import type { Config } from '../config.ts';

const headerOf = (headers: Record<string, unknown> | undefined, name: string): string | undefined => {
  const value = headers?.[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Whether a request comes from a page of this site, as the browser tells: `Origin` (sent on every
 * POST from a page, same-origin or not), else `Sec-Fetch-Site`. The site's origin is PUBLIC_URL's;
 * without it, the host the request was sent to (a page elsewhere can choose neither its Origin nor
 * our Host), which behind a proxy that rewrites Host means no match: set PUBLIC_URL there. A caller
 * that says neither (an app, a script) is not a page of this site.
 */
export function fromOwnSite(headers: Record<string, unknown> | undefined, publicUrl: string | undefined): boolean {
  const origin = headerOf(headers, 'origin');
  if (origin === undefined) return headerOf(headers, 'sec-fetch-site') === 'same-origin';
  // `Origin: null` (a sandboxed frame, a file) does not parse.
  const claimed = URL.parse(origin);
  if (!claimed) return false;
  if (publicUrl) return claimed.origin === new URL(publicUrl).origin;
  const host = headerOf(headers, 'host');
  return host !== undefined && claimed.host === URL.parse(`${claimed.protocol}//${host}`)?.host;
}

/**
 * Over REST, signing in from a page of this site also sets the token in an httpOnly cookie so
 * server-rendered pages know the user; signing out clears it, even when the sign-out fails (an
 * expired or already revoked token must not leave the browser holding it). Tokens in the response
 * body serve API and socket clients.
 *
 * A sign-in from anywhere else sets no cookie (login CSRF: a form on another site, posting its own
 * account's password, would otherwise sign the visitor into that account); other origins, such as
 * the company's apps, still get their token in the body.
 */
export function sessionCookie(config: Config) {
  const secure = isHttpsSite(config.publicUrl);
  return async (context: HookContext, next: NextFunction) => {
    const setCookie = (cookie: string) => {
      if (context.params.provider !== 'rest' || !context.http) return;
      context.http.headers = { ...(context.http.headers ?? {}), 'Set-Cookie': cookie };
    };
    const clear = () => setCookie(sessionCookieHeader(null, secure));
    try {
      await next();
    } catch (error) {
      // The error answer carries the hook's headers (normalizeHttpError).
      if (context.method === 'remove') clear();
      throw error;
    }
    if (context.method === 'remove') return clear();
    const token = (context.result as { accessToken?: string } | undefined)?.accessToken;
    if (token && fromOwnSite(context.params.headers, config.publicUrl)) setCookie(sessionCookieHeader(token, secure));
  };
}
