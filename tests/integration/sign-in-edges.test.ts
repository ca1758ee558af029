import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/server.ts';
import {
  createAccount,
  createTestDatabase,
  rejectionOf,
  skipReason,
  socketClient,
  testConfig,
  type FeathersErrorJSON,
  type SocketClient,
  type TestAccount,
} from './harness.ts';

/**
 * The edges of sign-in (issue 13): the API reads JSON only (a cross-site form cannot sign anyone
 * in), the session cookie is set only for the site's own pages and is `__Host-` over https, pages
 * carry a CSP without websocket wildcards or a settable base, and no log line holds a secret.
 */

const FOREIGN = 'https://evil.example';
const PUBLIC_URL = 'https://www.tillpoint.example';
const JSON_ONLY = { en: 'The request body is in a format that is not supported.', 'zh-hk': '不支援此請求內容的格式。' };

interface Answer {
  status: number;
  body: FeathersErrorJSON & { accessToken?: string };
  cookies: string[];
}

async function send(url: string, init: RequestInit): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {}, cookies: response.headers.getSetCookie() };
}

const credentials = (account: TestAccount) => ({ strategy: 'local', email: account.email, password: account.password });
const asForm = (account: TestAccount) => new URLSearchParams(credentials(account)).toString();

/** A JSON sign-in with the given extra headers (Origin, Sec-Fetch-Site). */
const signIn = (base: string, account: TestAccount, headers: Record<string, string> = {}) =>
  send(`${base}/api/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(credentials(account)),
  });

/** A Set-Cookie header's name=value and its attributes, lower-cased. */
function parseSetCookie(header: string) {
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
  return { pair, attributes: attributes.map((attribute) => attribute.toLowerCase()) };
}

/** The directives of a Content-Security-Policy header. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

describe.skipIf(skipReason)('the edges of sign-in', () => {
  /** Plain http, no PUBLIC_URL: every log line kept for the last test. */
  let server: RunningServer;
  /** PUBLIC_URL on https (reached over http in the test, as behind a TLS proxy), with analytics. */
  let secure: RunningServer;
  const logLines: string[] = [];
  const sockets: SocketClient[] = [];
  let member: TestAccount;
  let secureMember: TestAccount;

  beforeAll(async () => {
    // Both servers on one schema, as two instances of one site: on PGlite every connection shares
    // one session, so two schemas in use at once would change each other's search_path.
    const database = await createTestDatabase();
    server = await startServer(testConfig({ logLevel: 'trace' }), {
      database,
      pages: false,
      logDestination: { write: (line: string) => void logLines.push(line) },
    });
    const https = testConfig({ publicUrl: PUBLIC_URL });
    const site = { ...https.site, publicUrl: PUBLIC_URL, gtmId: 'GTM-ABC1234' };
    // The first server closes the database; the second leaves it to it.
    const borrowed = { ...database, close: async () => undefined };
    secure = await startServer({ ...https, site }, { database: borrowed, pages: false });
    member = await createAccount(database.knex, { label: 'edges' });
    secureMember = await createAccount(database.knex, { label: 'edges-https' });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await secure?.close();
    await server?.close();
  });

  describe('the API reads JSON bodies only', () => {
    it.each([
      ['an urlencoded form', 'application/x-www-form-urlencoded', () => asForm(member)],
      ['a text/plain form holding JSON', 'text/plain', () => JSON.stringify(credentials(member))],
      ['a body without a type', null, () => JSON.stringify(credentials(member))],
    ])('refuses a cross-site sign-in sent as %s with 415, no token and no cookie', async (_label, type, body) => {
      const headers: Record<string, string> = { accept: 'application/json', origin: FOREIGN, 'x-locale': 'zh-hk' };
      if (type) headers['content-type'] = type;
      // A Blob without a type: fetch adds no Content-Type of its own.
      const init = { method: 'POST', headers, body: new Blob([body()]) };
      const answer = await send(`${server.url}/api/authentication`, init);
      expect(answer.status).toBe(415);
      expect(answer.body).toMatchObject({
        name: 'UnsupportedMediaType',
        code: 415,
        className: 'unsupported-media-type',
        message: JSON_ONLY['zh-hk'],
      });
      expect(answer.body.accessToken).toBeUndefined();
      expect(answer.cookies).toEqual([]);
    });

    it('refuses a multipart form the same way (in English by default)', async () => {
      const body = new FormData();
      for (const [name, value] of Object.entries(credentials(member))) body.append(name, value);
      const headers = { accept: 'application/json', origin: FOREIGN };
      const answer = await send(`${server.url}/api/authentication`, { method: 'POST', headers, body });
      expect(answer.status).toBe(415);
      expect(answer.body).toMatchObject({ name: 'UnsupportedMediaType', code: 415, message: JSON_ONLY.en });
      expect(answer.cookies).toEqual([]);
    });

    it('refuses forms on every service and method that reads a body; JSON (any charset) and no body pass', async () => {
      const { accessToken } = (await signIn(server.url, member)).body;
      const calls: [string, string][] = [
        ['POST', '/api/contactForms'],
        ['POST', '/api/subscribers'],
        ['PATCH', `/api/users/${member._id}`],
        ['PUT', `/api/users/${member._id}`],
      ];
      for (const [method, path] of calls) {
        const answer = await send(`${server.url}${path}`, {
          method,
          headers: {
            accept: 'application/json',
            authorization: `Bearer ${accessToken}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'name=Mallory&email=mallory%40evil.example',
        });
        expect(answer.status, `${method} ${path}`).toBe(415);
      }

      const withCharset = await send(`${server.url}/api/authentication`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' },
        body: JSON.stringify(credentials(member)),
      });
      expect(withCharset.status, JSON.stringify(withCharset.body)).toBe(201);
      const headers = { accept: 'application/json' };
      const empty = await send(`${server.url}/api/authentication`, { method: 'POST', headers });
      expect(empty.status).not.toBe(415);
      expect(empty.body.accessToken).toBeUndefined();
    });
  });

  describe('the session cookie is set for the site’s own pages only', () => {
    it('is tp_session over plain http, set only for a same-origin sign-in (Origin, else Sec-Fetch-Site)', async () => {
      const sameOrigin: Record<string, string>[] = [{ origin: server.url }, { 'sec-fetch-site': 'same-origin' }];
      for (const headers of sameOrigin) {
        const answer = await signIn(server.url, member, headers);
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        expect(answer.cookies, JSON.stringify(headers)).toHaveLength(1);
        const { pair, attributes } = parseSetCookie(answer.cookies[0] ?? '');
        expect(pair).toBe(`tp_session=${answer.body.accessToken}`);
        expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
        expect(attributes).not.toContain('secure');
      }

      // Not for a sign-in from another origin or from no page at all; the token still comes in the body.
      const host = new URL(server.url);
      const others: Record<string, string>[] = [
        { origin: FOREIGN },
        { origin: 'null' },
        // The same host on another port is another origin.
        { origin: `http://${host.hostname}:${Number(host.port) + 1}` },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        // An app or a script: neither header.
        {},
      ];
      for (const headers of others) {
        const answer = await signIn(server.url, member, headers);
        expect(answer.status, `${JSON.stringify(headers)}: ${answer.body.message}`).toBe(201);
        expect(answer.body.accessToken, JSON.stringify(headers)).toMatch(/^eyJ/);
        expect(answer.cookies, JSON.stringify(headers)).toEqual([]);
      }
      // Over socket.io, an app from another origin signs in as before (sockets never use the cookie).
      const s = socketClient(server.url, { origin: FOREIGN });
      sockets.push(s);
      const result = await s.client.authenticate(credentials(member));
      expect(result.accessToken).toMatch(/^eyJ/);
      // Nor does a socket take a browser's cookie as its credentials, whatever page opened it.
      const { accessToken } = (await signIn(server.url, member, { origin: server.url })).body;
      const withCookie = socketClient(server.url, { origin: FOREIGN, cookie: `tp_session=${accessToken}` });
      sockets.push(withCookie);
      const refused = await rejectionOf(withCookie.client.service('users').get(member._id));
      expect(refused).toMatchObject({ name: 'NotAuthenticated', code: 401 });
    });

    it('is __Host-tp_session over https (Secure, path /, no Domain), for PUBLIC_URL’s origin only', async () => {
      const own = await signIn(secure.url, secureMember, { origin: PUBLIC_URL });
      expect(own.status).toBe(201);
      const { pair, attributes } = parseSetCookie(own.cookies[0] ?? '');
      expect(pair).toBe(`__Host-tp_session=${own.body.accessToken}`);
      const week = `max-age=${7 * 24 * 60 * 60}`;
      expect(attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/', week]));
      expect(attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);

      // The address the request went to is not the site's origin once PUBLIC_URL names it.
      for (const origin of [secure.url, 'http://www.tillpoint.example', 'https://shop.tillpoint.example', FOREIGN]) {
        expect((await signIn(secure.url, secureMember, { origin })).cookies, origin).toEqual([]);
      }

      const signOut = await send(`${secure.url}/api/authentication`, {
        method: 'DELETE',
        headers: { accept: 'application/json', authorization: `Bearer ${own.body.accessToken}` },
      });
      expect(signOut.status).toBe(200);
      const cleared = parseSetCookie(signOut.cookies[0] ?? '');
      expect(cleared.pair).toBe('__Host-tp_session=');
      // A browser ignores a __Host- cookie without Secure, clearing included.
      expect(cleared.attributes).toEqual(expect.arrayContaining(['max-age=0', 'secure', 'path=/']));
    });
  });

  describe('the pages’ Content-Security-Policy', () => {
    it('allows connections to our own origin only (no ws:/wss: wildcard) and no <base>', async () => {
      for (const [base, analytics] of [
        [server, false],
        [secure, true],
      ] as const) {
        for (const path of ['/en', '/en/portal', '/health']) {
          const response = await fetch(`${base.url}${path}`);
          const csp = directives(response.headers.get('content-security-policy') ?? '');
          const connect = csp.get('connect-src') ?? [];
          expect(connect[0], path).toBe("'self'");
          expect(
            connect.some((source) => /^wss?:/i.test(source)),
            `${path}: ${connect.join(' ')}`,
          ).toBe(false);
          // With analytics, only Google's hosts are added, each over https.
          expect(
            connect.slice(1).every((source) => source.startsWith('https://')),
            path,
          ).toBe(true);
          expect(connect.length > 1, path).toBe(analytics);
          expect(csp.get('base-uri'), path).toEqual(["'none'"]);
          expect(csp.get('object-src'), path).toEqual(["'none'"]);
        }
      }
    });
  });

  describe('the log', () => {
    it('holds no token, password, cookie or code, while it still logs each request', async () => {
      const before = logLines.length;
      const own = await signIn(server.url, member, { origin: server.url });
      const token = own.body.accessToken ?? '';
      expect(own.cookies).toHaveLength(1);
      const wrongPassword = 'Not-the-password-42';
      const failed = await signIn(server.url, { ...member, password: wrongPassword }, { origin: server.url });
      expect(failed.status).toBe(401);
      const cookie = `tp_session=${token}`;
      const accept = 'application/json';
      // Refused (400) for its unknown query parameters, logged all the same.
      const query = `access_token=${token}&code=918273&token=${token}&$limit=1`;
      const bearer = { accept, authorization: `Bearer ${token}` };
      await send(`${server.url}/api/users/${member._id}?${query}`, { headers: { ...bearer, cookie } });
      // A token in a path (signing out by naming it), and a form that is refused.
      await send(`${server.url}/api/authentication/${token}`, { method: 'DELETE', headers: bearer });
      await send(`${server.url}/api/authentication`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: asForm(member),
      });
      // The access log lines are written when each answer finishes.
      await new Promise((resolve) => setTimeout(resolve, 50));

      // Every line of the file's server, these requests' and all the earlier tests'.
      const all = logLines.join('\n');
      expect(token.length).toBeGreaterThan(20);
      const signature = token.split('.')[2] ?? token;
      for (const secret of [token, signature, member.password, wrongPassword, '918273', 'tp_session']) {
        expect(all.includes(secret), `the log holds ${secret.slice(0, 12)}…`).toBe(false);
      }
      expect(all).not.toMatch(/set-cookie|authorization|"cookie"/i);

      // ...while each request is logged, with what it takes to follow it.
      type AccessLine = { req?: { method: string; url: string }; res?: { statusCode: number } };
      const requests = logLines
        .slice(before)
        .map((line) => JSON.parse(line) as AccessLine)
        .filter((line) => line.req);
      expect(requests.map(({ req, res }) => `${req?.method} ${res?.statusCode}`)).toEqual(
        expect.arrayContaining(['POST 201', 'POST 401', 'GET 400', 'DELETE 200', 'POST 415']),
      );
      const redacted = `/api/users/${member._id}?access_token=[redacted]&code=[redacted]&token=[redacted]&$limit=1`;
      expect(requests.map(({ req }) => req?.url)).toContain(redacted);
    });
  });
});
