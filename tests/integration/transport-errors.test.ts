import type { Application } from '@feathersjs/feathers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../../server/auth/limits.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  createAccount,
  rejectionOf,
  skipReason,
  socketClient,
  startTestServer,
  uniqueEmail,
  type FeathersErrorJSON,
  type SocketClient,
} from './harness.ts';

/** Errors over REST and socket.io: status codes, Feathers' error JSON, the caller's language; and the HTTP basics. */

const SECRET_DETAIL = 'db password is hunter2 at /srv/internal/module.ts';

describe.skipIf(skipReason)('errors and HTTP behaviour', () => {
  let server: RunningServer;
  let adminToken: string;
  let memberToken: string;
  const sockets: SocketClient[] = [];

  async function request(
    method: string,
    path: string,
    options: { body?: unknown; raw?: string; headers?: Record<string, string>; token?: string } = {},
  ) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(options.body !== undefined || options.raw !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined
        ? { body: JSON.stringify(options.body) }
        : options.raw !== undefined
          ? { body: options.raw }
          : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: (text ? JSON.parse(text) : null) as FeathersErrorJSON,
    };
  }
  const token = async (email: string, password: string) =>
    (
      (await request('POST', '/api/authentication', { body: { strategy: 'local', email, password } }))
        .body as unknown as { accessToken: string }
    ).accessToken;

  beforeAll(async () => {
    server = await startTestServer();
    // A service that fails the way a bug would, with internals in its message (outside the typed map).
    const untypedApp: Application = server.api;
    untypedApp.use('boom', {
      async find() {
        throw new Error(SECRET_DETAIL);
      },
    });
    const member = await createAccount(server.database.knex);
    [adminToken, memberToken] = await Promise.all([
      token(ADMIN.email, ADMIN.password),
      token(member.email, member.password),
    ]);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  /** Feathers' error JSON: exactly these keys (and `data`, `errors` when there are some), never a stack. */
  function expectFeathersError(body: FeathersErrorJSON, name: string, code: number) {
    expect(body).toMatchObject({ name, code, className: expect.any(String), message: expect.any(String) });
    expect(body.message.length).toBeGreaterThan(0);
    for (const key of Object.keys(body))
      expect(['name', 'message', 'code', 'className', 'data', 'errors']).toContain(key);
  }

  describe('status codes and bodies over REST', () => {
    it('400 for invalid data, with a message per field', async () => {
      const { status, body } = await request('POST', '/api/users', { body: {} });
      expect(status).toBe(400);
      expectFeathersError(body, 'BadRequest', 400);
      expect(body).toMatchObject({ className: 'bad-request', message: 'Please check the highlighted fields.' });
      expect(body.errors).toMatchObject({ email: 'Required', password: 'Required' });
    });

    it('401 without a token, 403 without the role', async () => {
      const anonymous = await request('GET', '/api/users');
      expect(anonymous.status).toBe(401);
      expectFeathersError(anonymous.body, 'NotAuthenticated', 401);
      expect(anonymous.body.message).toBe('Please sign in to continue.');

      const member = await request('POST', '/api/industries', { body: { name: { en: 'Nope' } }, token: memberToken });
      expect(member.status).toBe(403);
      expectFeathersError(member.body, 'Forbidden', 403);
      expect(member.body.message).toBe('You do not have permission to do this.');

      const garbage = await request('GET', '/api/users', { token: 'not-a-jwt' });
      expect(garbage.status).toBe(401);
      expectFeathersError(garbage.body, 'NotAuthenticated', 401);
    });

    it('404 for a missing record and for an unknown endpoint under /api', async () => {
      const missing = await request('GET', '/api/industries/no-such-id');
      expect(missing.status).toBe(404);
      expectFeathersError(missing.body, 'NotFound', 404);

      for (const path of ['/api/no-such-service', '/api/no-such-service/123', '/api/']) {
        const unknown = await request('GET', path);
        expect(unknown.status, path).toBe(404);
        expect(unknown.headers.get('content-type'), path).toMatch(/^application\/json/);
        expectFeathersError(unknown.body, 'NotFound', 404);
      }
    });

    it('405 for a method the service does not offer', async () => {
      const update = await request('PUT', '/api/industries/some-id', {
        body: { name: { en: 'x' } },
        token: adminToken,
      });
      expect(update.status).toBe(405);
      expectFeathersError(update.body, 'MethodNotAllowed', 405);
      const removeAll = await request('DELETE', '/api/industries', { token: adminToken });
      expect(removeAll.status).toBe(405);
      expectFeathersError(removeAll.body, 'MethodNotAllowed', 405);
    });

    it('409 for an email that has an account', async () => {
      const { status, body } = await request('POST', '/api/users', {
        body: { email: ADMIN.email, password: 'Valid1234' },
      });
      expect(status).toBe(409);
      expectFeathersError(body, 'Conflict', 409);
      expect(body.message).toBe('Account already exist');
    });

    it('429 after too many failed sign-ins', async () => {
      const account = await createAccount(server.database.knex);
      for (let i = 0; i < LOGIN_LIMITS.consecutiveFailures.points; i += 1) {
        await request('POST', '/api/authentication', {
          body: { strategy: 'local', email: account.email, password: 'Wrong1234' },
        });
      }
      const { status, body, headers } = await request('POST', '/api/authentication', {
        body: { strategy: 'local', email: account.email, password: account.password },
      });
      expect(status).toBe(429);
      expectFeathersError(body, 'TooManyRequests', 429);
      // When to try again, in seconds: what is left of this account's wait at this address.
      expect(headers.get('retry-after')).toMatch(/^\d+$/);
      const retryAfter = Number(headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(LOGIN_LIMITS.waits[0]);
      expect(body.data).toMatchObject({ retryAfter });
    });

    it('500 with a generic message, no stack and no internals for an unexpected error', async () => {
      const { status, body, text } = await request('GET', '/api/boom');
      expect(status).toBe(500);
      expectFeathersError(body, 'GeneralError', 500);
      expect(body.message).toBe('Something went wrong. Please try again.');
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('stack');
      expect(text).not.toContain('.ts');

      const translated = await request('GET', '/api/boom', { headers: { 'x-locale': 'zh-hk' } });
      expect(translated.body.message).toBe('發生錯誤，請再試一次。');
    });

    it('500 over the socket is generic too', async () => {
      const s = socketClient(server.url);
      sockets.push(s);
      const error = await rejectionOf(s.client.service('boom').find({}));
      expect(error).toMatchObject({
        name: 'GeneralError',
        code: 500,
        message: 'Something went wrong. Please try again.',
      });
      expect(JSON.stringify(error)).not.toContain('hunter2');
      expect(error).not.toHaveProperty('stack', expect.stringContaining('hunter2'));
    });
  });

  describe('the caller’s language', () => {
    const validation = (headers: Record<string, string>) =>
      request('POST', '/api/users', { body: { email: 'not-an-email' }, headers });

    it('x-locale: zh-hk answers in Traditional Chinese, message and fields', async () => {
      const { status, body } = await validation({ 'x-locale': 'zh-hk' });
      expect(status).toBe(400);
      expect(body.message).toBe('請檢查標示的欄位。');
      expect(body.errors).toMatchObject({ email: '電郵格式不正確', password: '必填' });
    });

    it('Accept-Language: zh-CN answers in Simplified Chinese', async () => {
      const { body } = await validation({ 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' });
      expect(body.message).toBe('请检查标出的字段。');
      expect(body.errors).toMatchObject({ email: '邮箱格式不正确', password: '必填' });
    });

    it('the language cookie, Accept-Language for Taiwan and Hong Kong, and x-locale first', async () => {
      expect((await validation({ cookie: 'i18n_redirected=zh-hk' })).body.message).toBe('請檢查標示的欄位。');
      expect((await validation({ 'accept-language': 'fr-FR, zh-TW;q=0.8' })).body.message).toBe('請檢查標示的欄位。');
      expect((await validation({ 'x-locale': 'en', 'accept-language': 'zh-CN' })).body.message).toBe(
        'Please check the highlighted fields.',
      );
      expect((await validation({})).body.message).toBe('Please check the highlighted fields.');
    });

    it('sign-in, permission and conflict errors are translated too', async () => {
      const login = await request('POST', '/api/authentication', {
        body: { strategy: 'local', email: uniqueEmail('nobody'), password: 'Wrong1234' },
        headers: { 'x-locale': 'zh-hk' },
      });
      expect(login.status).toBe(401);
      expect(login.body.message).toBe('電郵或密碼不正確。');
      const forbidden = await request('POST', '/api/industries', {
        body: { name: { en: 'x' } },
        token: memberToken,
        headers: { 'x-locale': 'zh-cn' },
      });
      expect(forbidden.body.message).toBe('你没有权限执行此操作。');
      const conflict = await request('POST', '/api/users', {
        body: { email: ADMIN.email, password: 'Valid1234' },
        headers: { 'x-locale': 'zh-hk' },
      });
      expect(conflict.body).toMatchObject({ message: '帳戶已存在', errors: { email: '帳戶已存在' } });
    });

    it('a socket answers in the language of its connection', async () => {
      const s = socketClient(server.url, { 'accept-language': 'zh-CN' });
      sockets.push(s);
      const error = await rejectionOf(s.client.service('users').create({ email: 'not-an-email' }));
      expect(error).toMatchObject({ name: 'BadRequest', code: 400, message: '请检查标出的字段。' });
      expect(error.errors).toMatchObject({ email: '邮箱格式不正确', password: '必填' });
    });
  });

  describe('HTTP basics', () => {
    it('GET /health answers ok', async () => {
      const response = await fetch(`${server.url}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ok' });
    });

    it('a JSON body over 256 kb is refused with 413 in Feathers’ error JSON', async () => {
      const big = { name: { en: 'x'.repeat(300 * 1024) } };
      const { status, body, text } = await request('POST', '/api/industries', { body: big, token: adminToken });
      expect(status).toBe(413);
      expectFeathersError(body, 'PayloadTooLarge', 413);
      expect(text).not.toContain('stack');
      // Just under the limit is read (and then judged by the service: too long a name).
      const under = await request('POST', '/api/industries', {
        body: { name: { en: 'x'.repeat(200 * 1024) } },
        token: adminToken,
      });
      expect(under.status).toBe(400);
      expect(under.body.errors).toHaveProperty(['name.en']);
    });

    it('malformed JSON is a 400 BadRequest, not a 500 with the parser’s message', async () => {
      const { status, body, text } = await request('POST', '/api/industries', {
        raw: '{"name": ',
        token: adminToken,
        headers: { 'x-locale': 'zh-hk' },
      });
      expect(status).toBe(400);
      expectFeathersError(body, 'BadRequest', 400);
      expect(body.message).toBe('無法讀取請求內容。');
      expect(text).not.toMatch(/Unexpected|JSON at position|stack/);
    });

    it('every response carries an x-request-id (a valid incoming one is kept)', async () => {
      for (const path of ['/health', '/api/industries', '/api/no-such-service']) {
        const response = await fetch(`${server.url}${path}`);
        expect(response.headers.get('x-request-id'), path).toMatch(/^[\w-]{8,64}$/);
      }
      const a = await fetch(`${server.url}/api/industries`);
      const b = await fetch(`${server.url}/api/industries`);
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
      const kept = await fetch(`${server.url}/api/industries`, { headers: { 'x-request-id': 'trace-abc-123' } });
      expect(kept.headers.get('x-request-id')).toBe('trace-abc-123');
      const replaced = await fetch(`${server.url}/api/industries`, { headers: { 'x-request-id': 'bad id <script>' } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
    });

    it('responses carry security headers, with a Content-Security-Policy (the strictest on the API)', async () => {
      for (const [path, policy] of [
        ['/health', "default-src 'self'"],
        ['/api/industries', "default-src 'none'"],
      ] as const) {
        const response = await fetch(`${server.url}${path}`);
        const csp = response.headers.get('content-security-policy') ?? '';
        expect(csp, path).toContain(policy);
        expect(csp, path).toMatch(/object-src 'none'|default-src 'none'/);
        // Only pages build a nonce for inline scripts; JSON answers need none.
        if (path.startsWith('/api')) expect(csp, path).not.toContain('nonce-');
        expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(response.headers.get('x-powered-by'), path).toBeNull();
      }
    });

    it("isolates every window but the public site's pages from cross-origin openers", async () => {
      for (const path of [
        '/health',
        '/api/industries',
        '/en/portal',
        '/zh-hk/login',
        '/zh-cn/subscription',
        '/admin',
      ]) {
        const response = await fetch(`${server.url}${path}`);
        expect(response.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
      }
      for (const path of ['/en', '/zh-hk/pricing', '/zh-cn/blogs/some-article', '/en/feature_list.data']) {
        const response = await fetch(`${server.url}${path}`);
        expect(response.headers.get('cross-origin-opener-policy'), path).toBeNull();
        // The rest of the page headers are the same.
        expect(response.headers.get('content-security-policy'), path).toContain("object-src 'none'");
        expect(response.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
      }
    });
  });
});
