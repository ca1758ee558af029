import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../domain/entities/index.ts';
import { columnOf, type EntityDef, ROLES, type Role } from '../../domain/entities/types.ts';
import type { Knex } from 'knex';
import { newId } from '../../server/db/ids.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  createAccount,
  skipReason,
  socketClient,
  startTestServer,
  uniqueEmail,
  type FeathersErrorJSON,
  type SocketClient,
  type TestAccount,
} from './harness.ts';

/**
 * Field-level write rules (`writable` in the definitions) for every role, patch syntax and
 * transport; changing one's own credentials; ending an account's sessions.
 */

let nextAddress = 1;
const newAddress = () => `10.7.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

type Transport = 'rest' | 'socket';
type Signed = TestAccount & { token: string };

/** Every way a client can write one top-level field: plain data, `$set`, a dotted `$set` path, `$push`, `$pull`. */
const SYNTAXES: Record<string, (field: string, value: unknown) => Record<string, unknown>> = {
  plain: (field, value) => ({ [field]: value }),
  $set: (field, value) => ({ $set: { [field]: value } }),
  '$set path': (field, value) => ({ $set: { [`${field}.0`]: value } }),
  $push: (field, value) => ({ $push: { [field]: value } }),
  $pull: (field, value) => ({ $pull: { [field]: value } }),
};

/**
 * Two values of each limited field that a write may set (the first one matters when written by
 * someone who may not): the test writes one and then the other.
 */
const VALUES: Record<string, readonly [unknown, unknown]> = {
  'users.role': ['admin', 'member'],
  'attachments.alt': [{ en: 'A shop front' }, { en: 'The counter', 'zh-hk': '收銀枱' }],
  'enquiries.followUp': ['closed', 'contacted'],
  'enquiries.notes': ['Called back.', 'Demo booked.'],
  'contactForms.followUp': ['closed', 'contacted'],
  'contactForms.notes': ['Called back.', 'Demo booked.'],
  'subscribers.followUp': ['closed', 'contacted'],
  'subscribers.notes': ['Called back.', 'Demo booked.'],
};

/**
 * A record of an account's own that the account may patch, for each entity with a limited field:
 * the account itself, or a row it owns written straight to the table. A lead (an enquiry, a form,
 * a subscriber) is no one's: members are refused by the method's access before any field rule.
 */
const OWN_RECORDS: Record<string, (knex: Knex, account: TestAccount) => Promise<string>> = {
  users: async (_knex, account) => account._id,
  attachments: async (knex, account) => {
    const id = newId();
    await knex('attachments').insert({
      id,
      name: 'shop.jpg',
      mime: 'image/jpeg',
      size: 1,
      folder: 'profile',
      uploaded_by: account._id,
    });
    return id;
  },
  enquiries: async (knex, account) => {
    const id = newId();
    await knex('enquiries').insert({
      id,
      salutation: 'ms',
      first_name: 'Mei',
      last_name: 'Chan',
      company_name: 'Chan Noodles',
      customer_type: 'new',
      business_type: 'restaurant',
      plan_needed: 'restaurant-flexi',
      email: account.email,
      country_code: '+852',
      phone: '91234567',
      consultation_type: 'demonstration',
      personal_data_consent: true,
    });
    return id;
  },
  contactForms: async (knex, account) => {
    const id = newId();
    await knex('contact_forms').insert({
      id,
      name: 'Ken Lee',
      phone: '91234567',
      email: account.email,
      company_name: 'Lee Hardware',
    });
    return id;
  },
  subscribers: async (knex) => {
    const id = newId();
    await knex('subscribers').insert({ id, email: uniqueEmail('lead'), campaign: '23hkrace' });
    return id;
  },
};

/**
 * Fields whose definition limits who writes them, with values that would matter if written. The
 * apps' own population (app users and their rows: `owner.of: 'appUsers'`) has no member who owns
 * a record there: its limited fields are held by app-users.test.ts.
 */
const LIMITED_FIELDS = Object.values(entities)
  .filter((def) => def.owner?.of !== 'appUsers')
  .flatMap((def) =>
    Object.entries(def.fields)
      .filter(([, field]) => field.writable)
      .map(([name, field]) => {
        const [value, other] = VALUES[`${def.service}.${name}`] ?? [field.enum?.at(-1) ?? 'x', field.enum?.[0] ?? 'y'];
        return { def, name, column: columnOf(name, field), allowed: field.writable as readonly Role[], value, other };
      }),
  );

describe.skipIf(skipReason)('account security', () => {
  let server: RunningServer;
  const accounts = {} as Record<Role, Signed>;
  const sockets: SocketClient[] = [];

  async function call<T = unknown>(method: string, path: string, options: { body?: unknown; token?: string } = {}) {
    const response = await fetch(`${server.url}/api${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'x-forwarded-for': newAddress(),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    return { status: response.status, body: (await response.json()) as T & FeathersErrorJSON };
  }
  const signIn = async (email: string, password: string) =>
    (await call<{ accessToken: string }>('POST', '/authentication', { body: { strategy: 'local', email, password } }))
      .body.accessToken;
  const withToken = async (account: TestAccount): Promise<Signed> => ({
    ...account,
    token: await signIn(account.email, account.password),
  });

  /** A socket signed in with a token, as the portal's client does. */
  async function socketOf(token: string): Promise<SocketClient> {
    const socket = socketClient(server.url, { 'x-forwarded-for': newAddress() });
    sockets.push(socket);
    await socket.client.authenticate({ strategy: 'jwt', accessToken: token });
    return socket;
  }

  /** A patch over one transport, answered as a status and a body either way. */
  async function patchOver(
    transport: Transport,
    token: string,
    path: string,
    id: string,
    data: Record<string, unknown>,
  ) {
    if (transport === 'rest') return call(`PATCH`, `/${path}/${id}`, { body: data, token });
    const socket = await socketOf(token);
    try {
      return { status: 200, body: await socket.client.service(path).patch(id, data) };
    } catch (error) {
      const e = error as FeathersErrorJSON;
      return { status: e.code, body: e };
    } finally {
      socket.close();
    }
  }

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    const knex = server.database.knex;
    for (const role of ROLES)
      accounts[role] = await withToken(await createAccount(knex, { role, label: `security-${role}` }));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
  });

  const ownRecord = (def: EntityDef, account: TestAccount) =>
    (OWN_RECORDS[def.service] as (knex: Knex, account: TestAccount) => Promise<string>)(server.database.knex, account);
  const storedValue = async (def: EntityDef, column: string, id: string) =>
    (await server.database.knex(def.table).where({ id }).first(column))?.[column];

  it('covers every field that a definition limits', () => {
    // A new limited field needs values (VALUES) and a record each role may otherwise patch (OWN_RECORDS).
    expect(LIMITED_FIELDS.map(({ def, name }) => `${def.service}.${name}`)).toEqual(
      expect.arrayContaining(['users.role', 'attachments.alt']),
    );
    for (const { def, name } of LIMITED_FIELDS) {
      expect(OWN_RECORDS[def.service], `${def.service}: a patchable record per role`).toBeDefined();
      expect(VALUES[`${def.service}.${name}`], `${def.service}.${name}: values to write`).toBeDefined();
    }
  });

  describe.each(LIMITED_FIELDS)('$def.service.$name', ({ def, name, column, allowed, value, other }) => {
    const refused = ROLES.filter((role) => !allowed.includes(role));
    const cases = refused.flatMap((role) =>
      (['rest', 'socket'] as const).flatMap((transport) =>
        Object.keys(SYNTAXES).map((syntax) => ({ role, transport, syntax })),
      ),
    );

    it.each(cases)(
      'is refused to a $role patching their own record with $syntax over $transport',
      async ({ role, transport, syntax }) => {
        const account = accounts[role];
        const id = await ownRecord(def, account);
        const before = await storedValue(def, column, id);
        const answer = await patchOver(
          transport,
          account.token,
          def.service,
          id,
          (SYNTAXES[syntax] as (f: string, v: unknown) => Record<string, unknown>)(name, value),
        );
        expect(answer.status).toBe(403);
        // A role the method itself refuses is told so before any field is looked at.
        const refusedField =
          def.access.patch !== 'none' && (typeof def.access.patch === 'string' || def.access.patch.includes(role));
        expect(answer.body).toMatchObject(
          refusedField
            ? { name: 'Forbidden', errors: { [name]: 'You may not change this field.' } }
            : { name: 'Forbidden' },
        );
        expect(await storedValue(def, column, id)).toEqual(before);
      },
    );

    it.each(allowed.flatMap((role) => (['rest', 'socket'] as const).map((transport) => ({ role, transport }))))(
      'is written by a $role over $transport, plain and with $set',
      async ({ role, transport }) => {
        // Someone else's record: those who may write the field reach every row.
        const target = await ownRecord(def, await createAccount(server.database.knex, { label: 'promoted' }));
        const caller = accounts[role];
        expect((await patchOver(transport, caller.token, def.service, target, { [name]: value })).status).toBe(200);
        expect(await storedValue(def, column, target)).toEqual(value);
        expect(
          (await patchOver(transport, caller.token, def.service, target, { $set: { [name]: other } })).status,
        ).toBe(200);
        expect(await storedValue(def, column, target)).toEqual(other);
      },
    );
  });

  it('refuses a role in a registration, whatever the syntax', async () => {
    for (const body of [{ role: 'admin' }, { $set: { role: 'admin' } }]) {
      const answer = await call('POST', '/users', {
        body: { email: uniqueEmail('climber'), password: 'Climber123', ...body },
      });
      expect(answer.status).toBe(403);
    }
    const climbers = await server.database.knex('users').where('email', 'like', 'climber-%').select('role');
    expect(climbers).toEqual([]);
  });

  describe('own credentials', () => {
    it.each(['rest', 'socket'] as const)('need the current password to change over %s', async (transport) => {
      const member = await withToken(await createAccount(server.database.knex, { label: `credentials-${transport}` }));
      for (const data of [
        { password: 'Takeover123' },
        { $set: { password: 'Takeover123' } },
        { email: uniqueEmail('takeover') },
        { $set: { email: uniqueEmail('takeover') } },
        { password: 'Takeover123', currentPassword: 'wrong-password' },
        { password: 'Takeover123', currentPassword: { $ne: null } },
      ]) {
        const answer = await patchOver(transport, member.token, 'users', member._id, data);
        expect(answer.status, JSON.stringify(data)).toBe(400);
        expect((answer.body as FeathersErrorJSON).errors).toHaveProperty('currentPassword');
      }
      // Nothing changed: the old password and address still sign in.
      expect(await signIn(member.email, member.password)).toEqual(expect.any(String));
      const wrong = await patchOver(transport, member.token, 'users', member._id, {
        password: 'Takeover123',
        currentPassword: 'Wrong12345',
      });
      expect((wrong.body as FeathersErrorJSON).errors?.currentPassword).toBe('Your current password is not correct.');

      const changed = await patchOver(transport, member.token, 'users', member._id, {
        password: 'Changed123',
        currentPassword: member.password,
      });
      expect(changed.status).toBe(200);
      expect(await signIn(member.email, 'Changed123')).toEqual(expect.any(String));
    });

    it('lets an admin set another account’s password without their own, and ends that account’s sessions', async () => {
      const member = await withToken(await createAccount(server.database.knex, { label: 'reset-by-admin' }));
      const answer = await call('PATCH', `/users/${member._id}`, {
        body: { password: 'Reset12345' },
        token: accounts.admin.token,
      });
      expect(answer.status).toBe(200);
      expect((await call('GET', `/users/${member._id}`, { token: member.token })).status).toBe(401);
      expect(await signIn(member.email, 'Reset12345')).toEqual(expect.any(String));
    });
  });

  describe('a password change ends the other sessions', () => {
    it.each(['rest', 'socket'] as const)(
      'on REST and sockets, keeping the session that changed it over %s',
      async (transport) => {
        const member = await withToken(await createAccount(server.database.knex, { label: `sessions-${transport}` }));
        const otherToken = await signIn(member.email, member.password);
        const otherSocket = await socketOf(otherToken);
        expect(await otherSocket.client.service('users').get(member._id)).toMatchObject({ _id: member._id });

        const changer = transport === 'socket' ? await socketOf(member.token) : null;
        const data = { password: 'Rotated123', currentPassword: member.password };
        if (changer) await changer.client.service('users').patch(member._id, data);
        else
          expect((await call('PATCH', `/users/${member._id}`, { body: data, token: member.token })).status).toBe(200);

        // The other token is refused over REST at once, and its socket is closed.
        const refused = await call('GET', `/users/${member._id}`, { token: otherToken });
        expect(refused.status).toBe(401);
        expect(refused.body.message).toBe('Your session has ended. Please sign in again.');
        expect(await otherSocket.closedWithin()).toBe('io server disconnect');
        // The changing session goes on, on its own transport.
        if (changer) expect(await changer.client.service('users').get(member._id)).toMatchObject({ _id: member._id });
        expect((await call('GET', `/users/${member._id}`, { token: member.token })).status).toBe(200);
        // A new sign-in gets a token for the new version of the sessions.
        const fresh = await signIn(member.email, 'Rotated123');
        expect((await call('GET', `/users/${member._id}`, { token: fresh })).status).toBe(200);
      },
    );
  });

  describe('ending an account’s sessions (userSessions)', () => {
    it('signs a member out everywhere else, keeping the session that asked', async () => {
      const member = await withToken(await createAccount(server.database.knex, { label: 'everywhere' }));
      const other = await signIn(member.email, member.password);
      const ended = await call('DELETE', `/userSessions/${member._id}`, { token: member.token });
      expect(ended).toMatchObject({ status: 200, body: { _id: member._id, sessionsEnded: true } });
      expect((await call('GET', `/users/${member._id}`, { token: other })).status).toBe(401);
      expect((await call('GET', `/users/${member._id}`, { token: member.token })).status).toBe(200);
    });

    it('lets staff end a member’s sessions, all of them', async () => {
      for (const staff of ['editor', 'admin'] as const) {
        const member = await withToken(await createAccount(server.database.knex, { label: `ended-by-${staff}` }));
        const socket = await socketOf(member.token);
        expect((await call('DELETE', `/userSessions/${member._id}`, { token: accounts[staff].token })).status).toBe(
          200,
        );
        expect((await call('GET', `/users/${member._id}`, { token: member.token })).status).toBe(401);
        expect(await socket.closedWithin()).toBe('io server disconnect');
        // The staff member's own session is untouched.
        expect((await call('GET', `/users/${member._id}`, { token: accounts[staff].token })).status).toBe(200);
      }
    });

    it('refuses whoever may not: a member for another account, an editor for staff, anyone signed out', async () => {
      const victim = await withToken(await createAccount(server.database.knex, { label: 'victim' }));
      const admin = (
        await call<{ data: { _id: string; email: string }[] }>('GET', `/users?email=${ADMIN.email}`, {
          token: accounts.admin.token,
        })
      ).body.data[0];
      expect((await call('DELETE', `/userSessions/${victim._id}`, { token: accounts.member.token })).status).toBe(403);
      expect((await call('DELETE', `/userSessions/${admin?._id}`, { token: accounts.editor.token })).status).toBe(403);
      expect(
        (await call('DELETE', `/userSessions/${accounts.admin._id}`, { token: accounts.editor.token })).status,
      ).toBe(403);
      expect((await call('DELETE', `/userSessions/${victim._id}`)).status).toBe(401);
      expect((await call('DELETE', `/userSessions/${'x'.repeat(80)}`, { token: accounts.admin.token })).status).toBe(
        400,
      );
      // Nothing of theirs ended.
      expect((await call('GET', `/users/${victim._id}`, { token: victim.token })).status).toBe(200);
      expect((await call('GET', '/users', { token: accounts.admin.token })).status).toBe(200);
    });
  });
});
