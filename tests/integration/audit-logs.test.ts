import type { Application } from '@feathersjs/feathers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  asRest,
  createAccount,
  type Page,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  type SocketClient,
  startTestServer,
  type TestAccount,
  untypedService,
} from './harness.ts';

/**
 * The audit log (decision 033): staff's writes through every outside path, one row per record with
 * the fields changed; nothing for members, the server's own writes or a failed call; no secret;
 * read by admins alone and written by nobody from outside.
 */

type AuditLog = {
  _id: string;
  createdAt: string | Date;
  user: string;
  userEmail: string;
  service: string;
  method: 'create' | 'patch' | 'remove';
  recordId: string;
  changes: Record<string, { before?: unknown; after?: unknown }>;
  requestId: string | null;
};
type Industry = { _id: string; key: string; name: { en: string }; order: number };

const caller = (account: TestAccount) => ({ _id: account._id, role: account.role, email: account.email });

describe.skipIf(skipReason)('audit log', () => {
  let server: RunningServer;
  let admin: TestAccount;
  let editor: TestAccount;
  let member: TestAccount;
  const sockets: SocketClient[] = [];
  let sequence = 0;

  const industries = () => untypedService(server.api, 'industries');
  /** The log's rows about one record, oldest first, read in-process. */
  const logOf = async (recordId: string) =>
    (await untypedService(server.api, 'auditLogs').find({
      paginate: false,
      query: { recordId, $sort: { createdAt: 1 } },
    })) as unknown as AuditLog[];
  const newIndustry = async () =>
    (await industries().create({
      key: `al-${(sequence += 1)}`,
      name: { en: `Audit ${sequence}` },
      order: 500 + sequence,
    })) as unknown as Industry;
  const signedIn = async (
    account: TestAccount,
    transport: 'rest' | 'socket',
    headers: Record<string, string> = {},
  ): Promise<Application> => {
    let client: Application;
    if (transport === 'rest') client = restClient(server.url, headers);
    else {
      const s = socketClient(server.url, headers);
      sockets.push(s);
      client = s.client;
    }
    await client.authenticate({ strategy: 'local', email: account.email, password: account.password });
    return client;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const { knex } = server.database;
    admin = await createAccount(knex, { role: 'admin' });
    editor = await createAccount(knex, { role: 'editor' });
    member = await createAccount(knex, { role: 'member' });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  it('records a staff patch over REST: who, when, what and the request, with only the changed fields', async () => {
    const industry = await newIndustry();
    const when = new Date('2026-03-04T05:06:07.000Z');
    server.api.set('clock', () => when);
    try {
      const client = await signedIn(editor, 'rest', { 'x-request-id': 'req-audit-1' });
      await client.service('industries').patch(industry._id, { order: 42, name: { en: industry.name.en } });
    } finally {
      server.api.set('clock', undefined);
    }
    const log = await logOf(industry._id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      user: editor._id,
      userEmail: editor.email,
      service: 'industries',
      method: 'patch',
      recordId: industry._id,
      changes: { order: { before: industry.order, after: 42 } },
      requestId: 'req-audit-1',
    });
    expect(new Date(log[0]?.createdAt ?? 0).toISOString()).toBe(when.toISOString());
  });

  it('records a create with the values after, a remove with the values before, one row per record', async () => {
    const created = (await industries().create(
      { key: 'al-created', name: { en: 'Audit Created' }, order: 7 },
      asRest(caller(admin)),
    )) as unknown as Industry;
    await industries().remove(created._id, asRest(caller(admin)));
    const [create, remove] = await logOf(created._id);
    expect(create).toMatchObject({ method: 'create', user: admin._id, requestId: null });
    expect(create?.changes).toMatchObject({
      key: { after: 'al-created' },
      name: { after: { en: 'Audit Created' } },
      order: { after: 7 },
    });
    expect(Object.values(create?.changes ?? {}).every((change) => !('before' in change))).toBe(true);
    expect(remove).toMatchObject({
      method: 'remove',
      changes: { key: { before: 'al-created' }, order: { before: 7 } },
    });
    expect(Object.values(remove?.changes ?? {}).every((change) => !('after' in change))).toBe(true);
  });

  it('records staff writes over socket.io and from pages (provider ssr) too', async () => {
    const industry = await newIndustry();
    const client = await signedIn(admin, 'socket');
    await client.service('industries').patch(industry._id, { order: 61 });
    await industries().patch(
      industry._id,
      { order: 62 },
      { provider: 'ssr', user: caller(editor), headers: { 'x-request-id': 'page-req-2' } },
    );
    const log = await logOf(industry._id);
    expect(log.map((row) => [row.user, row.changes.order, row.requestId])).toEqual([
      [admin._id, { before: industry.order, after: 61 }, null],
      [editor._id, { before: 61, after: 62 }, 'page-req-2'],
    ]);
  });

  it('records nothing for a member’s own profile patch, nor for the server’s own writes', async () => {
    const client = await signedIn(member, 'rest');
    expect(await client.service('users').patch(member._id, { name: 'Mei Member' })).toMatchObject({
      name: 'Mei Member',
    });
    expect(await logOf(member._id)).toEqual([]);
    const industry = await newIndustry();
    await industries().patch(industry._id, { order: 1 });
    expect(await logOf(industry._id)).toEqual([]);
  });

  it('records nothing for a failed patch', async () => {
    const industry = await newIndustry();
    const client = await signedIn(editor, 'rest');
    for (const data of [{ order: 'many' }, { colour: 'red' }, { _id: 'another-record', order: 3 }]) {
      expect(await rejectionOf(client.service('industries').patch(industry._id, data))).toMatchObject({ code: 400 });
    }
    expect(await rejectionOf(client.service('industries').patch('no-such-industry', { order: 3 }))).toMatchObject({
      code: 404,
    });
    expect(await rejectionOf(client.service('industries').remove(industry._id))).toMatchObject({ code: 403 });
    expect(await logOf(industry._id)).toEqual([]);
    expect(await logOf('no-such-industry')).toEqual([]);
  });

  it('never records a password, its hash, or a secret-like field', async () => {
    const client = await signedIn(admin, 'rest');
    const made = (await client
      .service('users')
      .create({ email: 'audited@example.test', password: 'Audited-Pass-123', role: 'editor' })) as { _id: string };
    await client.service('users').patch(made._id, { password: 'Changed-Pass-456', name: 'Audited' });
    const log = await logOf(made._id);
    expect(log.map((row) => row.method)).toEqual(['create', 'patch']);
    expect(log[1]?.changes.name).toEqual({ before: null, after: 'Audited' });
    const stored = JSON.stringify(await server.database.knex('audit_logs').where({ record_id: made._id }).select());
    expect(stored).not.toMatch(/password|argon2|Audited-Pass|Changed-Pass/i);
    expect(log.every((row) => !('password' in row.changes))).toBe(true);
  });

  describe('reading it', () => {
    it('lets an admin find rows by service, method, user, record and date, newest first', async () => {
      const industry = await newIndustry();
      const client = await signedIn(admin, 'rest');
      await client.service('industries').patch(industry._id, { order: 71 });
      await client.service('industries').patch(industry._id, { order: 72 });
      const logs = client.service('auditLogs');
      const page = (await logs.find({
        query: { service: 'industries', method: 'patch', user: admin._id, recordId: industry._id },
      })) as Page<AuditLog>;
      expect(page.data.map((row) => row.changes.order?.after)).toEqual([72, 71]);
      const first = page.data[1] as AuditLog;
      const since = (await logs.find({
        query: { recordId: industry._id, createdAt: { $gt: first.createdAt } },
      })) as Page<AuditLog>;
      expect(since.data.map((row) => row.changes.order?.after)).toEqual([72]);
      const oldestFirst = (await logs.find({
        query: { recordId: industry._id, $sort: { createdAt: 1 } },
      })) as Page<AuditLog>;
      expect(oldestFirst.data.map((row) => row.changes.order?.after)).toEqual([71, 72]);
      expect(await logs.get(first._id)).toMatchObject({ _id: first._id, recordId: industry._id });
    });

    it.each(['rest', 'socket'] as const)(
      'is refused to editors and members over %s (403), and to anyone signed out (401)',
      async (transport) => {
        for (const account of [editor, member]) {
          const logs = (await signedIn(account, transport)).service('auditLogs');
          expect(await rejectionOf(logs.find({}))).toMatchObject({ name: 'Forbidden', code: 403 });
          expect(await rejectionOf(logs.get('any-id'))).toMatchObject({ name: 'Forbidden', code: 403 });
        }
        expect(await rejectionOf(restClient(server.url).service('auditLogs').find({}))).toMatchObject({ code: 401 });
      },
    );

    it.each(['rest', 'socket'] as const)(
      'cannot be created, patched or removed from outside, even by an admin, over %s',
      async (transport) => {
        const industry = await newIndustry();
        await industries().patch(industry._id, { order: 81 }, asRest(caller(admin)));
        const [row] = await logOf(industry._id);
        const logs = (await signedIn(admin, transport)).service('auditLogs');
        const attempts = [
          () =>
            logs.create({
              user: admin._id,
              userEmail: admin.email,
              service: 'industries',
              method: 'remove',
              recordId: industry._id,
              changes: {},
            }),
          () => logs.patch(String(row?._id), { userEmail: 'someone@example.test' }),
          () => logs.remove(String(row?._id)),
        ];
        for (const attempt of attempts)
          expect(await rejectionOf(attempt())).toMatchObject({ name: 'Forbidden', code: 403 });
        expect(await logOf(industry._id)).toEqual([row]);
      },
    );
  });
});
