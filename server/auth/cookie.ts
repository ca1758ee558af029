import type { HookContext, NextFunction } from '@feathersjs/feathers';
import { serialize } from 'cookie';
import type { Config } from '../config.ts';

export const SESSION_COOKIE = 'tp_session';
const WEEK = 7 * 24 * 60 * 60;

export function sessionCookieOptions(config: Config) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure: Boolean(config.publicUrl?.startsWith('https://')),
  };
}

/**
 * Over REST, signing in also sets the token in an httpOnly cookie so server-rendered pages know
 * the user; signing out clears it, even when the sign-out fails (an expired or already revoked
 * token must not leave the browser holding it). Tokens in the response body serve API and socket
 * clients.
 */
export function sessionCookie(config: Config) {
  return async (context: HookContext, next: NextFunction) => {
    const setCookie = (cookie: string) => {
      if (context.params.provider !== 'rest' || !context.http) return;
      context.http.headers = { ...(context.http.headers ?? {}), 'Set-Cookie': cookie };
    };
    const options = sessionCookieOptions(config);
    const clear = () => setCookie(serialize(SESSION_COOKIE, '', { ...options, maxAge: 0 }));
    try {
      await next();
    } catch (error) {
      // The error answer carries the hook's headers (normalizeHttpError).
      if (context.method === 'remove') clear();
      throw error;
    }
    const token = (context.result as { accessToken?: string } | undefined)?.accessToken;
    if (context.method === 'create' && token) setCookie(serialize(SESSION_COOKIE, token, { ...options, maxAge: WEEK }));
    else clear();
  };
}
