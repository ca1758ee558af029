import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  accessTokenOf,
  ADMIN,
  containsPassword,
  createAccount,
  rejectionOf,
  restCall,
  skipReason,
  socketClient,
  startTestServer,
  uniqueEmail,
  type SocketClient,
  type TestAccount,
} from './harness.ts';

/**
 * The staff accounts (`admins`, decision 052), a scoped view of the users table: admins alone
 * reach it; it reads, makes and keeps staff only, whatever the patch's syntax; a password is
 * confirmed, checked and never answered; the last admin stays, and nobody demotes or removes
 * themselves; a new type or password ends the account's sessions. Editors export no personal data.
 */

type Caller = 'signed out' | 'member' | 'editor' | 'admin';
type Staff = { _id: string; email: string; name?: string | null; type: string };

let nextAddress = 1;
const address = () => `10.52.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.skipIf(skipReason)('the admins area', () => {
  let server: RunningServer;
  const accounts = {} as Record<Exclude<Caller, 'signed out'>, TestAccount>;
  const tokens = {} as Record<Exclude<Caller, 'signed out'>, string>;
  const sockets: SocketClient[] = [];

  const rest = (caller: Caller | { token: string }, method: string, path: string, body?: unknown, locale = 'en') =>
    restCall(server.url, method, path, {
      body,
      locale,
      address: address(),
      ...(caller === 'signed out' ? {} : { token: typeof caller === 'string' ? tokens[caller] : caller.token }),
    });

  /** A socket signed in with the token (or none), in a language. */
  const socketOf = async (token: string | null, locale = 'en') => {
    const socket = socketClient(server.url, { 'x-forwarded-for': address(), 'x-locale': locale });
    sockets.push(socket);
    if (token) await socket.client.authenticate({ strategy: 'jwt', accessToken: token });
    else
      await new Promise<void>((resolve) =>
        socket.socket.connected ? resolve() : socket.socket.once('connect', () => resolve()),
      );
    return socket;
  };

  /** A new staff account made by the admin through the API, with its password. */
  const newStaff = async (type: 'admin' | 'editor', password = 'Staff12345') => {
    const email = uniqueEmail(`staff-${type}`);
    const created = await rest('admin', 'POST', 'admins', {
      name: 'Lee Ka Yan',
      email,
      password,
      passwordConfirm: password,
      type,
    });
    expect(created.status).toBe(201);
    expect(containsPassword(created.body)).toBe(false);
    return { ...(created.body as Staff), password };
  };

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    for (const role of ['member', 'editor', 'admin'] as const) {
      accounts[role] = await createAccount(server.database.knex, { role, label: `admins-${role}` });
      tokens[role] = await accessTokenOf(server.url, accounts[role], address());
    }
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
  });

  it('lists the staff accounts alone, the demo ones among them, never a password', async () => {
    const page = await rest('admin', 'GET', 'admins?$limit=100&$sort[email]=1');
    expect(page.status).toBe(200);
    const staff = page.body.data as Staff[];
    const emails = staff.map((record) => record.email);
    expect(emails).toContain(ADMIN.email);
    expect(emails).toContain('editor@tillpoint.test');
    expect(emails).toContain(accounts.editor.email);
    expect(emails).not.toContain(accounts.member.email);
    expect(new Set(staff.map((record) => record.type))).toEqual(new Set(['admin', 'editor']));
    expect(containsPassword(page.body)).toBe(false);
    expect(staff.some((record) => 'sessionVersion' in record)).toBe(false);
    // Asking for members finds none; a member's record is not there to read, change or remove.
    expect((await rest('admin', 'GET', 'admins?type=member')).body.data).toEqual([]);
    expect((await rest('admin', 'GET', `admins/${accounts.member._id}`)).status).toBe(404);
    expect((await rest('admin', 'PATCH', `admins/${accounts.member._id}`, { name: 'Changed' })).status).toBe(404);
    expect((await rest('admin', 'DELETE', `admins/${accounts.member._id}`)).status).toBe(404);
    const member = await server.database.knex('users').where('id', accounts.member._id).first('name', 'role');
    expect(member).toMatchObject({ role: 'member' });
    expect(member.name).not.toBe('Changed');
  });

  it('lets an admin add an editor, who signs in with the password given', async () => {
    const editor = await newStaff('editor');
    expect(editor).toMatchObject({ type: 'editor', name: 'Lee Ka Yan' });
    const row = await server.database.knex('users').where('id', editor._id).first('role', 'password');
    expect(row.role).toBe('editor');
    // Hashed as the users service hashes it, never the text given.
    expect(row.password).not.toBe(editor.password);
    expect(row.password).toMatch(/^\$argon2/);
    const token = await accessTokenOf(server.url, editor, address());
    // An address another account has is refused, on create and on a change, as registration says it.
    const again = await rest('admin', 'POST', 'admins', {
      email: ADMIN.email,
      password: 'Staff12345',
      passwordConfirm: 'Staff12345',
      type: 'editor',
    });
    expect(again).toMatchObject({ status: 409, body: { errors: { email: 'Account already exist' } } });
    const moved = await rest('admin', 'PATCH', `admins/${editor._id}`, { email: ADMIN.email });
    expect(moved).toMatchObject({ status: 409, body: { errors: { email: 'Account already exist' } } });
    // Through users, the same account: an editor.
    expect((await rest({ token }, 'GET', `users/${editor._id}`)).body).toMatchObject({ role: 'editor' });
  });

  it('refuses a password whose confirmation differs, on the confirmation, in the caller’s language', async () => {
    const data = {
      email: uniqueEmail('differ'),
      password: 'Staff12345',
      passwordConfirm: 'Staff12346',
      type: 'editor',
    };
    const refused = await rest('admin', 'POST', 'admins', data);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ passwordConfirm: 'Password is different' });
    const socket = await socketOf(tokens.admin, 'zh-hk');
    const overSocket = await rejectionOf(socket.client.service('admins').create(data));
    expect(overSocket).toMatchObject({ code: 400, errors: { passwordConfirm: '密碼不相符' } });
    const editor = await newStaff('editor');
    const patch = await rest('admin', 'PATCH', `admins/${editor._id}`, {
      $set: { password: 'Other12345', passwordConfirm: 'Other12346' },
    });
    expect(patch.status).toBe(400);
    expect(patch.body.errors).toEqual({ passwordConfirm: 'Password is different' });
    // Nothing was made or changed.
    expect(await server.database.knex('users').where('email', data.email).first('id')).toBeUndefined();
    await accessTokenOf(server.url, editor, address());
    // The rules of every password apply: too weak is refused on the password.
    const weak = await rest('admin', 'POST', 'admins', { ...data, password: 'short', passwordConfirm: 'short' });
    expect(weak.status).toBe(400);
    expect(Object.keys(weak.body.errors as object)).toEqual(['password']);
  });

  it('makes no member and turns no staff account into one, whatever the patch’s syntax', async () => {
    const email = uniqueEmail('member-through-admins');
    const created = await rest('admin', 'POST', 'admins', {
      email,
      password: 'Staff12345',
      passwordConfirm: 'Staff12345',
      type: 'member',
    });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      message: 'This value is not allowed here: admins are administrators or editors only.',
      errors: { type: 'This value is not allowed here: admins are administrators or editors only.' },
    });
    const editor = await newStaff('editor');
    const escapes = [
      { type: 'member' },
      { $set: { type: 'member' } },
      { type: null },
      { $set: { type: 'owner' } },
      { _id: editor._id, name: 'Still staff', type: 'member' },
    ];
    for (const escape of escapes) {
      const refused = await rest('admin', 'PATCH', `admins/${editor._id}`, escape);
      expect(refused.status, JSON.stringify(escape)).toBe(400);
      expect(refused.body.errors, JSON.stringify(escape)).toHaveProperty('type');
    }
    const socket = await socketOf(tokens.admin);
    expect(
      await rejectionOf(socket.client.service('admins').patch(editor._id, { $set: { type: 'member' } })),
    ).toMatchObject({ code: 400, errors: { type: expect.any(String) } });
    // The role column is not a field of admins under its own name either.
    expect((await rest('admin', 'PATCH', `admins/${editor._id}`, { role: 'member' })).status).toBe(400);
    expect(await server.database.knex('users').where('email', email).first('id')).toBeUndefined();
    expect(await server.database.knex('users').where('id', editor._id).first('role', 'name')).toEqual({
      role: 'editor',
      name: 'Lee Ka Yan',
    });
  });

  it('is for admins alone: an editor gets 403 and a member 403 on every method, anyone signed out 401', async () => {
    const target = accounts.editor._id;
    const calls = [
      ['GET', 'admins'],
      ['GET', `admins/${target}`],
      ['POST', 'admins'],
      ['PATCH', `admins/${target}`],
      ['DELETE', `admins/${target}`],
    ] as const;
    const body = {
      email: uniqueEmail('refused'),
      password: 'Staff12345',
      passwordConfirm: 'Staff12345',
      type: 'admin',
    };
    for (const [method, path] of calls) {
      const data = method === 'POST' ? body : method === 'PATCH' ? { type: 'admin' } : undefined;
      expect((await rest('editor', method, path, data)).status, `${method} ${path}`).toBe(403);
      expect((await rest('member', method, path, data)).status, `${method} ${path}`).toBe(403);
      expect((await rest('signed out', method, path, data)).status, `${method} ${path}`).toBe(401);
    }
    const editorSocket = (await socketOf(tokens.editor)).client.service('admins');
    const anonymous = (await socketOf(null)).client.service('admins');
    for (const service of [editorSocket, anonymous]) {
      const expected = service === editorSocket ? 403 : 401;
      for (const call of [
        () => service.find({}),
        () => service.get(target),
        () => service.create(body),
        () => service.patch(target, { type: 'admin' }),
        () => service.remove(target),
      ])
        expect((await rejectionOf(call())).code).toBe(expected);
    }
    expect(await server.database.knex('users').where('id', target).first('role')).toEqual({ role: 'editor' });
    expect(await server.database.knex('users').where('email', body.email).first('id')).toBeUndefined();
  });

  it('ends an account’s sessions when its type or password changes, over REST and the socket', async () => {
    const staff = await newStaff('editor');
    const first = await accessTokenOf(server.url, staff, address());
    const socket = await socketOf(first);
    expect((await rest({ token: first }, 'GET', `users/${staff._id}`)).status).toBe(200);
    const promoted = await rest('admin', 'PATCH', `admins/${staff._id}`, { type: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ type: 'admin' });
    expect((await rest({ token: first }, 'GET', `users/${staff._id}`)).status).toBe(401);
    expect(await socket.closedWithin()).toBe('io server disconnect');
    // Signed in again, as an admin now; then a new password ends that session too.
    const second = await accessTokenOf(server.url, staff, address());
    expect((await rest({ token: second }, 'GET', 'admins?$limit=1')).status).toBe(200);
    const changed = await rest('admin', 'PATCH', `admins/${staff._id}`, {
      password: 'Fresh12345',
      passwordConfirm: 'Fresh12345',
    });
    expect(changed.status).toBe(200);
    expect(containsPassword(changed.body)).toBe(false);
    expect((await rest({ token: second }, 'GET', 'admins?$limit=1')).status).toBe(401);
    await expect(accessTokenOf(server.url, staff, address())).rejects.toThrow();
    await accessTokenOf(server.url, { email: staff.email, password: 'Fresh12345' }, address());
    // A change that keeps the type and the password keeps the sessions.
    const third = await accessTokenOf(server.url, { email: staff.email, password: 'Fresh12345' }, address());
    expect((await rest('admin', 'PATCH', `admins/${staff._id}`, { name: 'Renamed', type: 'admin' })).status).toBe(200);
    expect((await rest({ token: third }, 'GET', 'admins?$limit=1')).status).toBe(200);
  });

  it('keeps the last admin, and lets no admin demote or remove themselves', async () => {
    const knex = server.database.knex;
    // Others are admins too: one's own account is still another admin's to change.
    expect((await rest('admin', 'PATCH', `admins/${accounts.admin._id}`, { type: 'editor' })).body).toMatchObject({
      errors: {
        type: 'You cannot remove your own account or take your own administrator type away; another administrator can.',
      },
    });
    expect((await rest('admin', 'DELETE', `admins/${accounts.admin._id}`)).status).toBe(400);
    expect((await rest('admin', 'PATCH', `users/${accounts.admin._id}`, { role: 'member' })).status).toBe(400);
    expect((await rest('admin', 'DELETE', `users/${accounts.admin._id}`)).status).toBe(400);
    // Another admin is demoted and removed by this one.
    const other = await newStaff('admin');
    const demoted = await rest('admin', 'PATCH', `admins/${other._id}`, { $set: { type: 'editor' } });
    expect(demoted).toMatchObject({ status: 200, body: { type: 'editor' } });
    expect((await rest('admin', 'DELETE', `admins/${other._id}`)).status).toBe(200);
    expect(await knex('users').where('id', other._id).first('id')).toBeUndefined();

    // Now the caller is the only admin left.
    const others = (await knex('users')
      .where('role', 'admin')
      .whereNot('id', accounts.admin._id)
      .pluck('id')) as string[];
    await knex('users').whereIn('id', others).update({ role: 'editor' });
    try {
      const last = await rest('admin', 'PATCH', `admins/${accounts.admin._id}`, { type: 'editor' }, 'zh-cn');
      expect(last.status).toBe(409);
      expect(last.body.errors).toEqual({ type: '这是最后一位管理员，请先添加另一位管理员。' });
      expect((await rest('admin', 'DELETE', `admins/${accounts.admin._id}`)).status).toBe(409);
      expect((await rest('admin', 'PATCH', `users/${accounts.admin._id}`, { role: 'editor' })).status).toBe(409);
      // The server's own calls keep it too.
      const internal = await rejectionOf(server.api.service('admins').remove(accounts.admin._id));
      expect(internal).toMatchObject({ code: 409, message: 'validation.lastAdmin' });
      expect(await knex('users').where('id', accounts.admin._id).first('role')).toEqual({ role: 'admin' });
    } finally {
      await knex('users').whereIn('id', others).update({ role: 'admin' });
    }
  });

  it('lets editors export content but no personal data, over REST and the socket', async () => {
    const request = (source: string, columns: string[]) => ({ source, format: 'csv', columns });
    const personal: ReturnType<typeof request>[] = [
      request('contactForms', ['email']),
      request('users', ['email']),
      request('enquiries', ['email']),
      request('subscribers', ['email']),
      request('orders', ['number']),
      request('invoices', ['number']),
    ];
    for (const data of personal) {
      const refused = await rest('editor', 'POST', 'exports', data);
      expect(refused.status, data.source).toBe(403);
    }
    const socket = await socketOf(tokens.editor);
    expect(
      await rejectionOf(socket.client.service('exports').create(request('contactForms', ['email']))),
    ).toMatchObject({ code: 403 });
    expect(await rejectionOf(socket.client.service('exports').create(request('users', ['email'])))).toMatchObject({
      code: 403,
    });
    // Content is the editor's to export; personal data is an admin's.
    expect((await rest('editor', 'POST', 'exports', request('modules', ['name']))).status).toBe(201);
    expect((await rest('admin', 'POST', 'exports', request('contactForms', ['email']))).status).toBe(201);
    expect((await rest('admin', 'POST', 'exports', request('admins', ['email', 'type']))).status).toBe(201);
  });
  it('sends an admin to their profile page to change their own email or password, unless the current one is given', async () => {
    const own = `admins/${accounts.admin._id}`;
    expect((await rest('admin', 'PATCH', own, { name: 'Me' })).body).toMatchObject({ name: 'Me' });
    const refused = await rest('admin', 'PATCH', own, { password: 'Mine12345', passwordConfirm: 'Mine12345' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      password: 'Change your own email or password on your profile page, where your current password is asked.',
    });
    const wrong = await rest('admin', 'PATCH', own, {
      password: 'Mine12345',
      passwordConfirm: 'Mine12345',
      currentPassword: 'not it',
    });
    expect(wrong.body.errors).toHaveProperty('currentPassword');
    const changed = await rest('admin', 'PATCH', own, {
      password: 'Mine12345',
      passwordConfirm: 'Mine12345',
      currentPassword: accounts.admin.password,
    });
    expect(changed.status).toBe(200);
    // The session that changed it is kept, as on the profile page.
    expect((await rest('admin', 'GET', 'admins?$limit=1')).status).toBe(200);
    await accessTokenOf(server.url, { email: accounts.admin.email, password: 'Mine12345' }, address());
  });
});
