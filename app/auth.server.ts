import { redirect } from 'react-router';
import { STAFF_ROLES } from '../domain/entities/types';
import type { ServerContext } from './context';

export { sessionCookie } from '../domain/session-cookie';

/**
 * What no return path may hold, raw or percent-encoded: control characters (browsers drop tabs and
 * newlines, so `/<tab>/evil` becomes `//evil`) and backslashes (which browsers read as `/`).
 */
const UNSAFE_IN_PATH = /[\p{Cc}\\]/u;

/**
 * Where to go after signing in (or any form that returns the visitor): a path on this site, never
 * another host. `from` is resolved as a browser would against the request's own origin and kept only
 * when that origin is unchanged; what is followed is its path, query and fragment alone. A path that
 * would point elsewhere once decoded again (`/%2F%2Fevil`) is refused too, in case a later hop decodes it.
 */
export function safeReturnPath(from: string | null, locale: string, requestUrl: string): string {
  const fallback = `/${locale}/portal`;
  if (!from || !from.startsWith('/') || UNSAFE_IN_PATH.test(from)) return fallback;
  const origin = new URL(requestUrl).origin;
  const url = URL.parse(from, origin);
  if (!url || url.origin !== origin) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  const decoded = decodedOrNull(path);
  if (decoded === null || UNSAFE_IN_PATH.test(decoded) || decoded.startsWith('//')) return fallback;
  return path;
}

function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Sends visitors who are not signed in to the login page, remembering where they were going. */
export function requireUser(context: ServerContext, request: Request, locale: string) {
  if (context.user) return context.user;
  const url = new URL(request.url);
  throw redirect(`/${locale}/login?from=${encodeURIComponent(url.pathname + url.search)}`);
}

/**
 * The back office's pages: staff only. A member, like a visitor who is not signed in, is sent to
 * the login page (to sign in as staff), remembering where they were going.
 */
export function requireStaff(context: ServerContext, request: Request, locale: string) {
  const user = context.user;
  if (user && STAFF_ROLES.includes(user.role)) return user;
  const url = new URL(request.url);
  throw redirect(`/${locale}/login?from=${encodeURIComponent(url.pathname + url.search)}`);
}
