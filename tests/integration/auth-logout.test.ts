import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  startTestServer,
  type SocketClient,
} from './harness.ts';

/** Signing out revokes the token everywhere; the REST session cookie is set and cleared. */

const MEMBER = { email: 'owner@tillpoint.test', password: 'Owner12345' };

describe.skipIf(skipReason)('logout and the session cookie', () => {
  let server: RunningServer;
  const sockets: SocketClient[] = [];

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...init.headers },
    });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  // As a page of the site would: the cookie is set for the site's own origin only.
  async function login(account: { email: string; password: string }) {
    const signIn = JSON.stringify({ strategy: 'local', ...account });
    const response = await api('/authentication', { method: 'POST', headers: { origin: server.url }, body: signIn });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { accessToken: string; user: { _id: string } };
    return { response, token: body.accessToken, userId: body.user._id };
  }

  it('REST login sets an httpOnly, SameSite=Lax session cookie holding the token', async () => {
    const { response, token } = await login(MEMBER);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie.startsWith(`tp_session=${token};`)).toBe(true);
    const attributes = cookie.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');
    expect(attributes).toContain(`max-age=${7 * 24 * 60 * 60}`);
    // Over plain http (no https PUBLIC_URL) the cookie cannot be Secure, or the browser would drop it.
    expect(attributes).not.toContain('secure');
  });

  it('the cookie alone does not authorise API calls (only the bearer token does)', async () => {
    const { token, userId } = await login(MEMBER);
    const withCookie = await api(`/users/${userId}`, { headers: { cookie: `tp_session=${token}` } });
    expect(withCookie.status).toBe(401);
    const withBearer = await api(`/users/${userId}`, { headers: bearer(token) });
    expect(withBearer.status).toBe(200);
  });

  it('DELETE /api/authentication revokes the bearer token and clears the cookie', async () => {
    const { token, userId } = await login(MEMBER);
    expect((await api(`/users/${userId}`, { headers: bearer(token) })).status).toBe(200);

    const logout = await api('/authentication', { method: 'DELETE', headers: bearer(token) });
    expect(logout.status).toBe(200);
    const cleared = (logout.headers.get('set-cookie') ?? '').split(';').map((part) => part.trim().toLowerCase());
    expect(cleared[0]).toBe('tp_session=');
    expect(cleared).toContain('max-age=0');
    expect(cleared).toContain('path=/');
    expect(cleared).toContain('httponly');
    const body = (await logout.json()) as Record<string, unknown>;
    expect(JSON.stringify(body)).not.toContain('"password"');

    // The same token is refused on a protected call, cannot sign in again and cannot sign out twice.
    const after = await api(`/users/${userId}`, { headers: bearer(token) });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ name: 'NotAuthenticated', code: 401 });
    const again = await api('/authentication', {
      method: 'POST',
      body: JSON.stringify({ strategy: 'jwt', accessToken: token }),
    });
    expect(again.status).toBe(401);
    expect(((await again.json()) as { accessToken?: string }).accessToken).toBeUndefined();
    expect((await api('/authentication', { method: 'DELETE', headers: bearer(token) })).status).toBe(401);

    // Another session of the same account is not affected.
    const other = await login(MEMBER);
    expect((await api(`/users/${userId}`, { headers: bearer(other.token) })).status).toBe(200);
  });

  it('DELETE without a token, or naming another token, is refused with 401', async () => {
    expect((await api('/authentication', { method: 'DELETE' })).status).toBe(401);
    const { token } = await login(MEMBER);
    const mismatch = await api('/authentication/some-other-token', { method: 'DELETE', headers: bearer(token) });
    expect(mismatch.status).toBe(401);
    const mismatchBody = (await mismatch.json()) as { name: string };
    expect(mismatchBody.name).toBe('NotAuthenticated');
  });

  it('a failed REST logout still clears the session cookie', async () => {
    const expectCleared = (response: Response) => {
      const cleared = (response.headers.get('set-cookie') ?? '').split(';').map((part) => part.trim().toLowerCase());
      expect(cleared[0]).toBe('tp_session=');
      expect(cleared).toContain('max-age=0');
      expect(cleared).toContain('path=/');
    };
    const { token } = await login(MEMBER);
    expect((await api('/authentication', { method: 'DELETE', headers: bearer(token) })).status).toBe(200);
    // Signing out again with the revoked token: refused, and the cookie goes all the same.
    const again = await api('/authentication', {
      method: 'DELETE',
      headers: { ...bearer(token), cookie: `tp_session=${token}` },
    });
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ name: 'NotAuthenticated', code: 401 });
    expectCleared(again);
    // No token at all, or a forged one.
    const none = await api('/authentication', { method: 'DELETE' });
    expect(none.status).toBe(401);
    expectCleared(none);
    const forged = await api('/authentication', { method: 'DELETE', headers: bearer(`${token.slice(0, -4)}AAAA`) });
    expect(forged.status).toBe(401);
    expectCleared(forged);
    // A failed sign-in leaves the cookie alone.
    const failed = await api('/authentication', {
      method: 'POST',
      body: JSON.stringify({ strategy: 'local', email: MEMBER.email, password: 'Wrong-pass1' }),
    });
    expect(failed.status).toBe(401);
    expect(failed.headers.get('set-cookie')).toBeNull();
  });

  it('client.logout() over socket.io revokes the token for REST and for new sockets', async () => {
    const s = socketClient(server.url);
    sockets.push(s);
    const { accessToken, user } = await s.client.authenticate({ strategy: 'local', ...ADMIN });
    expect(await s.client.service('users').find({ query: { $limit: 1 } })).toMatchObject({ total: expect.any(Number) });

    await s.client.logout();

    // The socket itself is anonymous again.
    expect(await rejectionOf(s.client.service('users').find({}))).toMatchObject({
      name: 'NotAuthenticated',
      code: 401,
    });
    // The token is refused over REST...
    expect((await api(`/users/${user._id}`, { headers: bearer(accessToken) })).status).toBe(401);
    // ...and cannot authenticate a new socket or REST client.
    const fresh = socketClient(server.url);
    sockets.push(fresh);
    expect(await rejectionOf(fresh.client.authenticate({ strategy: 'jwt', accessToken }))).toMatchObject({
      name: 'NotAuthenticated',
      code: 401,
    });
    expect(await rejectionOf(restClient(server.url).authenticate({ strategy: 'jwt', accessToken }))).toMatchObject({
      code: 401,
    });
  });

  it('a REST client logout revokes its token too', async () => {
    const client = restClient(server.url);
    const { accessToken } = await client.authenticate({ strategy: 'local', ...MEMBER });
    await client.logout();
    const reuse = restClient(server.url);
    expect(await rejectionOf(reuse.authenticate({ strategy: 'jwt', accessToken }))).toMatchObject({
      name: 'NotAuthenticated',
      code: 401,
    });
  });
});
