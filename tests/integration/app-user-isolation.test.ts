import { getServiceOptions } from '@feathersjs/feathers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities, isEntityName } from '../../domain/entities/index.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  createAccount,
  restCall,
  skipReason,
  socketClient,
  startTestServer,
  type FeathersErrorJSON,
  type SocketClient,
} from './harness.ts';

/**
 * An app user's token opens nothing of the members' and staff's (decision 053), on every service
 * the API registers and every method it takes, over REST and socket.io: whatever an app user's
 * call answers, a signed-out caller's same call answers too. A call refused signed out is refused
 * with the token; a list answers no more rows. Records are asked for by real ids (a member's
 * own account, a paid order, a draft), so a rule that let the token through would show.
 *
 * The apps' own services are the exception by design, and their rules have their own tests
 * (app-users.test.ts, app-devices.test.ts, news.test.ts for the registrations at events).
 */

const APP_POPULATION = new Set(['appUsers', 'appDevices', 'eventRegistrations']);
/** An id no record has, for services that are not over a table. */
const MISSING_ID = 'isolationnone';

let nextAddress = 1;
const address = () => `10.55.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

type Call = { method: string; id?: string };

describe.skipIf(skipReason)('an app user’s token', () => {
  let server: RunningServer;
  let token: string;
  let appSocket: SocketClient;
  let anonymousSocket: SocketClient;
  /** A real id of each entity service's table. */
  const ids = new Map<string, string>();
  const calls: { path: string; call: Call }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    const knex = server.database.knex;
    // A member, whose own records an app user with the same email must not reach.
    const member = await createAccount(knex, { role: 'member', label: 'isolation-member' });
    const email = member.email;
    const password = 'Kowloon2026';
    expect(
      (
        await restCall(server.url, 'POST', 'appUsers', {
          body: { name: 'Same Email', email, password },
          address: address(),
        })
      ).status,
    ).toBe(201);
    const signedIn = await restCall(server.url, 'POST', 'appAuthentication', {
      body: { strategy: 'local', email, password },
      address: address(),
    });
    token = signedIn.body.accessToken as string;
    expect(typeof token).toBe('string');
    ids.set('users', member._id);

    for (const [path, registered] of Object.entries(server.api.services as unknown as Record<string, object>)) {
      if (APP_POPULATION.has(path)) continue;
      if (isEntityName(path) && !ids.has(path)) {
        const table = entities[path].table;
        const row = (await knex(table).first('id')) as { id: string } | undefined;
        if (row) ids.set(path, row.id);
      }
      const id = ids.get(path) ?? MISSING_ID;
      const methods = getServiceOptions(registered)?.methods ?? [];
      for (const method of methods) calls.push({ path, call: { method, id } });
    }
    appSocket = socketClient(server.url, { 'x-forwarded-for': address() });
    await appSocket.client.service('appAuthentication').create({ strategy: 'jwt', accessToken: token });
    anonymousSocket = socketClient(server.url, { 'x-forwarded-for': address() });
  });
  afterAll(async () => {
    appSocket?.close();
    anonymousSocket?.close();
    await server?.close();
  });

  /** A REST call: its status and, for a list, the number of rows. */
  async function overRest(path: string, { method, id }: Call, withToken: boolean) {
    const standard: Record<string, [string, string, unknown]> = {
      find: ['GET', `${path}?$limit=50`, undefined],
      get: ['GET', `${path}/${id}`, undefined],
      create: ['POST', path, {}],
      update: ['PUT', `${path}/${id}`, {}],
      patch: ['PATCH', `${path}/${id}`, { name: 'changed' }],
      remove: ['DELETE', `${path}/${id}`, undefined],
    };
    const [verb, url, body] = standard[method] ?? ['POST', path, {}];
    const response = await fetch(`${server.url}/api/${url}`, {
      method: verb,
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': address(),
        ...(standard[method] ? {} : { 'x-service-method': method }),
        ...(withToken ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let rows: number | undefined;
    try {
      const json = JSON.parse(text) as { total?: number; data?: unknown[] } | unknown[];
      rows = Array.isArray(json) ? json.length : Array.isArray(json.data) ? json.data.length : undefined;
    } catch {
      rows = undefined;
    }
    return { status: response.status, rows: method === 'find' ? rows : undefined };
  }

  async function overSocket(path: string, { method, id }: Call, socket: SocketClient) {
    const service = socket.client.service(path) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const args: Record<string, unknown[]> = {
      find: [{ query: { $limit: 50 } }],
      get: [id],
      create: [{}],
      update: [id, {}],
      patch: [id, { name: 'changed' }],
      remove: [id],
    };
    const call = service[method];
    if (typeof call !== 'function') return { status: 405, rows: undefined };
    return call.apply(service, args[method] ?? [{}]).then(
      (answer) => ({
        status: 200,
        rows:
          method === 'find'
            ? Array.isArray(answer)
              ? answer.length
              : (answer as { data?: unknown[] }).data?.length
            : undefined,
      }),
      (error: FeathersErrorJSON) => ({ status: error.code, rows: undefined }),
    );
  }

  const refused = (status: number) => status === 401 || status === 403;
  const succeeded = (status: number) => status >= 200 && status < 300;

  it('reaches every service the API registers', () => {
    const paths = new Set(calls.map(({ path }) => path));
    for (const path of [
      'users',
      'orders',
      'subscriptions',
      'invoices',
      'exports',
      'devices',
      'appSettings',
      'authentication',
    ])
      expect(paths, path).toContain(path);
    expect(calls.length).toBeGreaterThan(100);
  });

  it('opens nothing over REST that a signed-out caller is refused, and lists no more rows', async () => {
    const problems: string[] = [];
    for (const { path, call } of calls) {
      const anonymous = await overRest(path, call, false);
      const app = await overRest(path, call, true);
      if (app.status >= 500) problems.push(`${call.method} ${path}: ${app.status}`);
      if (refused(anonymous.status) && !refused(app.status))
        problems.push(`${call.method} ${path}: signed out ${anonymous.status}, app user ${app.status}`);
      if (succeeded(app.status) && !succeeded(anonymous.status))
        problems.push(`${call.method} ${path}: signed out ${anonymous.status}, app user ${app.status}`);
      if (call.method === 'find' && (app.rows ?? 0) > (anonymous.rows ?? 0))
        problems.push(`find ${path}: ${app.rows} rows for the app user, ${anonymous.rows} signed out`);
    }
    expect(problems).toEqual([]);
  });

  it('opens nothing over socket.io either', async () => {
    const problems: string[] = [];
    for (const { path, call } of calls) {
      if (path === 'authentication' || path === 'appAuthentication') continue;
      const anonymous = await overSocket(path, call, anonymousSocket);
      const app = await overSocket(path, call, appSocket);
      if (app.status >= 500) problems.push(`${call.method} ${path}: ${app.status}`);
      if (refused(anonymous.status) && !refused(app.status))
        problems.push(`${call.method} ${path}: signed out ${anonymous.status}, app user ${app.status}`);
      if (succeeded(app.status) && !succeeded(anonymous.status))
        problems.push(`${call.method} ${path}: signed out ${anonymous.status}, app user ${app.status}`);
      if (call.method === 'find' && (app.rows ?? 0) > (anonymous.rows ?? 0))
        problems.push(`find ${path}: ${app.rows} rows for the app user, ${anonymous.rows} signed out`);
    }
    expect(problems).toEqual([]);
  });

  it('is refused by the members’ own routes: downloads, uploads and the socket ticket', async () => {
    for (const [verb, url] of [
      ['POST', 'socketTickets'],
      ['GET', `invoices/${ids.get('invoices') ?? MISSING_ID}/pdf`],
      ['POST', 'attachments/upload'],
    ] as const) {
      const response = await fetch(`${server.url}/api/${url}`, {
        method: verb,
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': address() },
      });
      await response.arrayBuffer();
      expect([401, 403, 404], `${verb} ${url}`).toContain(response.status);
    }
    // The same email as a member's gives no way into the member's account.
    const asMember = await restCall(server.url, 'GET', `users/${ids.get('users')}`, { token, address: address() });
    expect(refused(asMember.status)).toBe(true);
  });
});
