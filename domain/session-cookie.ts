import { parse, serialize } from 'cookie';

/** The one definition of the session cookie, for the API's sign-in, the login page and the pages that read it. */

/** How long the cookie is kept: the token's own lifetime. */
export const SESSION_MAX_AGE = 7 * 24 * 60 * 60;

/** Cookies are Secure (and the session one `__Host-` prefixed) when the site is served over https. */
export function isHttpsSite(publicUrl: string | undefined): boolean {
  return Boolean(publicUrl?.startsWith('https://'));
}

/**
 * Over https the name carries the `__Host-` prefix: a browser keeps such a cookie only when it is
 * Secure, for path `/` and without a Domain, so neither a sibling subdomain nor a plain-http answer
 * can plant or replace it (a planted session signs the visitor into someone else's account). Over
 * plain http (local development, tests) no browser would keep a `__Host-` cookie, hence the plain name.
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-tp_session' : 'tp_session';
}

/** The `Set-Cookie` value that keeps a session token for its lifetime, or clears the cookie (`null`). */
export function sessionCookie(token: string | null, secure: boolean): string {
  return serialize(sessionCookieName(secure), token ?? '', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: token ? SESSION_MAX_AGE : 0,
  });
}

/** The session token of a `Cookie` header, read under this site's name only (never the other one). */
export function sessionToken(cookieHeader: string | null | undefined, secure: boolean): string | undefined {
  return parse(cookieHeader ?? '')[sessionCookieName(secure)] || undefined;
}
