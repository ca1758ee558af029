import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_LISTS } from '../../domain/entities/lookup-lists.ts';
import { LOOKUP_LIST_SEED } from '../../server/db/seed/lookup-lists.ts';
import { seed } from '../../server/db/seed/seed.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  accessTokenOf,
  ADMIN,
  createAccount,
  restCall,
  skipReason,
  socketClient,
  startTestServer,
  type SocketClient,
} from './harness.ts';

/**
 * The lookup lists (decision 050) through both transports: anyone reads them in staff's order and
 * finds a name in any language; staff add and rename; only an admin removes; a name needs its
 * English at least, and no language longer than a picker shows; the seed fills each list once.
 */

type Caller = 'signed out' | 'member' | 'editor' | 'admin';
type Item = { _id: string; name: Record<string, string>; order: number };

let nextAddress = 1;
const address = () => `10.47.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.skipIf(skipReason)('the lookup lists', () => {
  let server: RunningServer;
  const tokens = {} as Record<Exclude<Caller, 'signed out'>, string>;
  let editorSocket: SocketClient;

  /** A REST call as a caller, in a language, from an address of its own; answers the status and the JSON body. */
  const rest = (caller: Caller, method: string, path: string, body?: unknown, locale = 'en') =>
    restCall(server.url, method, path, {
      body,
      locale,
      address: address(),
      ...(caller === 'signed out' ? {} : { token: tokens[caller] }),
    });

  const items = (body: Record<string, unknown>) => body.data as Item[];

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    for (const role of ['member', 'editor', 'admin'] as const) {
      const account = await createAccount(server.database.knex, { role, label: `lookup-${role}` });
      tokens[role] = await accessTokenOf(server.url, account, address());
    }
    editorSocket = socketClient(server.url, { 'x-forwarded-for': address(), 'x-locale': 'zh-hk' });
    await editorSocket.client.authenticate({ strategy: 'jwt', accessToken: tokens.editor });
  });
  afterAll(async () => {
    editorSocket?.close();
    await server?.close();
  });

  it('are seeded in order, every name in the three languages, and read by anyone', async () => {
    for (const list of LOOKUP_LISTS) {
      const page = await rest('signed out', 'GET', `${list}?$limit=50`);
      expect(page.status, list).toBe(200);
      expect(
        items(page.body).map((item) => item.name),
        list,
      ).toEqual(LOOKUP_LIST_SEED[list]);
      const orders = items(page.body).map((item) => item.order);
      expect(orders).toEqual([...orders].sort((a, b) => a - b));
    }
    const districts = await rest('signed out', 'GET', 'doctordistricts?$limit=50');
    expect(districts.body.total).toBe(18);
    expect(items(districts.body)[0]?.name).toEqual({ en: 'Central and Western', 'zh-hk': '中西區', 'zh-cn': '中西区' });
  });

  it('find a name by any of its languages', async () => {
    for (const text of ['wan chai', '灣仔', '湾仔']) {
      const page = await rest(
        'signed out',
        'GET',
        `doctordistricts?name[$regex]=${encodeURIComponent(text)}&name[$options]=i`,
      );
      expect(page.status, text).toBe(200);
      expect(
        items(page.body).map((item) => item.name.en),
        text,
      ).toEqual(['Wan Chai']);
    }
  });

  it('take a new name from staff, in its place in the order, over REST and socket.io', async () => {
    const created = await rest('editor', 'POST', 'doctorprofessions', {
      name: { en: 'Urology', 'zh-hk': '泌尿科', 'zh-cn': '泌尿科' },
      order: 15,
    });
    expect(created.status).toBe(201);
    const page = await rest('signed out', 'GET', 'doctorprofessions?$limit=50');
    expect(
      items(page.body)
        .map((item) => item.name.en)
        .slice(0, 3),
    ).toEqual(['General practitioner', 'Urology', 'Family medicine']);

    const service = editorSocket.client.service('doctorprofessions');
    const renamed = (await service.patch(String(created.body._id), {
      name: { en: 'Urology', 'zh-hk': '泌尿外科', 'zh-cn': '泌尿外科' },
    })) as Item;
    expect(renamed.name['zh-hk']).toBe('泌尿外科');
  });

  it('refuse a name without English, or too long for a picker, with a message per part in the language', async () => {
    const missing = await rest('editor', 'POST', 'doctorgenders', { name: { 'zh-hk': '其他' } }, 'zh-hk');
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toHaveProperty(['name.en']);
    expect(String(missing.body.message)).toMatch(/[\u4e00-\u9fff]/);

    const long = await rest('editor', 'POST', 'doctorgenders', { name: { en: 'x'.repeat(81) } });
    expect(long.status).toBe(400);
    expect(long.body.errors).toHaveProperty(['name.en']);

    const page = await rest('signed out', 'GET', 'doctorgenders');
    expect(page.body.total).toBe(2);
  });

  it('are written by staff only, and emptied of a name by an admin only', async () => {
    const name = { en: 'Nephrology', 'zh-hk': '腎科', 'zh-cn': '肾科' };
    expect((await rest('signed out', 'POST', 'doctorprofessions', { name })).status).toBe(401);
    expect((await rest('member', 'POST', 'doctorprofessions', { name })).status).toBe(403);

    const created = await rest('admin', 'POST', 'doctorprofessions', { name });
    expect(created.status).toBe(201);
    const id = String(created.body._id);
    expect((await rest('member', 'PATCH', `doctorprofessions/${id}`, { order: 1 })).status).toBe(403);
    expect((await rest('editor', 'DELETE', `doctorprofessions/${id}`)).status).toBe(403);
    expect((await rest('editor', 'GET', `doctorprofessions/${id}`)).status).toBe(200);

    expect((await rest('admin', 'DELETE', `doctorprofessions/${id}`)).status).toBe(200);
    expect((await rest('signed out', 'GET', `doctorprofessions/${id}`)).status).toBe(404);
  });

  it('are seeded once: a second seed leaves what staff changed', async () => {
    const before = await server.database.knex('doctor_professions').count<{ count: string }[]>({ count: '*' });
    await seed(server.database.knex, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
    const after = await server.database.knex('doctor_professions').count<{ count: string }[]>({ count: '*' });
    expect(after[0]?.count).toBe(before[0]?.count);
  });
});
