import type { Application } from '@feathersjs/feathers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  asRest,
  type Page,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  type SocketClient,
  startTestServer,
  untypedService,
} from './harness.ts';

/**
 * The generic entity service run through the cases of Feathers' own adapter tests: `$select` on
 * every method, a patch that carries the record's own `_id`, `$skip` without pagination. Where the
 * service parts from those adapters on purpose (writes answer the whole record), decision 033 says why.
 */

type I18n = { en: string; 'zh-hk'?: string; 'zh-cn'?: string };
type Industry = {
  _id: string;
  key: string | null;
  name: I18n;
  order: number;
  major: boolean;
  createdAt: string | Date;
};
type Caller = { _id: string; role: string };

/** Every field an industry answers (none is hidden). */
const INDUSTRY_FIELDS = [
  '_id',
  'key',
  'name',
  'description',
  'order',
  'major',
  'items',
  'createdAt',
  'updatedAt',
].sort();

describe.skipIf(skipReason)('the entity service and Feathers adapter semantics', () => {
  let server: RunningServer;
  let admin: Caller;
  const sockets: SocketClient[] = [];
  let sequence = 0;

  const industries = () => untypedService(server.api, 'industries');
  /** The official client over socket.io, signed in as the admin. */
  const openSocket = async () => {
    const s = socketClient(server.url);
    sockets.push(s);
    await s.client.authenticate({ strategy: 'local', ...ADMIN });
    return s.client;
  };
  const newIndustry = async (extra: Record<string, unknown> = {}) =>
    (await industries().create(
      { key: `ad-${(sequence += 1)}`, name: { en: `Ad Industry ${sequence}` }, order: 900 + sequence, ...extra },
      asRest(admin),
    )) as Industry;

  beforeAll(async () => {
    server = await startTestServer();
    const users = (await server.api
      .service('users')
      .find({ query: { email: ADMIN.email }, paginate: false })) as Caller[];
    admin = users[0] as Caller;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  describe('$select', () => {
    it('find and get answer the selected fields and the id', async () => {
      const made = await newIndustry();
      const page = (await industries().find(asRest(admin, { key: made.key, $select: ['name'] }))) as Page<Industry>;
      expect(page.data).toEqual([{ _id: made._id, name: made.name }]);
      expect(await industries().get(made._id, asRest(admin, { $select: ['order'] }))).toEqual({
        _id: made._id,
        order: made.order,
      });
      const all = await industries().find({ paginate: false, query: { key: made.key, $select: ['key'] } });
      expect(all).toEqual([{ _id: made._id, key: made.key }]);
    });

    it('create, patch and remove answer the selected fields and the id, over REST and socket.io', async () => {
      const created = await industries().create(
        { key: 'ad-select', name: { en: 'Ad Select' } },
        asRest(admin, { $select: ['name'] }),
      );
      expect(created).toEqual({ _id: created._id, name: { en: 'Ad Select' } });
      const patched = await industries().patch(created._id, { order: 77 }, asRest(admin, { $select: ['order'] }));
      expect(patched).toEqual({ _id: created._id, order: 77 });
      const removed = await industries().remove(created._id, asRest(admin, { $select: ['key', 'order'] }));
      expect(removed).toEqual({ _id: created._id, key: 'ad-select', order: 77 });

      // Over HTTP and a socket, as a client of the API sends it.
      const rest = restClient(server.url);
      await rest.authenticate({ strategy: 'local', ...ADMIN });
      const overRest = (await rest
        .service('industries')
        .create(
          { key: 'ad-select-rest', name: { en: 'Ad Select REST' } },
          { query: { $select: ['key'] } },
        )) as Industry;
      expect(overRest).toEqual({ _id: overRest._id, key: 'ad-select-rest' });
      const socket = await openSocket();
      const overSocket = (await socket
        .service('industries')
        .patch(overRest._id, { order: 78 }, { query: { $select: ['order'] } })) as Industry;
      expect(overSocket).toEqual({ _id: overRest._id, order: 78 });
    });

    it('sends the whole record in the events of a write with $select, to every listener', async () => {
      const listener = await openSocket();
      const heard: Record<string, Industry[]> = { created: [], patched: [], removed: [] };
      for (const event of Object.keys(heard))
        listener.service('industries').on(event, (record: Industry) => heard[event]?.push(record));
      const created = (await industries().create(
        { key: 'ad-select-event', name: { en: 'Ad Select Event' }, order: 5 },
        asRest(admin, { $select: ['key'] }),
      )) as Industry;
      await industries().patch(created._id, { order: 6 }, asRest(admin, { $select: ['order'] }));
      await industries().remove(created._id, asRest(admin, { $select: ['order'] }));
      await expect.poll(() => heard.removed?.filter((r) => r._id === created._id).length).toBe(1);
      for (const event of Object.keys(heard)) {
        const mine = heard[event]?.filter((r) => r._id === created._id) ?? [];
        expect(mine, event).toHaveLength(1);
        expect(Object.keys(mine[0] ?? {}).sort(), event).toEqual(INDUSTRY_FIELDS);
        expect(mine[0], event).toMatchObject({ key: 'ad-select-event', name: { en: 'Ad Select Event' } });
      }
      expect(heard.patched?.find((r) => r._id === created._id)?.order).toBe(6);
    });

    it('refuses a field it does not know in $select on a write, as on a read', async () => {
      const made = await newIndustry();
      const refused = await rejectionOf(
        industries().patch(made._id, { order: 1 }, asRest(admin, { $select: ['colour'] })),
      );
      expect(refused).toMatchObject({ name: 'BadRequest', code: 400 });
    });
  });

  describe('a patch carrying the record’s own _id', () => {
    it('is accepted and the id ignored when it is the record patched, in plain data and in $set', async () => {
      const made = await newIndustry();
      const plain = await industries().patch(made._id, { _id: made._id, order: 11 }, asRest(admin));
      expect(plain).toMatchObject({ _id: made._id, order: 11 });
      const set = await industries().patch(made._id, { $set: { _id: made._id, major: true } }, asRest(admin));
      expect(set).toMatchObject({ _id: made._id, order: 11, major: true });
      const onlyId = await industries().patch(made._id, { $set: { _id: made._id } }, asRest(admin));
      expect(onlyId).toMatchObject({ _id: made._id, order: 11 });
    });

    it('is a 400 naming _id when it differs, in every syntax, and changes nothing', async () => {
      const made = await newIndustry({ order: 5 });
      const other = await newIndustry();
      for (const data of [
        { _id: other._id, order: 6 },
        { $set: { _id: other._id, order: 6 } },
        { _id: made._id, $set: { _id: other._id } },
        { _id: null, order: 6 },
        { _id: { $ne: 'x' }, order: 6 },
      ]) {
        const refused = await rejectionOf(industries().patch(made._id, data, asRest(admin)));
        expect(refused, JSON.stringify(data)).toMatchObject({
          name: 'BadRequest',
          code: 400,
          message: expect.stringContaining('id cannot be changed'),
        });
        expect(refused.errors).toEqual({ _id: expect.stringContaining('id cannot be changed') });
      }
      expect(await industries().get(made._id)).toMatchObject({ _id: made._id, order: 5 });
      expect(await industries().get(other._id)).toMatchObject({ _id: other._id });
    });

    it('is refused on a patch of several records (id null)', async () => {
      const made = await newIndustry();
      const refused = await rejectionOf(
        industries().patch(null, { _id: made._id, order: 1 }, asRest(admin, { key: made.key })),
      );
      expect(refused).toMatchObject({ name: 'MethodNotAllowed', code: 405 });
    });

    const transports: Record<string, () => Application> = {
      rest: () => restClient(server.url, { 'x-locale': 'zh-hk' }),
      socket: () => {
        const s = socketClient(server.url, { 'x-locale': 'zh-hk' });
        sockets.push(s);
        return s.client;
      },
    };

    it.each(Object.keys(transports))('answers the same over %s, in the caller’s language', async (transport) => {
      const client = transports[transport]?.() as Application;
      await client.authenticate({ strategy: 'local', ...ADMIN });
      const made = await newIndustry();
      const service = client.service('industries');
      expect(await service.patch(made._id, { _id: made._id, order: 21 })).toMatchObject({ _id: made._id, order: 21 });
      expect(await service.patch(made._id, { $set: { _id: made._id, order: 22 } })).toMatchObject({ order: 22 });
      const refused = await rejectionOf(service.patch(made._id, { _id: 'someone-else', order: 23 }));
      expect(refused).toMatchObject({ name: 'BadRequest', code: 400 });
      expect(refused.errors?._id).toMatch(/編號/);
      expect(((await industries().get(made._id)) as Industry).order).toBe(22);
    });
  });

  describe('$skip without pagination', () => {
    it('skips in a server lookup with paginate: false, with or without $limit', async () => {
      const keys = ['sk-a', 'sk-b', 'sk-c', 'sk-d'];
      for (const [i, key] of keys.entries()) await newIndustry({ key, order: 800 + i });
      const keysOf = (records: Industry[]) => records.map((r) => r.key);
      const query = { key: { $in: keys }, $sort: { order: 1 } };
      expect(
        keysOf((await industries().find({ paginate: false, query: { ...query, $skip: 1 } })) as Industry[]),
      ).toEqual(['sk-b', 'sk-c', 'sk-d']);
      expect(
        keysOf((await industries().find({ paginate: false, query: { ...query, $skip: 1, $limit: 2 } })) as Industry[]),
      ).toEqual(['sk-b', 'sk-c']);
      expect(
        keysOf((await industries().find({ paginate: false, query: { ...query, $skip: 4 } })) as Industry[]),
      ).toEqual([]);
      // An outside caller asking for no pagination still gets a page, skipped the same.
      const page = (await industries().find({
        ...asRest(admin, { ...query, $skip: 2 }),
        paginate: false,
      })) as unknown as Page<Industry>;
      expect(page).toMatchObject({ skip: 2, total: 4 });
      expect(keysOf(page.data)).toEqual(['sk-c', 'sk-d']);
    });
  });
});
