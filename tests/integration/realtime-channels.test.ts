import type { Application } from '@feathersjs/feathers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  containsPassword,
  createAccount,
  restClient,
  skipReason,
  socketClient,
  startTestServer,
  uniqueEmail,
  type SocketClient,
  type TestAccount,
} from './harness.ts';

/** Realtime events over socket.io reach only the connections allowed to read the record. */

type Event = { path: string; event: string; data: Record<string, unknown> };

const EVENTS = ['created', 'patched', 'removed'] as const;
/** How long a connection that should not get an event is watched after the others got it. */
const QUIET_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe.skipIf(skipReason)('realtime channels', () => {
  let server: RunningServer;
  let admin: Application;
  const sockets: Record<string, SocketClient> = {};
  /** Every event each watched socket received, by socket name. */
  const received: Record<string, Event[]> = {};
  let memberA: TestAccount;
  let memberB: TestAccount;

  const of = (name: string, path: string, event?: string) =>
    (received[name] ?? []).filter((e) => e.path === path && (event === undefined || e.event === event));

  /** A socket that records every service event it receives; signed in when an account is given. */
  async function watcher(name: string, account?: { email: string; password: string }): Promise<SocketClient> {
    const s = socketClient(server.url);
    sockets[name] = s;
    received[name] = [];
    for (const path of ['industries', 'users']) {
      for (const event of EVENTS)
        s.client
          .service(path)
          .on(event, (data: Record<string, unknown>) => received[name]!.push({ path, event, data }));
    }
    if (account) await s.client.authenticate({ strategy: 'local', email: account.email, password: account.password });
    else
      await new Promise<void>((resolve) =>
        s.socket.connected ? resolve() : s.socket.once('connect', () => resolve()),
      );
    return s;
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = restClient(server.url);
    await admin.authenticate({ strategy: 'local', ...ADMIN });
    [memberA, memberB] = await Promise.all([
      createAccount(server.database.knex, { label: 'member-a' }),
      createAccount(server.database.knex, { label: 'member-b' }),
    ]);
    await Promise.all([
      watcher('anonymous'),
      watcher('admin', ADMIN),
      watcher('memberA', memberA),
      watcher('memberB', memberB),
    ]);
  });
  afterAll(async () => {
    for (const s of Object.values(sockets)) s.close();
    await server?.close();
  });

  it('sends patched events of a public service (industries) to anonymous and signed-in sockets', async () => {
    const page = (await admin.service('industries').find({ query: { $limit: 1 } })) as {
      data: { _id: string; order: number }[];
    };
    const industry = page.data[0]!;
    await admin.service('industries').patch(industry._id, { order: industry.order + 100 });
    for (const name of ['anonymous', 'admin', 'memberA', 'memberB']) {
      await until(
        () => of(name, 'industries', 'patched').some((e) => e.data._id === industry._id),
        `${name} to get industries patched`,
      );
    }
    expect(of('anonymous', 'industries', 'patched').find((e) => e.data._id === industry._id)?.data).toMatchObject({
      order: industry.order + 100,
    });
    await admin.service('industries').patch(industry._id, { order: industry.order });
  });

  it('sends a user record event to admins and that user, never to anonymous sockets or other members', async () => {
    await admin.service('users').patch(memberA._id, { name: 'Renamed by admin' });
    await until(
      () => of('admin', 'users', 'patched').some((e) => e.data._id === memberA._id),
      'the admin to get users patched',
    );
    await until(
      () => of('memberA', 'users', 'patched').some((e) => e.data._id === memberA._id),
      'the member to get their own record',
    );
    await sleep(QUIET_MS);
    expect(of('anonymous', 'users')).toEqual([]);
    expect(of('memberB', 'users')).toEqual([]);
    expect(of('admin', 'users', 'patched').find((e) => e.data._id === memberA._id)?.data).toMatchObject({
      name: 'Renamed by admin',
    });
  });

  it('never sends a password, not even when a member changes theirs over the socket', async () => {
    await sockets
      .memberA!.client.service('users')
      .patch(memberA._id, { password: 'Changed123', currentPassword: memberA.password });
    memberA.password = 'Changed123';
    await until(
      () => of('admin', 'users', 'patched').filter((e) => e.data._id === memberA._id).length >= 2,
      'the admin to see the change',
    );
    // A change made inside the server (no transport: its result keeps the hash) is cleaned for events too.
    await server.api.service('users').patch(memberA._id, { name: 'Changed in-process' });
    await until(
      () => of('admin', 'users', 'patched').some((e) => e.data.name === 'Changed in-process'),
      'the in-process change',
    );
    await sleep(QUIET_MS);
    expect(of('memberB', 'users')).toEqual([]);
    expect(of('anonymous', 'users')).toEqual([]);
    for (const [name, events] of Object.entries(received))
      expect(containsPassword(events), `events of ${name}`).toBe(false);
  });

  it('sends a registration (users created) to admins only', async () => {
    const email = uniqueEmail('late');
    const user = (await restClient(server.url).service('users').create({ email, password: 'Member123' })) as {
      _id: string;
    };
    await until(
      () => of('admin', 'users', 'created').some((e) => e.data._id === user._id),
      'the admin to get users created',
    );
    await sleep(QUIET_MS);
    expect(of('anonymous', 'users')).toEqual([]);
    expect(of('memberB', 'users')).toEqual([]);
    expect(of('memberA', 'users', 'created')).toEqual([]);
    expect(containsPassword(of('admin', 'users'))).toBe(false);
  });

  /** Waits for the admin to see a change to `userId`, then for the quiet period. */
  async function adminSees(userId: string, name: string) {
    await until(
      () => of('admin', 'users', 'patched').some((e) => e.data._id === userId && e.data.name === name),
      `the admin to see ${name}`,
    );
    await sleep(QUIET_MS);
  }

  it('a token signed out elsewhere (REST) stops its socket’s user events at once', async () => {
    const account = await createAccount(server.database.knex, { label: 'member-c' });
    const c = await watcher('memberC', account);
    const token = (await c.client.authentication.getAccessToken()) as string;
    const logout = await fetch(`${server.url}/api/authentication`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logout.status).toBe(200);
    await admin.service('users').patch(account._id, { name: 'After REST logout' });
    await adminSees(account._id, 'After REST logout');
    expect(of('memberC', 'users')).toEqual([]);
  });

  it('a socket signed in again as someone else loses the first user’s channels', async () => {
    const s = await watcher('switcher', ADMIN);
    await s.client.authenticate({ strategy: 'local', email: memberA.email, password: memberA.password });
    await admin.service('users').patch(memberB._id, { name: 'Seen by staff only' });
    await adminSees(memberB._id, 'Seen by staff only');
    expect(of('switcher', 'users').filter((e) => e.data._id === memberB._id)).toEqual([]);
  });

  it('an editor demoted to member stops getting other users’ events', async () => {
    const account = await createAccount(server.database.knex, { role: 'editor' });
    await watcher('editor', account);
    await admin.service('users').patch(memberB._id, { name: 'Seen by the editor' });
    await until(() => of('editor', 'users').some((e) => e.data.name === 'Seen by the editor'), 'the editor');
    await admin.service('users').patch(account._id, { role: 'member' });
    await admin.service('users').patch(memberB._id, { name: 'Not for members' });
    await adminSees(memberB._id, 'Not for members');
    expect(of('editor', 'users').filter((e) => e.data.name === 'Not for members')).toEqual([]);
    // Their own record still reaches them.
    expect(of('editor', 'users').some((e) => e.data._id === account._id && e.data.role === 'member')).toBe(true);
  });

  it('after logout a socket no longer gets its user events, but still public ones', async () => {
    await sockets.memberB!.client.logout();
    received.memberB = [];
    await admin.service('users').patch(memberB._id, { name: 'After logout' });
    const page = (await admin.service('industries').find({ query: { $limit: 1 } })) as {
      data: { _id: string; order: number }[];
    };
    await admin.service('industries').patch(page.data[0]!._id, { order: page.data[0]!.order });
    await until(
      () => of('admin', 'users', 'patched').some((e) => e.data._id === memberB._id && e.data.name === 'After logout'),
      'the admin',
    );
    await until(() => of('memberB', 'industries', 'patched').length > 0, 'the signed-out socket to get public events');
    await sleep(QUIET_MS);
    expect(of('memberB', 'users')).toEqual([]);
  });
});
