import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  createAccount,
  rejectionOf,
  skipReason,
  socketClient,
  startTestServer,
  type SocketClient,
} from './harness.ts';

/**
 * An authenticated call reuses the session verified a moment ago (REST) or the connection's
 * sign-in (socket) instead of verifying the token and loading the user again; a sign-out, a role
 * change or the account's removal still takes effect on the very next call.
 */

describe.skipIf(skipReason)('authenticated calls and their sessions', () => {
  let server: RunningServer;
  let adminToken: string;
  const sockets: SocketClient[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    adminToken = (await signIn(ADMIN)).token;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  async function api(method: string, path: string, token?: string, body?: unknown) {
    const response = await fetch(`${server.url}/api${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  async function signIn(account: { email: string; password: string }) {
    const { status, body } = await api('POST', '/authentication', undefined, {
      strategy: 'local',
      email: account.email,
      password: account.password,
    });
    expect(status).toBe(201);
    return { token: body.accessToken as string, userId: (body.user as { _id: string })._id };
  }
  async function signedInSocket(account: { email: string; password: string }) {
    const s = socketClient(server.url);
    sockets.push(s);
    const { accessToken } = await s.client.authenticate({
      strategy: 'local',
      email: account.email,
      password: account.password,
    });
    return { socket: s, token: accessToken as string };
  }
  /** The SQL sent while `action` runs. */
  async function queriesDuring(action: () => Promise<unknown>): Promise<string[]> {
    const sql: string[] = [];
    const capture = (query: { sql: string }) => sql.push(query.sql);
    server.database.knex.on('query', capture);
    try {
      await action();
    } finally {
      server.database.knex.off('query', capture);
    }
    return sql;
  }
  const authQueries = (sql: string[]) =>
    sql.filter((statement) => /revoked_tokens/.test(statement) || /from "users" where "id" = /.test(statement));

  it('a REST call with a token used a moment ago sends only its own queries', async () => {
    const editor = await createAccount(server.database.knex, { role: 'editor' });
    const { token } = await signIn(editor);
    expect((await api('GET', '/users?$limit=1', token)).status).toBe(200);
    let status = 0;
    const sql = await queriesDuring(async () => {
      status = (await api('GET', '/users?$limit=1', token)).status;
    });
    expect(status).toBe(200);
    expect(authQueries(sql)).toEqual([]);
    expect(sql).toHaveLength(2); // the page and its count
  });

  it('a socket call sends only its own queries', async () => {
    const editor = await createAccount(server.database.knex, { role: 'editor' });
    const { socket } = await signedInSocket(editor);
    await socket.client.service('users').find({ query: { $limit: 1 } });
    const sql = await queriesDuring(() => socket.client.service('users').find({ query: { $limit: 1 } }));
    expect(authQueries(sql)).toEqual([]);
    expect(sql).toHaveLength(2);
  });

  it('a role change applies to the next call over REST and socket', async () => {
    const editor = await createAccount(server.database.knex, { role: 'editor' });
    const { token } = await signIn(editor);
    const { socket } = await signedInSocket(editor);
    // Staff read every account; a member only their own.
    expect((await api('GET', '/users?$limit=1', token)).body.total).toBeGreaterThan(1);
    expect(
      ((await socket.client.service('users').find({ query: { $limit: 1 } })) as { total: number }).total,
    ).toBeGreaterThan(1);

    expect((await api('PATCH', `/users/${editor._id}`, adminToken, { role: 'member' })).status).toBe(200);

    expect((await api('GET', '/users?$limit=1', token)).body.total).toBe(1);
    expect(((await socket.client.service('users').find({ query: { $limit: 1 } })) as { total: number }).total).toBe(1);
    expect((await api('GET', '/users?$limit=1', token)).body.total).toBe(1);
  });

  it("a removed account's token is refused on the next call, and its socket is closed", async () => {
    const member = await createAccount(server.database.knex);
    const { token } = await signIn(member);
    const { socket } = await signedInSocket(member);
    expect((await api('GET', `/users/${member._id}`, token)).status).toBe(200);
    expect(await socket.client.service('users').get(member._id)).toMatchObject({ _id: member._id });

    expect((await api('DELETE', `/users/${member._id}`, adminToken)).status).toBe(200);

    const after = await api('GET', `/users/${member._id}`, token);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ name: 'NotAuthenticated' });
    expect(await socket.closedWithin()).toBe('io server disconnect');
  });

  it('a token signed out over REST is refused at once over REST, and the socket that signed in with it is closed', async () => {
    const member = await createAccount(server.database.knex);
    const { socket, token } = await signedInSocket(member);
    expect((await api('GET', `/users/${member._id}`, token)).status).toBe(200);
    expect(await socket.client.service('users').get(member._id)).toMatchObject({ _id: member._id });

    expect((await api('DELETE', '/authentication', token)).status).toBe(200);

    expect((await api('GET', `/users/${member._id}`, token)).status).toBe(401);
    expect(await socket.closedWithin()).toBe('io server disconnect');
    // A socket that signs in with it again is refused.
    const again = socketClient(server.url);
    sockets.push(again);
    expect(await rejectionOf(again.client.authenticate({ strategy: 'jwt', accessToken: token }))).toMatchObject({
      name: 'NotAuthenticated',
      code: 401,
    });
  });
});
