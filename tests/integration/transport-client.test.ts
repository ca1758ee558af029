import type { Application } from '@feathersjs/feathers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  clientService,
  containsPassword,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  startTestServer,
  uniqueEmail,
  type SocketClient,
} from './harness.ts';

/** The official Feathers client, over socket.io and over REST, against a running server. */

describe.skipIf(skipReason)('official Feathers client', () => {
  let server: RunningServer;
  const sockets: SocketClient[] = [];

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  const transports: Record<string, () => Application> = {
    socket: () => {
      const s = socketClient(server.url);
      sockets.push(s);
      return s.client;
    },
    rest: () => restClient(server.url),
  };

  describe.each(Object.keys(transports))('over %s', (transport) => {
    const connect = () => transports[transport]!();

    it('finds industries (a paginated page, restaurant first) and gets one', async () => {
      const client = connect();
      const page = await clientService(client, 'industries').find({ query: { $sort: { order: 1 }, $limit: 3 } });
      expect(page.total).toBeGreaterThanOrEqual(5);
      expect(page.limit).toBe(3);
      expect(page.skip).toBe(0);
      expect(page.data).toHaveLength(3);
      expect(page.data[0]).toMatchObject({ order: 0, key: 'restaurant' });

      const one = await clientService(client, 'industries').get(page.data[1]!._id);
      expect(one).toEqual(expect.objectContaining({ _id: page.data[1]!._id, name: page.data[1]!.name }));

      const missing = await rejectionOf(client.service('industries').get('no-such-industry'));
      expect(missing).toMatchObject({ name: 'NotFound', code: 404 });
    });

    it('authenticates with the local strategy; the result carries a token and the user without a password', async () => {
      const client = connect();
      const result = await client.authenticate({ strategy: 'local', ...ADMIN });
      expect(result.accessToken).toEqual(expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/));
      expect(result.user).toMatchObject({ email: ADMIN.email, role: 'admin' });
      expect(result.user).not.toHaveProperty('password');
      expect(containsPassword(result)).toBe(false);
      // The client keeps using the token for later calls.
      const me = await client.service('users').get(result.user._id);
      expect(me).toMatchObject({ email: ADMIN.email });
      expect(me).not.toHaveProperty('password');
      // A signed-in call with a filter: the filter applies to the call, not to loading the caller.
      const restaurant = await clientService(client, 'industries').find({ query: { key: 'restaurant' } });
      expect(restaurant.data.map((i) => i.key)).toEqual(['restaurant']);
      const byEmail = await clientService(client, 'users').find({ query: { email: 'owner@tillpoint.test' } });
      expect(byEmail.data.map((u) => u.email)).toEqual(['owner@tillpoint.test']);
    });

    it('creates, patches and removes as admin; anonymous writes are refused', async () => {
      const anonymous = connect();
      const refused = await rejectionOf(anonymous.service('industries').create({ name: { en: 'Refused' } }));
      expect(refused).toMatchObject({ name: 'NotAuthenticated', code: 401 });

      const client = connect();
      await client.authenticate({ strategy: 'local', ...ADMIN });
      const key = `t-${transport}-${Date.now()}`;
      const industries = clientService(client, 'industries');
      const created = await industries.create({ key, name: { en: 'Bakery', 'zh-hk': '餅店' }, order: 90 });
      expect(created).toMatchObject({ key, name: { en: 'Bakery', 'zh-hk': '餅店' }, order: 90 });
      expect(created._id).toEqual(expect.any(String));

      const patched = await industries.patch(created._id, { order: 91 });
      expect(patched).toMatchObject({ _id: created._id, order: 91, key });
      expect(await anonymous.service('industries').get(created._id)).toMatchObject({ order: 91 });

      const removed = await industries.remove(created._id);
      expect(removed).toMatchObject({ _id: created._id });
      expect(await rejectionOf(client.service('industries').get(created._id))).toMatchObject({
        name: 'NotFound',
        code: 404,
      });
    });

    it('creates a user (registration and by an admin) without a password in the result', async () => {
      const anonymous = connect();
      const email = uniqueEmail(`reg-${transport}`);
      const registered = await anonymous.service('users').create({ email, password: 'Secret123-Owner', name: 'Owner' });
      expect(registered).toMatchObject({ email, role: 'member', name: 'Owner' });
      expect(containsPassword(registered)).toBe(false);

      // The new account can sign in with the password it chose.
      const again = connect();
      const login = await again.authenticate({ strategy: 'local', email, password: 'Secret123-Owner' });
      expect(login.user).toMatchObject({ _id: registered._id, role: 'member' });
      expect(containsPassword(login)).toBe(false);

      const admin = connect();
      await admin.authenticate({ strategy: 'local', ...ADMIN });
      const editorEmail = uniqueEmail(`staff-${transport}`);
      const staff = await admin.service('users').create({ email: editorEmail, password: 'Editor999x', role: 'editor' });
      expect(staff).toMatchObject({ email: editorEmail, role: 'editor' });
      expect(containsPassword(staff)).toBe(false);
      const patched = await admin.service('users').patch(staff._id, { password: 'Changed999x' });
      expect(containsPassword(patched)).toBe(false);
      const list = await admin.service('users').find({ query: { $limit: 50 } });
      expect(containsPassword(list)).toBe(false);
      const removed = await admin.service('users').remove(staff._id);
      expect(containsPassword(removed)).toBe(false);
    });
  });
});
