import { parse, serialize } from 'cookie';
import type { Flash } from './shell';

const FLASH_COOKIE = 'flash';

/** Sets a snackbar message for the next page the browser shows (after a redirect). */
export function flashCookie(flash: Flash, secure: boolean): string {
  return serialize(FLASH_COOKIE, JSON.stringify(flash), {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: 60,
    secure,
  });
}

export const CLEAR_FLASH = serialize(FLASH_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 0 });

/** The pending flash message, if the cookie holds a well-formed one. */
export function readFlash(cookieHeader: string | null): Flash | null {
  const raw = parse(cookieHeader ?? '')[FLASH_COOKIE];
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<Flash>;
    if (
      (value.type === 'success' || value.type === 'error') &&
      typeof value.key === 'string' &&
      /^[\w.-]{1,100}$/.test(value.key)
    ) {
      return { type: value.type, key: value.key };
    }
  } catch {
    // A malformed cookie is dropped like an empty one.
  }
  return null;
}
