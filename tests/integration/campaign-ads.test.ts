import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  accessTokenOf,
  createAccount,
  restCall,
  skipReason,
  socketClient,
  startTestServer,
  type SocketClient,
} from './harness.ts';

/**
 * A campaign's ads, a list of references (decision 061): every id a write adds names an ad that
 * exists, on create and on every patch syntax (plain data, `$set`, `$push`, over REST and
 * socket.io), and a refused write changes nothing, whatever else it held. An id the campaign already
 * held whose ad was removed since stays until staff take it off.
 */

type Body = Record<string, unknown>;

let nextAddress = 1;
const address = () => `10.61.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.skipIf(skipReason)('a campaign’s ads', () => {
  let server: RunningServer;
  let editor: string;
  let admin: string;
  let socket: SocketClient;
  let serial = 0;

  const rest = (method: string, path: string, options: { token?: string; body?: unknown; locale?: string } = {}) =>
    restCall(server.url, method, path, { address: address(), token: editor, ...options });

  async function newAd(): Promise<string> {
    const created = await rest('POST', 'ads', {
      body: { name: { en: `Ref ad ${serial++}` }, adType: 'list', status: 'draft' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body._id as string;
  }

  async function newCampaign(ads: string[]): Promise<Body> {
    const created = await rest('POST', 'campaigns', {
      body: { name: { en: `Refs ${serial}` }, key: `refs-${serial++}`, ads },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  }

  const stored = async (id: string) =>
    (await server.database.knex('campaigns').where({ id }).first('ads', 'name', 'remarks')) as Body;

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    const editorAccount = await createAccount(server.database.knex, { role: 'editor', label: 'refs-editor' });
    const adminAccount = await createAccount(server.database.knex, { role: 'admin', label: 'refs-admin' });
    editor = await accessTokenOf(server.url, editorAccount, address());
    admin = await accessTokenOf(server.url, adminAccount, address());
    socket = socketClient(server.url, { 'x-forwarded-for': address() });
    await socket.client.authenticate({ strategy: 'jwt', accessToken: editor });
  });
  afterAll(async () => {
    socket?.close();
    await server?.close();
  });

  it('refuses a create naming an ad that does not exist, in the caller’s language, and writes nothing', async () => {
    const ad = await newAd();
    const key = `refs-missing-${serial++}`;
    const refused = await rest('POST', 'campaigns', {
      body: { name: { en: 'Missing' }, key, ads: [ad, 'no-such-ad'] },
      locale: 'zh-hk',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ ads: '部分已選紀錄不存在或已被刪除。' });
    expect(await server.database.knex('campaigns').where({ key }).first()).toBeUndefined();
    const made = await newCampaign([ad]);
    expect(made.ads).toEqual([ad]);
  });

  it('refuses an unknown ad in plain data, $set and $push, over REST and socket.io, changing nothing', async () => {
    const [first, second] = [await newAd(), await newAd()];
    const campaign = await newCampaign([first]);
    const id = campaign._id as string;
    const before = await stored(id);
    const patches: Body[] = [
      { ads: [first, 'gone-1'], remarks: 'plain' },
      { $set: { ads: ['gone-2'], remarks: 'set' } },
      { $push: { ads: 'gone-3' }, remarks: 'push' },
      { $push: { ads: { $each: [second, 'gone-4'] } } },
    ];
    for (const body of patches) {
      const answer = await rest('PATCH', `campaigns/${id}`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body.errors as Body).ads).toBe('One or more of the chosen records do not exist.');
      const error = (await socket.client
        .service('campaigns')
        .patch(id, body)
        .catch((caught: unknown) => caught)) as { code?: number; errors?: Body };
      expect(error.code, JSON.stringify(body)).toBe(400);
      expect(error.errors?.ads).toBe('One or more of the chosen records do not exist.');
    }
    // Nothing half-written: neither the list nor the other fields of any refused patch.
    expect(await stored(id)).toEqual(before);
  });

  it('takes ads that exist on every syntax, and keeps a list’s own rules with $push', async () => {
    const [first, second, third] = [await newAd(), await newAd(), await newAd()];
    const campaign = await newCampaign([]);
    const id = campaign._id as string;
    expect((await rest('PATCH', `campaigns/${id}`, { body: { ads: [first] } })).body.ads).toEqual([first]);
    expect((await rest('PATCH', `campaigns/${id}`, { body: { $push: { ads: second } } })).body.ads).toEqual([
      first,
      second,
    ]);
    expect(((await socket.client.service('campaigns').patch(id, { $push: { ads: third } })) as Body).ads).toEqual([
      first,
      second,
      third,
    ]);
    expect((await rest('PATCH', `campaigns/${id}`, { body: { $pull: { ads: second } } })).body.ads).toEqual([
      first,
      third,
    ]);
    expect((await rest('PATCH', `campaigns/${id}`, { body: { $set: { ads: [third, first] } } })).body.ads).toEqual([
      third,
      first,
    ]);
    // A duplicate pushed is refused as a duplicate in the plain list is.
    const duplicate = await rest('PATCH', `campaigns/${id}`, { body: { $push: { ads: first } } });
    expect(duplicate.status).toBe(400);
    expect((duplicate.body.errors as Body).ads).toBe('This value is already in use.');
    expect((await stored(id)).ads).toEqual([third, first]);
  });

  it('keeps an ad removed since, until staff take it off, and refuses adding it again', async () => {
    const [kept, removed, other] = [await newAd(), await newAd(), await newAd()];
    const campaign = await newCampaign([kept, removed]);
    const id = campaign._id as string;
    expect((await rest('DELETE', `ads/${removed}`, { token: admin })).status).toBe(200);
    // Editing anything else, or the list while it still holds the removed ad, is accepted.
    expect((await rest('PATCH', `campaigns/${id}`, { body: { remarks: 'still' } })).status).toBe(200);
    const reordered = await rest('PATCH', `campaigns/${id}`, { body: { ads: [removed, kept, other] } });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    expect((await rest('PATCH', `campaigns/${id}`, { body: { ads: [kept, other] } })).body.ads).toEqual([kept, other]);
    // Once taken off it is an unknown id like any other.
    const again = await rest('PATCH', `campaigns/${id}`, { body: { $push: { ads: removed } } });
    expect(again.status).toBe(400);
    expect((await stored(id)).ads).toEqual([kept, other]);
  });
});
