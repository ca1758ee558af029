import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import pino from 'pino';
import { FcmPushProvider } from '../../server/push/fcm.ts';
import type { LocalPushProvider } from '../../server/push/local.ts';
import type { PushOutcome, PushProvider } from '../../server/push/provider.ts';
import { PushSender, PUSH_RULES } from '../../server/push/sender.ts';
import type { RunningServer } from '../../server/server.ts';
import { newId } from '../../server/db/ids.ts';
import { hashInstallationSecret } from '../../server/services/app-devices/installations.ts';
import { pushSenderOf } from '../../server/services/push-messages/push-messages.ts';
import {
  accessTokenOf,
  createAccount,
  createTestApp,
  createTestDatabase,
  restCall,
  skipReason,
  socketClient,
  startTestServer,
  testConfig,
  type SocketClient,
} from './harness.ts';

/**
 * Push messages (issue 33, decision 055): the audience a message reaches, each device in its own
 * language; sending now, on its date, or not at all once cancelled; quiet hours on the device's
 * clock; a send stopped half-way and started again reaches every device once; the devices' reports
 * count once; a token the provider no longer knows turns the device's push off; the statistics;
 * and who may do what.
 */

type Caller = 'signed out' | 'member' | 'editor' | 'admin';
type Message = Record<string, unknown> & { _id: string; status: string };

