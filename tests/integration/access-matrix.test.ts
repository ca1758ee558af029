import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exporters } from '../../domain/admin/permissions.ts';
import { ADMIN_SCREENS, type AdminSource } from '../../domain/admin/screens.ts';
import { entities } from '../../domain/entities/index.ts';
import { type Access, type EntityDef, ROLES, type Role } from '../../domain/entities/types.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  createAccount,
  skipReason,
  socketClient,
  startTestServer,
  type FeathersErrorJSON,
  type SocketClient,
} from './harness.ts';

/**
 * Every cell of the access rules, generated from the definitions: each entity × method × caller
 * (signed out and each role) × transport (REST and socket.io). A refused cell answers 401 signed
 * out and 403 signed in; an allowed one gets past the access rules (whatever the call then
 * answers: 200, 201, a 400 for empty data, a 404 for an id that does not exist), never a 5xx.
 */

const METHODS = ['find', 'get', 'create', 'patch', 'remove'] as const;
type Method = (typeof METHODS)[number];
type Caller = Role | 'signed out' | 'app user';
const CALLERS: readonly Caller[] = ['signed out', ...ROLES, 'app user'];
/** An id no record has, so allowed writes change nothing. */
const MISSING_ID = 'accessmatrixnone';

function expected(access: Access, caller: Caller): 'allowed' | 401 | 403 {
  if (access === 'public') return 'allowed';
  if (caller === 'signed out') return 401;
  if (access === 'none') return 403;
  // A user of the apps is not `authenticated` in the members' sense: their token opens their own population's services.
  if (access === 'authenticated') return caller === 'app user' ? 403 : 'allowed';
  return access.includes(caller === 'app user' ? 'appUser' : caller) ? 'allowed' : 403;
}

let nextAddress = 1;
const newAddress = () => `10.9.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.skipIf(skipReason)('the access rules of every definition', () => {
  let server: RunningServer;
  const tokens = {} as Record<Exclude<Caller, 'signed out'>, string>;
  const sockets = {} as Record<Caller, SocketClient>;

  async function overRest(def: EntityDef, method: Method, caller: Caller): Promise<number> {
    const path = `${server.url}/api/${def.service}`;
    const [verb, url, body] = {
      find: ['GET', `${path}?$limit=1`, undefined],
      get: ['GET', `${path}/${MISSING_ID}`, undefined],
      create: ['POST', path, {}],
      patch: ['PATCH', `${path}/${MISSING_ID}`, {}],
      remove: ['DELETE', `${path}/${MISSING_ID}`, undefined],
    }[method];
    const response = await fetch(url as string, {
      method: verb as string,
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': newAddress(),
        ...(caller === 'signed out' ? {} : { authorization: `Bearer ${tokens[caller]}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await response.arrayBuffer();
    return response.status;
  }

  async function overSocket(def: EntityDef, method: Method, caller: Caller): Promise<number> {
    const service = (sockets[caller] as SocketClient).client.service(def.service);
    const call = {
      find: () => service.find({ query: { $limit: 1 } }),
      get: () => service.get(MISSING_ID),
      create: () => service.create({}),
      patch: () => service.patch(MISSING_ID, {}),
      remove: () => service.remove(MISSING_ID),
    }[method];
    return call().then(
      () => 200,
      (error: FeathersErrorJSON) => error.code,
    );
  }

  beforeAll(async () => {
    // Form and sign-up limits count per address; each call here comes from its own.
    server = await startTestServer({ trustProxy: 'loopback' });
    for (const role of ROLES) {
      const account = await createAccount(server.database.knex, { role, label: `matrix-${role}` });
      const response = await fetch(`${server.url}/api/authentication`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': newAddress() },
        body: JSON.stringify({ strategy: 'local', email: account.email, password: account.password }),
      });
      tokens[role] = ((await response.json()) as { accessToken: string }).accessToken;
    }
    // A user of the company's apps, signed in through their own service (decision 053).
    const appUser = { email: 'matrix-app-user@example.test', password: 'Kowloon2026' };
    const signUp = await fetch(`${server.url}/api/appUsers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': newAddress() },
      body: JSON.stringify({ name: 'Matrix', ...appUser }),
    });
    expect(signUp.status).toBe(201);
    const appSignIn = await fetch(`${server.url}/api/appAuthentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': newAddress() },
      body: JSON.stringify({ strategy: 'local', ...appUser }),
    });
    tokens['app user'] = ((await appSignIn.json()) as { accessToken: string }).accessToken;
    for (const caller of CALLERS) {
      const socket = socketClient(server.url, { 'x-forwarded-for': newAddress() });
      sockets[caller] = socket;
      if (caller === 'signed out')
        await new Promise<void>((resolve) =>
          socket.socket.connected ? resolve() : socket.socket.once('connect', () => resolve()),
        );
      else if (caller === 'app user')
        await socket.client.service('appAuthentication').create({ strategy: 'jwt', accessToken: tokens[caller] });
      else await socket.client.authenticate({ strategy: 'jwt', accessToken: tokens[caller] });
    }
  });
  afterAll(async () => {
    for (const socket of Object.values(sockets)) socket.close();
    await server?.close();
  });

  describe.each(Object.values(entities))('$service', (def) => {
    it.each(['rest', 'socket'] as const)('over %s', async (transport) => {
      const wrong: string[] = [];
      for (const method of METHODS) {
        for (const caller of CALLERS) {
          const want = expected(def.access[method], caller);
          const status =
            transport === 'rest' ? await overRest(def, method, caller) : await overSocket(def, method, caller);
          const ok = want === 'allowed' ? status !== 401 && status !== 403 && status < 500 : status === want;
          if (!ok) wrong.push(`${method} by ${caller}: expected ${want}, got ${status}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  });

  // Who exports each back-office table (the matrix's "Exported by"), asked of the exports service
  // with a column no table has: a caller it lets export gets that 400, one it does not a 403 (a 401
  // signed out). Personal data is exported by admins only (decision 052).
  describe.each(Object.keys(ADMIN_SCREENS) as AdminSource[])('exports of %s', (source) => {
    it.each(['rest', 'socket'] as const)('over %s', async (transport) => {
      const exporting = exporters(source)
        .replace(/ \(.*\)$/, '')
        .split(', ');
      const data = { source, format: 'csv', columns: ['no such column'] };
      const wrong: string[] = [];
      for (const caller of CALLERS) {
        const want = caller === 'signed out' ? 401 : exporting.includes(caller) ? 400 : 403;
        let status: number;
        if (transport === 'rest') {
          const response = await fetch(`${server.url}/api/exports`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-forwarded-for': newAddress(),
              ...(caller === 'signed out' ? {} : { authorization: `Bearer ${tokens[caller]}` }),
            },
            body: JSON.stringify(data),
          });
          await response.arrayBuffer();
          status = response.status;
        } else {
          status = await (sockets[caller] as SocketClient).client
            .service('exports')
            .create(data)
            .then(
              () => 201,
              (error: FeathersErrorJSON) => error.code,
            );
        }
        if (status !== want) wrong.push(`export by ${caller}: expected ${want}, got ${status}`);
      }
      expect(wrong).toEqual([]);
    });
  });

  it('leaves every table as it was: no allowed call above wrote anything', async () => {
    for (const def of Object.values(entities)) {
      const row = await server.database.knex(def.table).where('id', MISSING_ID).first('id');
      expect(row, def.service).toBeUndefined();
    }
  });
});
