import { describe, expect, it } from 'vitest';
import { isHttpsSite, sessionCookie, sessionCookieName, sessionToken } from './session-cookie.ts';

describe('the session cookie', () => {
  it('is __Host-tp_session over https (Secure, path /, no Domain) and tp_session over plain http', () => {
    expect(isHttpsSite('https://www.tillpoint.example')).toBe(true);
    expect(isHttpsSite('http://localhost:3000')).toBe(false);
    expect(isHttpsSite(undefined)).toBe(false);
    expect(sessionCookie('t0ken', true)).toBe(
      '__Host-tp_session=t0ken; Max-Age=604800; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
    expect(sessionCookie('t0ken', false)).toBe('tp_session=t0ken; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax');
    // Signing out clears the same name, Secure included (a browser ignores a __Host- cookie without it).
    expect(sessionCookie(null, true)).toBe('__Host-tp_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax');
  });

  it('is read under the site’s own name only: over https not a plain tp_session (a subdomain could plant it)', () => {
    const both = 'tp_session=planted; __Host-tp_session=ours; currency=HKD';
    expect(sessionToken(both, true)).toBe('ours');
    expect(sessionToken(both, false)).toBe('planted');
    expect(sessionToken('tp_session=planted', true)).toBeUndefined();
    expect(sessionToken('__Host-tp_session=', true)).toBeUndefined();
    expect(sessionToken(undefined, false)).toBeUndefined();
    expect(sessionCookieName(true)).toBe('__Host-tp_session');
  });
});
