import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import {
  accessTokenOf,
  createAccount,
  restCall,
  skipReason,
  socketClient,
  startTestServer,
  uniqueEmail,
  type SocketClient,
} from './harness.ts';

/**
 * The installations of the apps (decision 054): each registers itself, signed in or not, and
 * again at each session start; the same `deviceId` updates its one row when the installation
 * proves itself with the secret its first registration answered; the app user signed in on it is
 * linked, and unlinked when it starts a session signed out; staff see every device, admins switch
 * a device's push off, and the secret never leaves in a read or an event.
 */

let nextAddress = 1;
const address = () => `10.54.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

type Body = Record<string, unknown>;

describe.skipIf(skipReason)('the apps’ installations', () => {
  let server: RunningServer;
  const staff = {} as Record<'editor' | 'admin', string>;
  let staffSocket: SocketClient;
  let serial = 0;

  const rest = (
    method: string,
    path: string,
    options: { token?: string; body?: unknown; locale?: string; address?: string } = {},
  ) => restCall(server.url, method, path, { address: address(), ...options });

  const newDeviceId = () => `a1b2c3d4-${Date.now().toString(36)}-${serial++}`;

  async function appUser() {
    const email = uniqueEmail('device-owner');
    const password = 'Kowloon2026';
    const created = await rest('POST', 'appUsers', { body: { name: 'Wong Siu Ming', email, password } });
    expect(created.status).toBe(201);
    const signedIn = await rest('POST', 'appAuthentication', { body: { strategy: 'local', email, password } });
    expect(signedIn.status).toBe(201);
    return { _id: created.body._id as string, token: signedIn.body.accessToken as string };
  }

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    for (const role of ['editor', 'admin'] as const) {
      const account = await createAccount(server.database.knex, { role, label: `devices-${role}` });
      staff[role] = await accessTokenOf(server.url, account, address());
    }
    staffSocket = socketClient(server.url, { 'x-forwarded-for': address() });
    await staffSocket.client.authenticate({ strategy: 'jwt', accessToken: staff.editor });
  });
  afterAll(async () => {
    staffSocket?.close();
    await server?.close();
  });

  it('register once with a secret, then update the same row at each session start', async () => {
    const deviceId = newDeviceId();
    const heard: Body[] = [];
    const listener = (record: Body) => heard.push(record);
    staffSocket.client.service('appDevices').on('created', listener);
    const first = await rest('POST', 'appDevices', {
      address: '203.0.113.7',
      body: {
        deviceId,
        platform: 'ios',
        appVersion: '3.2.0',
        locale: 'zh-hk',
        timeZone: 'Asia/Hong_Kong',
        pushToken: 'fcm-token-1',
      },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const secret = first.body.secret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.body).toMatchObject({
      deviceId,
      platform: 'ios',
      user: null,
      lastIP: '203.0.113.7',
      pushEnabled: true,
      locale: 'zh-hk',
    });
    expect(first.body).not.toHaveProperty('secretHash');
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).not.toHaveProperty('secret');
    expect(heard[0]).not.toHaveProperty('secretHash');
    staffSocket.client.service('appDevices').off('created', listener);

    // Without its secret, or with another, a known id is refused, and nothing changes.
    for (const wrong of [undefined, 'not-the-secret']) {
      const refused = await rest('POST', 'appDevices', {
        body: { deviceId, platform: 'android', pushToken: 'stolen', ...(wrong ? { secret: wrong } : {}) },
        locale: 'zh-hk',
      });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('未能確認此裝置，請重新安裝應用程式或重新登入。');
    }

    const firstSession = await server.database.knex('app_devices').where('device_id', deviceId).first();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await rest('POST', 'appDevices', {
      address: '198.51.100.23',
      body: { deviceId, secret, platform: 'ios', appVersion: '3.3.0', pushToken: 'fcm-token-2' },
    });
    expect([200, 201]).toContain(again.status);
    expect(again.body).toMatchObject({
      _id: first.body._id,
      appVersion: '3.3.0',
      pushToken: 'fcm-token-2',
      lastIP: '198.51.100.23',
    });
    expect(again.body).not.toHaveProperty('secret');
    const rows = await server.database.knex('app_devices').where('device_id', deviceId);
    expect(rows).toHaveLength(1);
    expect(rows[0].first_session_at.getTime()).toBe(firstSession.first_session_at.getTime());
    expect(rows[0].last_session_at.getTime()).toBeGreaterThan(firstSession.last_session_at.getTime());

    // Five session starts at once still leave one row.
    const together = await Promise.all(
      Array.from({ length: 5 }, () => rest('POST', 'appDevices', { body: { deviceId, secret, platform: 'ios' } })),
    );
    expect(together.map((answer) => answer.status).every((status) => status === 200 || status === 201)).toBe(true);
    expect(await server.database.knex('app_devices').where('device_id', deviceId)).toHaveLength(1);
  });

  it('link the app user signed in at the session start, and unlink when it starts signed out', async () => {
    const owner = await appUser();
    const other = await appUser();
    const deviceId = newDeviceId();
    const registered = await rest('POST', 'appDevices', {
      token: owner.token,
      body: { deviceId, platform: 'android' },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.user).toBe(owner._id);
    const secret = registered.body.secret as string;

    const mine = await rest('GET', 'appDevices', { token: owner.token });
    expect((mine.body.data as Body[]).map((row) => row.deviceId)).toEqual([deviceId]);
    expect((await rest('GET', 'appDevices', { token: other.token })).body.data).toEqual([]);
    expect((await rest('GET', `appDevices/${registered.body._id}`, { token: other.token })).status).toBe(404);

    // Another app user signs in on the same phone: the device is theirs now.
    const switched = await rest('POST', 'appDevices', {
      token: other.token,
      body: { deviceId, secret, platform: 'android' },
    });
    expect(switched.body.user).toBe(other._id);
    expect((await rest('GET', 'appDevices', { token: owner.token })).body.data).toEqual([]);
    // Signed out.
    const signedOut = await rest('POST', 'appDevices', { body: { deviceId, secret, platform: 'android' } });
    expect(signedOut.body.user).toBeNull();
  });

  it('refuse what the server sets, an unknown platform or time zone, in the caller’s language', async () => {
    const cases: [Body, string, number][] = [
      [{ platform: 'symbian' }, 'platform', 400],
      [{ platform: 'ios', timeZone: 'Mars/Olympus' }, 'timeZone', 400],
      [{ platform: 'ios', deviceId: 'short' }, 'deviceId', 400],
      [{ platform: 'ios', lastIP: '1.2.3.4' }, 'lastIP', 400],
      [{ platform: 'ios', firstSessionAt: '2020-01-01T00:00:00Z' }, 'firstSessionAt', 400],
    ];
    for (const [body, field, status] of cases) {
      const answer = await rest('POST', 'appDevices', { body: { deviceId: newDeviceId(), ...body }, locale: 'zh-cn' });
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body.errors, field).toHaveProperty(field);
    }
  });

  it('are read by staff, switched off by an admin alone, and never show their secret', async () => {
    const deviceId = newDeviceId();
    const registered = await rest('POST', 'appDevices', { body: { deviceId, platform: 'web' } });
    const id = registered.body._id as string;
    const listed = await rest('GET', `appDevices?deviceId=${deviceId}`, { token: staff.editor });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toMatch(/secret/i);
    expect(
      (await rest('PATCH', `appDevices/${id}`, { token: staff.editor, body: { pushEnabled: false } })).status,
    ).toBe(403);
    const off = await rest('PATCH', `appDevices/${id}`, { token: staff.admin, body: { pushEnabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.pushEnabled).toBe(false);
    // Nobody writes the server's fields, nor the id the installation registered with.
    for (const body of [{ deviceId: newDeviceId() }, { $set: { lastIP: '1.1.1.1' } }, { secretHash: 'x' }]) {
      const refused = await rest('PATCH', `appDevices/${id}`, { token: staff.admin, body });
      expect([400, 403], JSON.stringify(body)).toContain(refused.status);
    }
    // Anyone else: not at all.
    expect((await rest('GET', 'appDevices')).status).toBe(401);
    expect((await rest('PATCH', `appDevices/${id}`, { body: { pushEnabled: true } })).status).toBe(401);
    expect((await rest('DELETE', `appDevices/${id}`, { token: staff.editor })).status).toBe(403);
    expect((await rest('DELETE', `appDevices/${id}`, { token: staff.admin })).status).toBe(200);
  });
});
