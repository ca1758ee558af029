import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { setPasswordHashing } from '../../server/auth/passwords.ts';
import { LOGIN_LIMITS } from '../../server/auth/limits.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  createAccount,
  rejectionOf,
  skipReason,
  socketClient,
  startTestServer,
  testConfig,
  uniqueEmail,
  type FeathersErrorJSON,
  type SocketClient,
  type TestAccount,
} from './harness.ts';

/**
 * Sign-in over REST: one answer whether or not the account exists (in content and in time), input
 * that is not a string refused, and the limit of attempts per address (the limits on failures are
 * in auth-lockout.test.ts).
 *
 * The server trusts the loopback proxy, so each test signs in from addresses of its own
 * (X-Forwarded-For) and the per-address limit of one test does not touch another.
 */

const PER_IP = { points: 8, duration: 15 * 60 };

let nextAddress = 1;
/** A fresh client address for X-Forwarded-For. */
const newAddress = () => `10.0.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.skipIf(skipReason)('sign-in', () => {
  let server: RunningServer;
  const sockets: SocketClient[] = [];

  beforeAll(async () => {
    // Production limits, except a small per-address one so that test needs few (slow, argon2) attempts.
    server = await startTestServer({ trustProxy: 'loopback', loginLimits: { ...LOGIN_LIMITS, perIp: PER_IP } });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  let refusalAccount: TestAccount | undefined;
  const account = (role: TestAccount['role'] = 'member') => createAccount(server.database.knex, { role });

  async function login(body: unknown, address = newAddress(), contentType = 'application/json') {
    const response = await fetch(`${server.url}/api/authentication`, {
      method: 'POST',
      headers: { 'content-type': contentType, accept: 'application/json', 'x-forwarded-for': address },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const json = (await response.json()) as FeathersErrorJSON & { accessToken?: string };
    return { status: response.status, body: json, cookie: response.headers.get('set-cookie') };
  }
  const local = (email: unknown, password: unknown) => ({ strategy: 'local', email, password });

  it('answers an unknown email exactly like a wrong password', async () => {
    const known = await account();
    const wrong = await login(local(known.email, 'Wrong-pass1'));
    const unknown = await login(local(uniqueEmail('nobody'), 'Wrong-pass1'));
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toMatchObject({
      name: 'NotAuthenticated',
      code: 401,
      className: 'not-authenticated',
      message: 'Incorrect email or password.',
    });
    expect(wrong.cookie).toBeNull();
    // A different case of the same email is the same account (and the same answer when wrong).
    expect((await login(local(known.email.toUpperCase(), known.password))).status).toBe(201);
  });

  it('spends about as long on an unknown email as on a wrong password', async () => {
    // At a real site's hashing cost, where a missing dummy hash would show (tests otherwise hash cheaply).
    setPasswordHashing('standard');
    onTestFinished(() => setPasswordHashing('fast'));
    const known = await account();
    const timed = async (email: string) => {
      const start = performance.now();
      const { status } = await login(local(email, 'Wrong-pass1'));
      expect(status).toBe(401);
      return performance.now() - start;
    };
    // Warm both paths once; then alternate so load on the machine falls on both alike.
    await timed(known.email);
    await timed(uniqueEmail('nobody'));
    let unknownTotal = 0;
    let wrongTotal = 0;
    // Each call comes from an address of its own, so no wait between failures in a row applies.
    for (let round = 0; round < 3; round += 1) {
      wrongTotal += await timed(known.email);
      unknownTotal += await timed(uniqueEmail('nobody'));
    }
    // Without a dummy hash an unknown email answers in a few ms against a tenth of a second for argon2.
    expect(unknownTotal).toBeGreaterThanOrEqual(0.4 * wrongTotal);
  });

  it.each([
    ['an operator object as password', (email: string) => local(email, { $ne: null })],
    ['an operator object as email', (_email: string, password: string) => local({ $ne: null }, password)],
    ['operator objects for both', () => local({ $ne: null }, { $ne: null })],
    ['a regex object as email', (_email: string, password: string) => local({ $regex: '.*' }, password)],
    ['a number as password', (email: string) => local(email, 12345678)],
    ['an array as email', (email: string, password: string) => local([email], password)],
    ['an array as password', (email: string, password: string) => local(email, [password])],
    ['no password', (email: string) => ({ strategy: 'local', email })],
  ])('refuses %s with 400 BadRequest, never a sign-in', async (_label, body) => {
    const member = (refusalAccount ??= await account());
    const { status, body: json, cookie } = await login(body(member.email, member.password));
    expect(status).toBe(400);
    expect(json).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request' });
    expect(json.accessToken).toBeUndefined();
    expect(cookie).toBeNull();
  });

  it('refuses operators sent as a form (email[$ne]=) and over the socket too', async () => {
    const member = await account();
    const form = await login(
      `strategy=local&email[$ne]=x&password=${encodeURIComponent(member.password)}`,
      newAddress(),
      'application/x-www-form-urlencoded',
    );
    // The API reads no form at all (415), so no operator can come through one.
    expect(form.status).toBe(415);
    expect(form.body.accessToken).toBeUndefined();

    const s = socketClient(server.url, { 'x-forwarded-for': newAddress() });
    sockets.push(s);
    const error = await rejectionOf(
      s.client.authenticate({ strategy: 'local', email: { $ne: null }, password: member.password }),
    );
    expect(error).toMatchObject({ name: 'BadRequest', code: 400 });
  });

  it('limits attempts per address, over REST and over the socket, whatever the account', async () => {
    // Production runs with 30 per 15 minutes; this server with 8.
    expect(LOGIN_LIMITS.perIp).toEqual({ points: 30, duration: 15 * 60 });
    expect(testConfig().loginLimits).toEqual(LOGIN_LIMITS);
    const address = newAddress();
    const member = await account();
    const attempts = Array.from({ length: PER_IP.points }, () =>
      login(local(uniqueEmail('spray'), 'Wrong-pass1'), address),
    );
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    expect(statuses.every((status) => status === 401)).toBe(true);

    const blocked = await login(local(member.email, member.password), address);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ name: 'TooManyRequests', code: 429 });

    // A socket from the same address (behind the same trusted proxy) is counted with it...
    const same = socketClient(server.url, { 'x-forwarded-for': address });
    sockets.push(same);
    expect(
      await rejectionOf(
        same.client.authenticate({ strategy: 'local', email: member.email, password: member.password }),
      ),
    ).toMatchObject({ name: 'TooManyRequests', code: 429 });
    // ...while other addresses still sign in, over either transport.
    expect((await login(local(member.email, member.password))).status).toBe(201);
    const other = socketClient(server.url, { 'x-forwarded-for': newAddress() });
    sockets.push(other);
    expect(
      (await other.client.authenticate({ strategy: 'local', email: member.email, password: member.password })).user,
    ).toMatchObject({ _id: member._id });
  });
});
