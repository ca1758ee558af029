import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../../server/auth/limits.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  createAccount,
  skipReason,
  startTestServer,
  uniqueEmail,
  type FeathersErrorJSON,
  type TestAccount,
} from './harness.ts';

/**
 * Accounts over REST: registration (password rules, duplicates, no role), and who reads or changes
 * which account. The server trusts the loopback proxy so registrations come from addresses of their
 * own (the per-address registration limit is tested on its own address).
 */

interface User {
  _id: string;
  email: string;
  role: string;
  name?: string | null;
}
interface Page<T> {
  total: number;
  data: T[];
}

let nextAddress = 1;
const newAddress = () => `10.1.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.skipIf(skipReason)('accounts', () => {
  let server: RunningServer;
  let adminToken: string;
  let memberA: TestAccount & { token: string };
  let memberB: TestAccount & { token: string };
  let editor: TestAccount & { token: string };

  async function call<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; address?: string } = {},
  ) {
    const response = await fetch(`${server.url}/api${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'x-forwarded-for': options.address ?? newAddress(),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as T & FeathersErrorJSON,
    };
  }
  const signIn = async (email: string, password: string) =>
    (await call<{ accessToken: string }>('POST', '/authentication', { body: { strategy: 'local', email, password } }))
      .body.accessToken;
  const withToken = async (account: TestAccount) => ({
    ...account,
    token: await signIn(account.email, account.password),
  });
  const register = (body: Record<string, unknown>, address?: string) =>
    call<User>('POST', '/users', { body, ...(address ? { address } : {}) });

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    const knex = server.database.knex;
    [adminToken, memberA, memberB, editor] = await Promise.all([
      signIn(ADMIN.email, ADMIN.password),
      createAccount(knex, { label: 'member-a' }).then(withToken),
      createAccount(knex, { label: 'member-b' }).then(withToken),
      createAccount(knex, { role: 'editor' }).then(withToken),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('registration', () => {
    it.each([
      ['under 8 characters', 'Abc123', 'Minimum 8 characters'],
      ['without a digit', 'Abcdefghij', 'At least 1 number'],
      ['without a lower-case letter', 'ABCDEFG12', 'At least 1 lower-case letter'],
      ['without an upper-case letter', 'abcdefg12', 'At least 1 upper-case letter'],
    ])('refuses a password %s with 400 and errors.password', async (_label, password, message) => {
      const email = uniqueEmail('weak');
      const { status, body } = await register({ email, password });
      expect(status).toBe(400);
      expect(body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request' });
      expect(body.errors?.password).toBe(message);
      // Nothing was stored.
      const found = await call<Page<User>>('GET', `/users?email=${encodeURIComponent(email)}`, { token: adminToken });
      expect(found.body.total).toBe(0);
    });

    it('creates a member from a valid registration, who can then sign in', async () => {
      const email = uniqueEmail('new');
      const { status, body } = await register({ email: email.toUpperCase(), password: 'Valid1234', name: 'New Owner' });
      expect(status).toBe(201);
      expect(body).toMatchObject({ email, role: 'member', name: 'New Owner' });
      expect(body).not.toHaveProperty('password');
      expect(await signIn(email, 'Valid1234')).toEqual(expect.any(String));
    });

    it('answers 409 "Account already exist" for an email that has an account (in any case)', async () => {
      for (const email of [memberA.email, memberA.email.toUpperCase(), ADMIN.email]) {
        const { status, body } = await register({ email, password: 'Valid1234' });
        expect(status).toBe(409);
        expect(body).toMatchObject({
          name: 'Conflict',
          code: 409,
          className: 'conflict',
          message: 'Account already exist',
        });
        expect(body.errors?.email).toBe('Account already exist');
      }
    });

    it.each(['admin', 'editor', 'member'])('refuses a registration that sets role %s with 403', async (role) => {
      const email = uniqueEmail('role');
      const { status, body } = await register({ email, password: 'Valid1234', role });
      expect(status).toBe(403);
      expect(body).toMatchObject({ name: 'Forbidden', code: 403 });
      const found = await call<Page<User>>('GET', `/users?email=${encodeURIComponent(email)}`, { token: adminToken });
      expect(found.body.total).toBe(0);
    });

    it('a member cannot create staff either; an admin can', async () => {
      const byMember = await call('POST', '/users', {
        body: { email: uniqueEmail('x'), password: 'Valid1234', role: 'admin' },
        token: memberA.token,
      });
      expect(byMember.status).toBe(403);
      const byAdmin = await call<User>('POST', '/users', {
        body: { email: uniqueEmail('staff'), password: 'Valid1234', role: 'editor' },
        token: adminToken,
      });
      expect(byAdmin.status).toBe(201);
      expect(byAdmin.body.role).toBe('editor');
    });

    it('limits registrations per address', async () => {
      const address = newAddress();
      for (let i = 0; i < LOGIN_LIMITS.registrations.points; i += 1) {
        // Refused registrations count too, and cost no password hash here.
        expect((await register({ email: uniqueEmail('many'), password: 'short' }, address)).status).toBe(400);
      }
      const blocked = await register({ email: uniqueEmail('many'), password: 'Valid1234' }, address);
      expect(blocked.status).toBe(429);
      expect(blocked.body).toMatchObject({ name: 'TooManyRequests', code: 429 });
      // Retry-After: the seconds left in the limit's window.
      const retryAfter = Number(blocked.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(LOGIN_LIMITS.registrations.duration);
      expect((await register({ email: uniqueEmail('many'), password: 'Valid1234' })).status).toBe(201);
    });
  });

  describe('a member', () => {
    it('finds only their own record, whatever the query asks for', async () => {
      const own = await call<Page<User>>('GET', '/users', { token: memberA.token });
      expect(own.status).toBe(200);
      expect(own.body.total).toBe(1);
      expect(own.body.data.map((u) => u._id)).toEqual([memberA._id]);
      for (const query of [
        `_id=${memberB._id}`,
        `email=${encodeURIComponent(memberB.email)}`,
        `$or[0][email][$regex]=member-b`,
        'role=admin',
      ]) {
        const other = await call<Page<User>>('GET', `/users?${query}`, { token: memberA.token });
        expect(other.status, query).toBe(200);
        expect(other.body.data, query).toEqual([]);
      }
    });

    it('gets themselves; another user is 404', async () => {
      const own = await call<User>('GET', `/users/${memberA._id}`, { token: memberA.token });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ _id: memberA._id, email: memberA.email });
      expect(own.body).not.toHaveProperty('password');
      const other = await call('GET', `/users/${memberB._id}`, { token: memberA.token });
      expect(other.status).toBe(404);
      expect(other.body).toMatchObject({ name: 'NotFound', code: 404 });
    });

    it('patches themselves, not another user (404) and not their role (403)', async () => {
      const own = await call<User>('PATCH', `/users/${memberA._id}`, { body: { name: 'Me' }, token: memberA.token });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ _id: memberA._id, name: 'Me', role: 'member' });

      const other = await call('PATCH', `/users/${memberB._id}`, {
        body: { name: 'Hijacked', password: 'Hijack123' },
        token: memberA.token,
      });
      expect(other.status).toBe(404);
      expect(await signIn(memberB.email, memberB.password)).toEqual(expect.any(String));

      const role = await call('PATCH', `/users/${memberA._id}`, { body: { role: 'admin' }, token: memberA.token });
      expect(role.status).toBe(403);
      expect(role.body).toMatchObject({ name: 'Forbidden', code: 403 });
      const after = await call<User>('GET', `/users/${memberA._id}`, { token: memberA.token });
      expect(after.body.role).toBe('member');
    });

    it('changes their password only to one that follows the rules', async () => {
      const weak = await call('PATCH', `/users/${memberA._id}`, {
        body: { password: 'weak', currentPassword: memberA.password },
        token: memberA.token,
      });
      expect(weak.status).toBe(400);
      expect(weak.body.errors?.password).toBe('Minimum 8 characters');
      const strong = await call('PATCH', `/users/${memberA._id}`, {
        body: { password: 'Stronger123', currentPassword: memberA.password },
        token: memberA.token,
      });
      expect(strong.status).toBe(200);
      expect(strong.body).not.toHaveProperty('password');
      memberA.password = 'Stronger123';
      // The session that changed the password goes on; a new sign-in takes the new password.
      expect((await call('GET', `/users/${memberA._id}`, { token: memberA.token })).status).toBe(200);
      memberA.token = await signIn(memberA.email, 'Stronger123');
      expect(memberA.token).toEqual(expect.any(String));
    });

    it('cannot remove accounts, not even their own', async () => {
      expect((await call('DELETE', `/users/${memberA._id}`, { token: memberA.token })).status).toBe(403);
      expect((await call('DELETE', `/users/${memberB._id}`, { token: memberA.token })).status).toBe(403);
    });

    it('anonymous callers cannot list or read accounts', async () => {
      expect((await call('GET', '/users')).status).toBe(401);
      expect((await call('GET', `/users/${memberA._id}`)).status).toBe(401);
      expect((await call('PATCH', `/users/${memberA._id}`, { body: { name: 'x' } })).status).toBe(401);
    });
  });

  describe('staff', () => {
    it('an admin lists every account, without passwords', async () => {
      const page = await call<Page<User>>('GET', '/users?$limit=100', { token: adminToken });
      expect(page.status).toBe(200);
      const emails = page.body.data.map((u) => u.email);
      for (const email of [ADMIN.email, 'editor@tillpoint.test', 'owner@tillpoint.test', memberA.email, memberB.email])
        expect(emails).toContain(email);
      expect(page.body.total).toBe(page.body.data.length);
      expect(JSON.stringify(page.body)).not.toContain('"password"');
    });

    it('an admin changes another account’s role', async () => {
      const account = await createAccount(server.database.knex);
      const patched = await call<User>('PATCH', `/users/${account._id}`, {
        body: { role: 'editor' },
        token: adminToken,
      });
      expect(patched.status).toBe(200);
      expect(patched.body.role).toBe('editor');
    });

    it('an editor reads accounts but changes only their own, never a role', async () => {
      const list = await call<Page<User>>('GET', '/users?$limit=100', { token: editor.token });
      expect(list.status).toBe(200);
      expect(list.body.data.map((u) => u._id)).toContain(memberB._id);
      // Taking over another account (the admin's) by setting its password or email is refused.
      const admin = list.body.data.find((u) => u.email === ADMIN.email);
      const takeover = await call('PATCH', `/users/${admin?._id}`, {
        body: { password: 'Takeover123' },
        token: editor.token,
      });
      expect(takeover.status).toBe(403);
      expect(await signIn(ADMIN.email, ADMIN.password)).toEqual(expect.any(String));
      expect(
        (await call('PATCH', `/users/${memberB._id}`, { body: { email: uniqueEmail('moved') }, token: editor.token }))
          .status,
      ).toBe(403);
      expect(
        (await call('PATCH', `/users/${editor._id}`, { body: { role: 'admin' }, token: editor.token })).status,
      ).toBe(403);
      expect((await call('PATCH', `/users/${editor._id}`, { body: { name: 'Ed' }, token: editor.token })).status).toBe(
        200,
      );
    });
  });
});
