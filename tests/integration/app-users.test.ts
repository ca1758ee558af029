import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { isAppToken } from '../../server/auth/app-users.ts';
import {
  accessTokenOf,
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
 * The users of the company's apps (decision 053) through both transports: they sign up, sign in
 * through `appAuthentication` and keep to their own record; staff find, change and disable them;
 * an editor never touches their credentials; disabling ends their sessions at once. Their token
 * opens nothing of the members' and staff's (the sweep over every service is in
 * app-user-isolation.test.ts).
 */

let nextAddress = 1;
const address = () => `10.53.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

type Body = Record<string, unknown>;

describe.skipIf(skipReason)('the apps’ users', () => {
  let server: RunningServer;
  let editor: TestAccount;
  let admin: TestAccount;
  let member: TestAccount;
  const staff = {} as Record<'editor' | 'admin' | 'member', string>;
  const sockets: SocketClient[] = [];

  const rest = (method: string, path: string, options: { token?: string; body?: unknown; locale?: string } = {}) =>
    restCall(server.url, method, path, { ...options, address: address() });

  /** Signs an app user up over REST and answers the record and the password. */
  async function signUp(overrides: Body = {}) {
    const password = 'Kowloon2026';
    const email = uniqueEmail('app');
    const { status, body } = await rest('POST', 'appUsers', {
      body: {
        name: 'Chan Tai Man',
        email: email.toUpperCase(),
        password,
        date: '1990-05-17',
        gender: 'male',
        ...overrides,
      },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return { record: body as Body & { _id: string }, email, password };
  }

  async function appSignIn(email: string, password: string) {
    return rest('POST', 'appAuthentication', { body: { strategy: 'local', email, password } });
  }

  async function appTokenOf(email: string, password: string): Promise<string> {
    const { status, body } = await appSignIn(email, password);
    expect(status, JSON.stringify(body)).toBe(201);
    return body.accessToken as string;
  }

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    editor = await createAccount(server.database.knex, { role: 'editor', label: 'apps-editor' });
    admin = await createAccount(server.database.knex, { role: 'admin', label: 'apps-admin' });
    member = await createAccount(server.database.knex, { role: 'member', label: 'apps-member' });
    staff.editor = await accessTokenOf(server.url, editor, address());
    staff.admin = await accessTokenOf(server.url, admin, address());
    staff.member = await accessTokenOf(server.url, member, address());
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
  });

  it('sign up with a lower-cased email, a date of birth kept as the day, and no password in the answer', async () => {
    const { record, email } = await signUp();
    expect(record).toMatchObject({
      email,
      name: 'Chan Tai Man',
      date: '1990-05-17',
      gender: 'male',
      locale: 'en',
      region: 'hk',
    });
    expect(record).not.toHaveProperty('password');
    expect(record.disabledAt).toBeNull();
    const row = await server.database.knex('app_users').where('id', record._id).first('password', 'birth_date');
    expect(row.password).toMatch(/^\$argon2/);
    expect(row.birth_date).toBe('1990-05-17');
  });

  it('refuse a sign-up with a used email, a day that does not exist or one in the future, in the caller’s language', async () => {
    const { email } = await signUp();
    const again = await rest('POST', 'appUsers', {
      body: { name: 'Another', email, password: 'Kowloon2026' },
      locale: 'zh-hk',
    });
    expect(again.status).toBe(409);
    expect((again.body.errors as Body).email).toBe('帳戶已存在');
    const badDay = await rest('POST', 'appUsers', {
      body: { name: 'Lee', email: uniqueEmail('app'), password: 'Kowloon2026', date: '1990-02-30' },
    });
    expect(badDay.status).toBe(400);
    expect((badDay.body.errors as Body).date).toBe('Enter a day as YYYY-MM-DD.');
    const future = await rest('POST', 'appUsers', {
      body: { name: 'Lee', email: uniqueEmail('app'), password: 'Kowloon2026', date: '2999-01-01' },
      locale: 'zh-cn',
    });
    expect(future.status).toBe(400);
    expect((future.body.errors as Body).date).toMatch(/[\u4e00-\u9fff]/);
    const gender = await rest('POST', 'appUsers', {
      body: { name: 'Lee', email: uniqueEmail('app'), password: 'Kowloon2026', gender: 'other' },
    });
    expect(gender.status).toBe(400);
    // A sign-up never sets what the server or staff set.
    const disabled = await rest('POST', 'appUsers', {
      body: { name: 'Lee', email: uniqueEmail('app'), password: 'Kowloon2026', disabledAt: new Date().toISOString() },
    });
    expect(disabled.status).toBe(403);
    const count = await server.database.knex('app_users').where('name', 'Lee').count({ n: '*' }).first();
    expect(Number(count?.n)).toBe(0);
  });

  it('sign in through their own service, with a token of their own audience that the members’ sign-in refuses', async () => {
    const { email, password, record } = await signUp();
    const signedIn = await appSignIn(email, password);
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.appUser).toMatchObject({ _id: record._id, email });
    expect(signedIn.body).not.toHaveProperty('user');
    expect(JSON.stringify(signedIn.body)).not.toContain('$argon2');
    const token = signedIn.body.accessToken as string;
    expect(isAppToken(token)).toBe(true);
    expect(isAppToken(staff.member)).toBe(false);
    // An app user is not a member: the members' sign-in does not know the account.
    const asMember = await rest('POST', 'authentication', { body: { strategy: 'local', email, password } });
    expect(asMember.status).toBe(401);
    // Nor is a member an app user, and a member's token does not sign an app user in.
    const memberAsApp = await appSignIn(member.email, member.password);
    expect(memberAsApp.status).toBe(401);
    const memberTokenAsApp = await rest('POST', 'appAuthentication', {
      body: { strategy: 'jwt', accessToken: staff.member },
    });
    expect(memberTokenAsApp.status).toBe(401);
    expect((await rest('POST', 'appAuthentication', { body: { strategy: 'ticket', ticket: 'x' } })).status).toBe(401);
    // Their token checked by the members' authentication (as the portal's pages and downloads do) is refused.
    const asMemberToken = await rest('POST', 'authentication', { body: { strategy: 'jwt', accessToken: token } });
    expect(asMemberToken.status).toBe(401);
    const lastSignIn = await server.database.knex('app_users').where('id', record._id).first('last_sign_in_at');
    expect(lastSignIn.last_sign_in_at).toBeInstanceOf(Date);
  });

  it('read and change their own record alone; credentials need the current password', async () => {
    const me = await signUp();
    const other = await signUp();
    const token = await appTokenOf(me.email, me.password);
    const own = await rest('GET', `appUsers/${me.record._id}`, { token });
    expect(own.status).toBe(200);
    expect((await rest('GET', `appUsers/${other.record._id}`, { token })).status).toBe(404);
    const list = await rest('GET', 'appUsers', { token });
    expect(list.status).toBe(200);
    expect((list.body.data as Body[]).map((row) => row._id)).toEqual([me.record._id]);

    const renamed = await rest('PATCH', `appUsers/${me.record._id}`, {
      token,
      body: { name: '陳大文', locale: 'zh-hk' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: '陳大文', locale: 'zh-hk' });
    expect((await rest('PATCH', `appUsers/${other.record._id}`, { token, body: { name: 'x' } })).status).toBe(404);

    const newEmail = uniqueEmail('app-new');
    const without = await rest('PATCH', `appUsers/${me.record._id}`, { token, body: { email: newEmail } });
    expect(without.status).toBe(400);
    expect(without.body.errors).toHaveProperty('currentPassword');
    const wrong = await rest('PATCH', `appUsers/${me.record._id}`, {
      token,
      body: { $set: { email: newEmail }, currentPassword: 'Wrong12345' },
    });
    expect(wrong.status).toBe(400);
    const right = await rest('PATCH', `appUsers/${me.record._id}`, {
      token,
      body: { email: newEmail, currentPassword: me.password },
    });
    expect(right.status).toBe(200);
    expect(right.body.email).toBe(newEmail);
    // Nor may they disable or un-disable themselves, in any syntax.
    for (const body of [{ disabledAt: null }, { $set: { disabledAt: new Date().toISOString() } }]) {
      expect((await rest('PATCH', `appUsers/${me.record._id}`, { token, body })).status).toBe(403);
    }
  });

  it('a new password ends every other session of theirs', async () => {
    const me = await signUp();
    const first = await appTokenOf(me.email, me.password);
    const second = await appTokenOf(me.email, me.password);
    const changed = await rest('PATCH', `appUsers/${me.record._id}`, {
      token: first,
      body: { password: 'NewHarbour2027', currentPassword: me.password },
    });
    expect(changed.status).toBe(200);
    expect((await rest('GET', `appUsers/${me.record._id}`, { token: second })).status).toBe(401);
    expect((await appSignIn(me.email, me.password)).status).toBe(401);
    expect((await appSignIn(me.email, 'NewHarbour2027')).status).toBe(201);
  });

  it('are found, filtered and changed by staff; their credentials by an admin alone', async () => {
    const me = await signUp({ region: 'sg', gender: 'female', name: 'Tan Mei Ling' });
    const found = await rest('GET', `appUsers?region=sg&gender=female&$sort[createdAt]=-1`, {
      token: staff.editor,
    });
    expect(found.status).toBe(200);
    expect((found.body.data as Body[]).map((row) => row._id)).toContain(me.record._id);
    const searched = await rest(
      'GET',
      `appUsers?${new URLSearchParams({ '$or[0][email][$regex]': me.email.slice(0, 12), '$or[0][email][$options]': 'i' })}`,
      { token: staff.editor },
    );
    expect(searched.status).toBe(200);
    expect((searched.body.data as Body[]).map((row) => row._id)).toContain(me.record._id);

    expect(
      (await rest('PATCH', `appUsers/${me.record._id}`, { token: staff.editor, body: { name: 'Tan M L' } })).status,
    ).toBe(200);
    for (const body of [
      { email: uniqueEmail('x') },
      { password: 'Editor20261' },
      { $set: { password: 'Editor20261' } },
    ]) {
      const refused = await rest('PATCH', `appUsers/${me.record._id}`, { token: staff.editor, body });
      expect(refused.status, JSON.stringify(body)).toBe(403);
    }
    const byAdmin = await rest('PATCH', `appUsers/${me.record._id}`, {
      token: staff.admin,
      body: { password: 'Admin2026Set' },
    });
    expect(byAdmin.status).toBe(200);
    expect((await appSignIn(me.email, 'Admin2026Set')).status).toBe(201);
    // A member is neither staff nor the app user.
    expect((await rest('GET', 'appUsers', { token: staff.member })).status).toBe(403);
    expect((await rest('GET', `appUsers/${me.record._id}`, { token: staff.member })).status).toBe(403);
    expect((await rest('GET', 'appUsers')).status).toBe(401);
    // Removing: an admin, not an editor.
    expect((await rest('DELETE', `appUsers/${me.record._id}`, { token: staff.editor })).status).toBe(403);
  });

  it('disabled by staff, their tokens stop at once and their socket is closed; signing in says why', async () => {
    const me = await signUp();
    const token = await appTokenOf(me.email, me.password);
    const socket = socketClient(server.url, { 'x-forwarded-for': address() });
    sockets.push(socket);
    const signedIn = (await socket.client
      .service('appAuthentication')
      .create({ strategy: 'jwt', accessToken: token })) as Body;
    expect((signedIn.appUser as Body)._id).toBe(me.record._id);
    const mine = (await socket.client.service('appUsers').get(me.record._id)) as Body;
    expect(mine.email).toBe(me.email);
    expect((await rejectionOf(socket.client.service('users').find({ query: { $limit: 1 } }))).code).toBe(403);
    // A patch of their own record reaches them, and only them among app users.
    const heard = new Promise<Body>((resolve) => socket.client.service('appUsers').once('patched', resolve));
    await rest('PATCH', `appUsers/${me.record._id}`, { token: staff.editor, body: { name: 'Heard' } });
    expect((await heard).name).toBe('Heard');

    const disabled = await rest('PATCH', `appUsers/${me.record._id}`, {
      token: staff.editor,
      body: { disabledAt: new Date().toISOString() },
    });
    expect(disabled.status).toBe(200);
    expect((await rest('GET', `appUsers/${me.record._id}`, { token })).status).toBe(401);
    expect(await socket.closedWithin(3_000)).toBe('io server disconnect');
    const refused = await appSignIn(me.email, me.password);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('This account has been disabled. Please contact us.');
    // Enabled again, they sign in again (the old tokens stay ended).
    await rest('PATCH', `appUsers/${me.record._id}`, { token: staff.editor, body: { disabledAt: null } });
    expect((await appSignIn(me.email, me.password)).status).toBe(201);
    expect((await rest('GET', `appUsers/${me.record._id}`, { token })).status).toBe(401);
  });

  it('sign out: the token is refused afterwards', async () => {
    const me = await signUp();
    const token = await appTokenOf(me.email, me.password);
    const out = await rest('DELETE', `appAuthentication/${token}`, { token });
    expect(out.status).toBe(200);
    expect((await rest('GET', `appUsers/${me.record._id}`, { token })).status).toBe(401);
  });

  it('may remove their own account, and their devices stay, signed out', async () => {
    const me = await signUp();
    const token = await appTokenOf(me.email, me.password);
    const device = await rest('POST', 'appDevices', {
      token,
      body: { deviceId: `ios-${me.record._id}`, platform: 'ios' },
    });
    expect(device.status, JSON.stringify(device.body)).toBe(201);
    expect(device.body.user).toBe(me.record._id);
    expect((await rest('DELETE', `appUsers/${me.record._id}`, { token })).status).toBe(200);
    const row = await server.database.knex('app_devices').where('id', String(device.body._id)).first('app_user_id');
    expect(row.app_user_id).toBeNull();
  });
});
