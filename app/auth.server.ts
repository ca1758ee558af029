import { serialize } from 'cookie';
import { redirect } from 'react-router';
import type { ServerContext } from './context';

export const SESSION_COOKIE = 'tp_session';
const WEEK = 7 * 24 * 60 * 60;

export function sessionCookie(token: string | null, secure: boolean): string {
  return serialize(SESSION_COOKIE, token ?? '', { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: token ? WEEK : 0 });
}

/** Only same-site paths are followed after login, never another host. */
export function safeReturnPath(from: string | null, locale: string): string {
  if (from && from.startsWith('/') && !from.startsWith('//') && !from.includes('\\')) return from;
  return `/${locale}/portal`;
}

/** Sends visitors who are not signed in to the login page, remembering where they were going. */
export function requireUser(context: ServerContext, request: Request, locale: string) {
  if (context.user) return context.user;
  const url = new URL(request.url);
  throw redirect(`/${locale}/login?from=${encodeURIComponent(url.pathname + url.search)}`);
}