let nextAddress = 1;
const address = () => `10.55.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const TEXT = {
  title: { en: 'Lunch deal', 'zh-hk': '午市優惠', 'zh-cn': '午市优惠' },
  body: { en: 'Two courses for $88 today.', 'zh-hk': '今日兩道菜 $88。', 'zh-cn': '今日两道菜 $88。' },
};

interface DeviceSpec {
  locale?: string;
  region?: string;
  timeZone?: string;
  pushEnabled?: boolean;
  user?: string | null;
  token?: string | null;
}

describe.skipIf(skipReason)('push messages', () => {
  let server: RunningServer;
  let knex: Knex;
  let provider: LocalPushProvider;
  let sender: PushSender;
  const tokens = {} as Record<Exclude<Caller, 'signed out'>, string>;
  let appUser: string;
  const sockets: SocketClient[] = [];

  const rest = (caller: Caller, method: string, path: string, body?: unknown, locale = 'en') =>
    restCall(server.url, method, path, {
      body,
      locale,
      address: address(),
      ...(caller === 'signed out' ? {} : { token: tokens[caller] }),
    });

  /** A device written straight to the table; answers its row id, install id and secret. */
  async function device(
    spec: DeviceSpec = {},
  ): Promise<{ id: string; deviceId: string; secret: string; token: string }> {
    const id = newId();
    const deviceId = `test-${id}`;
    const secret = `secret-${id}`;
    const token = spec.token === undefined ? `token-${id}` : spec.token;
    await knex('app_devices').insert({
      id,
      device_id: deviceId,
      platform: 'android',
      locale: spec.locale ?? 'en',
      region: spec.region ?? 'hk',
      time_zone: spec.timeZone ?? 'Asia/Hong_Kong',
      push_enabled: spec.pushEnabled ?? true,
      push_token: token,
      app_user_id: spec.user ?? null,
      secret_hash: hashInstallationSecret(secret),
    });
    return { id, deviceId, secret, token: token ?? '' };
  }

  /**
   * A message made by the editor over REST; answers it. Urgent unless a test says otherwise: the
   * audience includes the seed's devices, some on a clock in its quiet hours at this hour of the
   * real day (Toronto's evening is Hong Kong's morning), and only the quiet-hours tests are about those.
   */
  async function compose(fields: Record<string, unknown> = {}): Promise<Message> {
    const created = await rest('editor', 'POST', 'pushMessages', { ...TEXT, urgent: true, ...fields });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Message;
  }

  const message = async (id: string) => (await server.api.service('pushMessages').get(id)) as unknown as Message;
  const sentTo = async (id: string) =>
    (await knex('push_deliveries').where({ message_id: id }).orderBy('device_id').pluck('device_id')) as string[];
  const untilSent = (id: string) =>
    eventually(async () => {
      const record = await message(id);
      return record.status === 'sent' && record;
    }, `message ${id} to be sent`);
  const tokensSent = (id: string) => provider.sent.filter((push) => push.notification.data?.message === id);

  beforeAll(async () => {
    // The periodic look at what is due is the tests' own to call (with the clock they set).
    server = await startTestServer({ trustProxy: 'loopback' });
    knex = server.database.knex;
    sender = pushSenderOf(server.api);
    provider = sender.provider as LocalPushProvider;
    sender.batchSize = 10;
    for (const role of ['member', 'editor', 'admin'] as const) {
      const account = await createAccount(knex, { role, label: `push-${role}` });
      tokens[role] = await accessTokenOf(server.url, account, address());
    }
    appUser = newId();
    await knex('app_users').insert({ id: appUser, name: 'Ada Wong', email: 'ada@example.test', password: 'x' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
  });

  it('reach the audience chosen, devices with push off never, each in its own language or else English', async () => {
    // A region of this test's own, so other tests' devices stay out of the counts.
    const region = 'aud';
    const en = await device({ region });
    const hk = await device({ region, locale: 'zh-hk', user: appUser });
    const cn = await device({ region: 'audx', locale: 'zh-cn', user: appUser });
    const off = await device({ region, pushEnabled: false });
    const noToken = await device({ region, token: null });
    const mine = [en, hk, cn, off, noToken].map((d) => d.id);

    const byRegion = await compose({ audience: 'region', audienceRegion: region });
    expect((await rest('editor', 'POST', 'pushSends', { message: byRegion._id, action: 'now' })).status).toBe(201);
    await untilSent(byRegion._id);
    expect(await sentTo(byRegion._id)).toEqual([en.id, hk.id].sort());

    const byLanguage = await compose({ audience: 'locale', audienceLocale: 'zh-cn' });
    await rest('editor', 'POST', 'pushSends', { message: byLanguage._id, action: 'now' });
    await untilSent(byLanguage._id);
    expect((await sentTo(byLanguage._id)).filter((id) => mine.includes(id))).toEqual([cn.id]);

    const users = await compose({ audience: 'users' });
    await rest('editor', 'POST', 'pushSends', { message: users._id, action: 'now' });
    await untilSent(users._id);
    const withUsers = await sentTo(users._id);
    expect(withUsers.filter((id) => mine.includes(id))).toEqual([hk.id, cn.id].sort());
    // The seed's demo devices with an app user signed in too, none without one.
    const signedIn = await knex('app_devices').whereIn('id', withUsers).whereNull('app_user_id').count({ n: '*' });
    expect(Number(signedIn[0]?.n)).toBe(0);

    const one = await compose({ audience: 'device', device: cn.id });
    await rest('editor', 'POST', 'pushSends', { message: one._id, action: 'now' });
    await untilSent(one._id);
    expect(await sentTo(one._id)).toEqual([cn.id]);

    const all = await compose({ audience: 'all', title: { en: 'Only English' }, body: { en: 'For everyone.' } });
    await rest('editor', 'POST', 'pushSends', { message: all._id, action: 'now' });
    const sent = await untilSent(all._id);
    const reached = await sentTo(all._id);
    expect(reached).toEqual(expect.arrayContaining([en.id, hk.id, cn.id]));
    expect(reached).not.toContain(off.id);
    expect(reached).not.toContain(noToken.id);
    const enabled = await knex('app_devices').where('push_enabled', true).whereNotNull('push_token').count({ n: '*' });
    expect(sent.targeted).toBe(Number(enabled[0]?.n));

    // Each device in its language; a message without that language in English.
    const titles = new Map(tokensSent(byRegion._id).map((push) => [push.token, push.notification]));
    expect(titles.get(en.token)).toMatchObject({ title: 'Lunch deal', body: 'Two courses for $88 today.' });
    expect(titles.get(hk.token)).toMatchObject({ title: '午市優惠', body: '今日兩道菜 $88。' });
    expect(tokensSent(byLanguage._id).find((push) => push.token === cn.token)?.notification.title).toBe('午市优惠');
    expect(tokensSent(all._id).find((push) => push.token === hk.token)?.notification).toMatchObject({
      title: 'Only English',
      body: 'For everyone.',
      data: { message: all._id },
    });
  });

  it('need what each audience names, and a date to be scheduled', async () => {
    const noRegion = await rest('editor', 'POST', 'pushMessages', { ...TEXT, audience: 'region' });
    expect(noRegion.status).toBe(400);
    expect(noRegion.body.errors).toHaveProperty('audienceRegion');
    const noDate = await rest('editor', 'POST', 'pushMessages', { ...TEXT, status: 'scheduled' });
    expect(noDate.status).toBe(400);
    expect(noDate.body.errors).toHaveProperty('date');
    const noEnglish = await rest('editor', 'POST', 'pushMessages', { title: { 'zh-hk': '標題' }, body: TEXT.body });
    expect(noEnglish.status).toBe(400);
    expect(noEnglish.body.errors).toHaveProperty(['title.en']);
  });

  it('go on their date, not before; a cancelled one never', async () => {
    const region = 'sch';
    const target = await device({ region, timeZone: 'Europe/London' });
    // 12:00 in London, 20:00 in Hong Kong: outside the quiet hours of both.
    let now = new Date('2026-12-01T12:00:00Z');
    server.api.set('clock', () => now);
    try {
      const date = new Date('2026-12-01T13:00:00Z').toISOString();
      const scheduled = await compose({ audience: 'region', audienceRegion: region, date, status: 'scheduled' });
      const cancelled = await compose({ audience: 'region', audienceRegion: region, date });
      const set = await rest('editor', 'POST', 'pushSends', { message: cancelled._id, action: 'schedule' });
      expect(set.body).toMatchObject({ status: 'scheduled' });
      expect(
        (await rest('editor', 'POST', 'pushSends', { message: cancelled._id, action: 'cancel' })).body,
      ).toMatchObject({ status: 'cancelled' });
      // A cancelled message is not scheduled again, nor sent now.
      expect((await rest('editor', 'POST', 'pushSends', { message: cancelled._id, action: 'now' })).status).toBe(409);
      expect((await rest('editor', 'PATCH', `pushMessages/${cancelled._id}`, { status: 'scheduled' })).status).toBe(
        409,
      );

      await sender.due();
      expect((await message(scheduled._id)).status).toBe('scheduled');
      now = new Date('2026-12-01T13:00:05Z');
      await sender.due();
      const sent = await untilSent(scheduled._id);
      expect(sent).toMatchObject({ targeted: 1, sent: 1, failed: 0 });
      expect(await sentTo(scheduled._id)).toEqual([target.id]);
      expect((await message(cancelled._id)).status).toBe('cancelled');
      expect(await sentTo(cancelled._id)).toEqual([]);
    } finally {
      server.api.set('clock', undefined);
    }
  });

  it('wait for 08:00 on the device’s own clock in its quiet hours, unless urgent', async () => {
    const region = 'qh';
    const hongKong = await device({ region, timeZone: 'Asia/Hong_Kong' });
    const london = await device({ region, timeZone: 'Europe/London' });
    // 23:00 in Hong Kong, 15:00 in London.
    let now = new Date('2026-12-02T15:00:00Z');
    server.api.set('clock', () => now);
    try {
      const date = now.toISOString();
      const calm = await compose({
        audience: 'region',
        audienceRegion: region,
        date,
        status: 'scheduled',
        urgent: false,
      });
      const urgent = await compose({
        audience: 'region',
        audienceRegion: region,
        date,
        status: 'scheduled',
        urgent: true,
      });
      await sender.due();
      const urgentSent = await untilSent(urgent._id);
      expect(urgentSent).toMatchObject({ targeted: 2, sent: 2 });

      await eventually(async () => (await message(calm._id)).sent === 1 && true, 'London to get it');
      expect(tokensSent(calm._id).map((push) => push.token)).toEqual([london.token]);
      const waiting = await knex('push_deliveries').where({ message_id: calm._id, device_id: hongKong.id }).first();
      expect(waiting).toMatchObject({ state: 'pending' });
      // 08:00 the next morning in Hong Kong.
      expect(new Date(waiting.due_at as string).toISOString()).toBe('2026-12-03T00:00:00.000Z');
      expect((await message(calm._id)).status).toBe('sending');

      now = new Date('2026-12-02T23:59:00Z');
      await sender.due();
      await sleep(300);
      expect(tokensSent(calm._id)).toHaveLength(1);
      now = new Date('2026-12-03T00:00:01Z');
      await sender.due();
      expect(await untilSent(calm._id)).toMatchObject({ targeted: 2, sent: 2 });
      expect(tokensSent(calm._id).map((push) => push.token)).toEqual([london.token, hongKong.token]);
    } finally {
      server.api.set('clock', undefined);
    }
  });

  /** A message in `sending`, as a send job finds it, with no job sent for it: the test runs the job's work itself. */
  async function sendingMessage(region: string): Promise<string> {
    const id = newId();
    await knex('push_messages').insert({
      id,
      ...{ title: JSON.stringify(TEXT.title), body: JSON.stringify(TEXT.body) },
      audience: 'region',
      audience_region: region,
      status: 'sending',
      send_at: new Date(),
      urgent: true,
    });
    return id;
  }

  it('reach every device exactly once when the send stops half-way and starts again', async () => {
    const region = 'rst';
    const devices = await Promise.all(Array.from({ length: 25 }, () => device({ region })));
    const id = await sendingMessage(region);
    let batches = 0;
    // Stopped after two batches of ten, as an instance that is shutting down stops between two.
    const first = await sender.work(id, { shouldStop: () => batches++ >= 2 });
    expect(first).toBe('stopped');
    expect(await message(id)).toMatchObject({ status: 'sending', targeted: 25, sent: 20 });
    const second = await sender.work(id);
    expect(second).toBe('sent');
    const pushes = tokensSent(id).map((push) => push.token);
    expect(pushes.sort()).toEqual(devices.map((d) => d.token).sort());
    expect(new Set(pushes).size).toBe(25);
    expect(await message(id)).toMatchObject({ status: 'sent', targeted: 25, sent: 25, failed: 0 });
  });

  it('never sends twice what a run that died had claimed: those deliveries are failed', async () => {
    const region = 'die';
    await Promise.all(Array.from({ length: 15 }, () => device({ region })));
    const id = await sendingMessage(region);
    // A run whose provider never answers: its process dies with the batch in flight.
    const hanging: PushProvider = { name: 'local', send: () => new Promise<PushOutcome[]>(() => undefined) };
    const dying = new PushSender({
      knex,
      provider: hanging,
      jobs: server.api.jobs,
      logger: pino({ level: 'silent' }),
      clock: () => new Date(),
      batchSize: 10,
      changed: () => undefined,
    });
    void dying.work(id);
    await eventually(async () => {
      const rows = await knex('push_deliveries').where({ message_id: id, state: 'sending' }).count({ n: '*' });
      return Number(rows[0]?.n) === 10;
    }, 'the dying run to claim a batch');
    // Before the claim times out, nothing of it is touched; after, it is failed and the rest sent.
    const later = new Date(Date.now() + PUSH_RULES.claimTimeoutMs + 60_000);
    server.api.set('clock', () => later);
    try {
      expect(await sender.work(id)).toBe('sent');
    } finally {
      server.api.set('clock', undefined);
    }
    expect(tokensSent(id)).toHaveLength(5);
    expect(await message(id)).toMatchObject({ status: 'sent', targeted: 15, sent: 5, failed: 10 });
  });

  it('count a device’s receipt and opening once, however often and however concurrently it reports', async () => {
    const region = 'rcp';
    const devices = await Promise.all(Array.from({ length: 4 }, () => device({ region })));
    const [a, b, c, d] = devices as [
      (typeof devices)[0],
      (typeof devices)[0],
      (typeof devices)[0],
      (typeof devices)[0],
    ];
    const sent = await compose({ audience: 'region', audienceRegion: region });
    await rest('editor', 'POST', 'pushSends', { message: sent._id, action: 'now' });
    await untilSent(sent._id);
    const report = (who: typeof a, event: string, secret = who.secret) =>
      rest('signed out', 'POST', 'pushReceipts', { message: sent._id, deviceId: who.deviceId, secret, event });

    const five = await Promise.all(Array.from({ length: 5 }, () => report(a, 'received')));
    expect(five.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    expect(five[0]?.body).toMatchObject({ recorded: true });
    const opens = await Promise.all(Array.from({ length: 5 }, () => report(b, 'opened')));
    expect(opens.every((answer) => answer.status === 201)).toBe(true);
    await report(b, 'received');
    await report(c, 'received');
    await report(c, 'opened');
    await report(c, 'opened');

    const wrong = await report(d, 'received', 'not-its-secret');
    expect(wrong.status).toBe(403);
    const unknown = await rest('signed out', 'POST', 'pushReceipts', {
      message: sent._id,
      deviceId: 'no-such-device',
      secret: d.secret,
      event: 'received',
    });
    expect(unknown.status).toBe(403);
    expect((await rest('signed out', 'POST', 'pushReceipts', { message: sent._id, deviceId: d.deviceId })).status).toBe(
      400,
    );

    expect(await message(sent._id)).toMatchObject({
      targeted: 4,
      sent: 4,
      failed: 0,
      received: 3,
      opened: 2,
      openRate: 50,
    });
    const rows = await knex('push_deliveries').where({ message_id: sent._id }).whereNotNull('received_at');
    expect(rows).toHaveLength(3);
  });

  it('announce the statistics live, at most every half second, not once per report', async () => {
    const region = 'live';
    const devices = await Promise.all(Array.from({ length: 30 }, () => device({ region })));
    const sent = await compose({ audience: 'region', audienceRegion: region });
    await rest('editor', 'POST', 'pushSends', { message: sent._id, action: 'now' });
    await untilSent(sent._id);
    const socket = socketClient(server.url, { 'x-forwarded-for': address() });
    sockets.push(socket);
    await socket.client.authenticate({ strategy: 'jwt', accessToken: tokens.editor });
    const heard: Message[] = [];
    socket.client.service('pushMessages').on('patched', (record: Message) => {
      if (record._id === sent._id) heard.push(record);
    });
    const started = Date.now();
    await Promise.all(
      devices.map((who) =>
        rest('signed out', 'POST', 'pushReceipts', {
          message: sent._id,
          deviceId: who.deviceId,
          secret: who.secret,
          event: 'opened',
        }),
      ),
    );
    await eventually(async () => heard.at(-1)?.opened === 30 && true, 'the last figures to be heard');
    const took = Date.now() - started;
    expect(heard.length).toBeLessThan(30);
    expect(heard.length).toBeLessThanOrEqual(Math.ceil(took / PUSH_RULES.announceMs) + 1);
    expect(heard.at(-1)).toMatchObject({ received: 30, opened: 30, openRate: 100 });
  });

  it('turn a device’s push off when the provider says the app is gone (local and FCM)', async () => {
    const region = 'gone';
    const kept = await device({ region });
    const gone = await device({ region, token: 'unregistered:abc' });
    const sent = await compose({ audience: 'region', audienceRegion: region });
    await rest('editor', 'POST', 'pushSends', { message: sent._id, action: 'now' });
    expect(await untilSent(sent._id)).toMatchObject({ targeted: 2, sent: 1, failed: 1 });
    expect(await knex('app_devices').where({ id: gone.id }).first('push_enabled')).toEqual({ push_enabled: false });
    expect(await knex('app_devices').where({ id: kept.id }).first('push_enabled')).toEqual({ push_enabled: true });

    // FCM's HTTP v1 API, answered by a fake fetch as FCM answers an uninstalled app.
    const fcmRegion = 'fcmg';
    const fcmKept = await device({ region: fcmRegion, token: 'fcm-kept' });
    const fcmGone = await device({ region: fcmRegion, token: 'fcm-gone' });
    const fcmBad = await device({ region: fcmRegion, token: 'fcm-bad' });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const requests: string[] = [];
    const fakeFetch: typeof fetch = async (input, init) => {
      const url = String(input);
      if (url.endsWith('/token'))
        return Response.json({ access_token: 'access', expires_in: 3600, token_type: 'Bearer' });
      const body = JSON.parse(String(init?.body)) as { message: { token: string } };
      requests.push(body.message.token);
      if (body.message.token === 'fcm-bad')
        return Response.json(
          {
            error: {
              code: 400,
              status: 'INVALID_ARGUMENT',
              details: [
                { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'INVALID_ARGUMENT' },
              ],
            },
          },
          { status: 400 },
        );
      if (body.message.token === 'fcm-gone')
        return Response.json(
          {
            error: {
              code: 404,
              status: 'NOT_FOUND',
              details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }],
            },
          },
          { status: 404 },
        );
      return Response.json({ name: `projects/p/messages/${body.message.token}` });
    };
    const fcm = new FcmPushProvider({
      account: {
        project_id: 'p',
        client_email: 'push@p.iam.gserviceaccount.com',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        token_uri: 'https://oauth.test/token',
      },
      endpoint: 'https://fcm.test',
      fetch: fakeFetch,
    });
    const fcmSender = new PushSender({
      knex,
      provider: fcm,
      jobs: server.api.jobs,
      logger: pino({ level: 'silent' }),
      clock: () => new Date(),
      batchSize: 10,
      changed: () => undefined,
    });
    const id = await sendingMessage(fcmRegion);
    expect(await fcmSender.work(id)).toBe('sent');
    expect(requests.sort()).toEqual(['fcm-bad', 'fcm-gone', 'fcm-kept']);
    expect(await message(id)).toMatchObject({ targeted: 3, sent: 1, failed: 2 });
    // A token refused as invalid while the same message went to another device: the device's fault.
    expect(await knex('app_devices').where({ id: fcmBad.id }).first('push_enabled')).toEqual({ push_enabled: false });
    expect(await knex('app_devices').where({ id: fcmGone.id }).first('push_enabled')).toEqual({ push_enabled: false });
    expect(await knex('app_devices').where({ id: fcmKept.id }).first('push_enabled')).toEqual({ push_enabled: true });
    const failed = await knex('push_deliveries')
      .where({ message_id: id, device_id: fcmGone.id })
      .first('state', 'error');
    expect(failed).toMatchObject({ state: 'failed' });
    expect(String(failed.error)).toMatch(/^unregistered/);
  });

  it('send a test to the test device without changing the message', async () => {
    const test = await device({ region: 'tst', locale: 'zh-hk' });
    const draft = await compose({ device: test.id });
    const answer = await rest('editor', 'POST', 'pushSends', { message: draft._id, action: 'test' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ sent: true, status: 'draft' });
    expect(provider.sent.at(-1)).toMatchObject({
      token: test.token,
      notification: { title: '午市優惠', data: { message: draft._id, test: '1' } },
    });
    expect(await message(draft._id)).toMatchObject({ status: 'draft', targeted: 0, sent: 0 });
    expect(await sentTo(draft._id)).toEqual([]);
    const without = await compose();
    const refused = await rest('editor', 'POST', 'pushSends', { message: without._id, action: 'test' });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toHaveProperty('device');
  });

  it('keep their states and statistics on every path: REST, socket.io and $set', async () => {
    const draft = await compose();
    // Statistics are the server's.
    const counted = await rest('editor', 'PATCH', `pushMessages/${draft._id}`, { sent: 1000 });
    expect([400, 403]).toContain(counted.status);
    const set = await rest('editor', 'PATCH', `pushMessages/${draft._id}`, { $set: { opened: 5 } });
    expect([400, 403]).toContain(set.status);
    expect((await rest('editor', 'POST', 'pushMessages', { ...TEXT, targeted: 5 })).status).not.toBe(201);
    // Only the server sends.
    expect((await rest('editor', 'PATCH', `pushMessages/${draft._id}`, { status: 'sent' })).status).toBe(409);
    expect((await rest('editor', 'PATCH', `pushMessages/${draft._id}`, { $set: { status: 'sending' } })).status).toBe(
      409,
    );
    expect((await rest('editor', 'POST', 'pushMessages', { ...TEXT, status: 'sent' })).status).toBe(409);

    // A sent message is no longer edited, whatever the transport.
    const region = 'lock';
    await device({ region });
    const sent = await compose({ audience: 'region', audienceRegion: region });
    await rest('editor', 'POST', 'pushSends', { message: sent._id, action: 'now' });
    await untilSent(sent._id);
    const edited = await rest('editor', 'PATCH', `pushMessages/${sent._id}`, { title: { en: 'Changed' } });
    expect(edited.status).toBe(409);
    expect(edited.body.message).toBe('This message can no longer be changed.');
    const socket = socketClient(server.url, { 'x-forwarded-for': address() });
    sockets.push(socket);
    await socket.client.authenticate({ strategy: 'jwt', accessToken: tokens.admin });
    const overSocket = await socket.client
      .service('pushMessages')
      .patch(sent._id, { $set: { title: { en: 'Changed' } } })
      .catch((error: { code: number }) => error);
    expect(overSocket).toMatchObject({ code: 409 });
    expect((await message(sent._id)).title).toEqual(TEXT.title);
    expect((await rest('admin', 'DELETE', `pushMessages/${sent._id}`)).status).toBe(409);
  });

  it('are staff’s: editors write, admins remove drafts and cancelled ones; members and signed-out callers nothing', async () => {
    const draft = await compose();
    for (const caller of ['signed out', 'member'] as const) {
      const status = caller === 'signed out' ? 401 : 403;
      expect((await rest(caller, 'GET', 'pushMessages')).status, caller).toBe(status);
      expect((await rest(caller, 'GET', `pushMessages/${draft._id}`)).status, caller).toBe(status);
      expect((await rest(caller, 'POST', 'pushMessages', TEXT)).status, caller).toBe(status);
      expect((await rest(caller, 'PATCH', `pushMessages/${draft._id}`, { urgent: true })).status, caller).toBe(status);
      expect((await rest(caller, 'DELETE', `pushMessages/${draft._id}`)).status, caller).toBe(status);
      expect((await rest(caller, 'POST', 'pushSends', { message: draft._id, action: 'now' })).status, caller).toBe(
        status,
      );
    }
    expect((await rest('signed out', 'GET', 'pushReceipts')).status).toBe(405);
    const list = await rest('editor', 'GET', 'pushMessages?$limit=5');
    expect(list.status).toBe(200);
    expect((await rest('editor', 'PATCH', `pushMessages/${draft._id}`, { urgent: true })).body).toMatchObject({
      urgent: true,
    });
    expect((await rest('editor', 'DELETE', `pushMessages/${draft._id}`)).status).toBe(403);
    expect((await rest('admin', 'DELETE', `pushMessages/${draft._id}`)).status).toBe(200);
    expect(await message(draft._id).catch(() => null)).toBeNull();
  });
});

describe.skipIf(skipReason)('a push message’s send across a restart of the server', () => {
  it('goes on where it stopped on the instance started next, every device exactly once', async () => {
    const database = await createTestDatabase();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    // FCM answered by a fake fetch, slowly enough that the instance stops half-way through.
    const requests: string[] = [];
    const fakeFetch: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/token')) return Response.json({ access_token: 'access', expires_in: 3600 });
      const token = (JSON.parse(String(init?.body)) as { message: { token: string } }).message.token;
      requests.push(token);
      await sleep(40);
      return Response.json({ name: `projects/p/messages/${token}` });
    };
    const settings = (base: ReturnType<typeof testConfig>) => ({
      ...base.push,
      provider: 'fcm' as const,
      fcm: {
        account: {
          project_id: 'p',
          client_email: 'push@p.iam.gserviceaccount.com',
          private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          token_uri: 'https://oauth.test/token',
        },
        endpoint: 'https://fcm.test',
        concurrency: 5,
        fetch: fakeFetch,
      },
      batchSize: 10,
      dueSeconds: 3600,
    });
    const first = await createTestApp({ push: settings(testConfig()) }, { database });
    let second: Awaited<ReturnType<typeof createTestApp>> | undefined;
    try {
      const { knex } = database;
      const tokens = Array.from({ length: 60 }, (_, index) => `restart-${index}`);
      await knex('app_devices').insert(
        tokens.map((token) => ({
          id: newId(),
          device_id: `device-${token}`,
          platform: 'ios',
          region: 'rsa',
          push_token: token,
          secret_hash: hashInstallationSecret(token),
        })),
      );
      const id = newId();
      await knex('push_messages').insert({
        id,
        title: JSON.stringify(TEXT.title),
        body: JSON.stringify(TEXT.body),
        audience: 'region',
        audience_region: 'rsa',
        urgent: true,
      });
      expect(await pushSenderOf(first.api).sendNow(id)).toBe(true);
      await eventually(async () => requests.length >= 15 && true, 'the first instance to be sending');
      // The instance stops (a deploy): its job returns between two steps.
      await first.close();
      const stoppedAt = requests.length;
      expect(stoppedAt).toBeLessThan(60);
      const row = (await knex('push_messages').where({ id }).first('status', 'sent')) as {
        status: string;
        sent: number;
      };
      expect(row.status).toBe('sending');
      expect(await knex('push_deliveries').where({ message_id: id, state: 'sending' })).toHaveLength(0);

      // The next instance finds it at its first look at what is due, and sends the rest.
      second = await createTestApp({ push: settings(testConfig()) }, { database });
      await pushSenderOf(second.api).due();
      await eventually(
        async () =>
          ((await knex('push_messages').where({ id }).first('status')) as { status: string }).status === 'sent',
        'the second instance to finish the send',
      );
      expect([...requests].sort()).toEqual([...tokens].sort());
      expect(await knex('push_messages').where({ id }).first('targeted', 'sent', 'failed')).toEqual({
        targeted: 60,
        sent: 60,
        failed: 0,
      });
    } finally {
      await second?.close();
      await database.close();
    }
  });
});
