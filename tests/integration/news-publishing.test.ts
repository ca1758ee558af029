import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords.ts';
import { newId } from '../../server/db/ids.ts';
import { LocalFacebookProvider } from '../../server/facebook/local.ts';
import type { LocalPushProvider } from '../../server/push/local.ts';
import type { PushSender } from '../../server/push/sender.ts';
import { hashInstallationSecret } from '../../server/services/app-devices/installations.ts';
import type { EventReminders } from '../../server/services/news/notification.ts';
import { eventRemindersOf, facebookPosterOf, facebookProviderOf } from '../../server/services/news/publishing.ts';
import { pushSenderOf } from '../../server/services/push-messages/push-messages.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { FakeGraph, graphErrorBody } from '../fake-graph.ts';
import { accessTokenOf, createAccount, createTestDatabase, restCall, skipReason, testConfig } from './harness.ts';
import { photo } from './upload-fixtures.ts';

/**
 * What a news item's first publication sends, and the reminders of its event (decision 059), on
 * the real database: the push notification once, however the item is saved, unpublished and
 * published again, and when two publish it at once; its audience by region and each device's
 * language; the Facebook post once, its id kept, through the Graph API (a local stand-in for it,
 * never the real Facebook) with its failures tried again and then shown to staff; the event's
 * reminder the day before, at 10:00 on the event's clock, once per registrant's device, none to
 * those who cancelled or whose push is off.
 */

type Body = Record<string, unknown>;
type Item = Body & { _id: string };

let nextAddress = 1;
const address = () => `10.59.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

const PAGE = { id: '104220000000001', token: 'EAAB-test-page-token' };
/** An instant written in Hong Kong time (UTC+8). */
const hk = (local: string) => new Date(`${local}+08:00`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skipReason)('publishing the news', () => {
  let server: RunningServer;
  let knex: Knex;
  let graph: FakeGraph;
  let pushes: LocalPushProvider;
  let sender: PushSender;
  let reminders: EventReminders;
  let uploadsRoot: string;
  const tokens = {} as Record<'member' | 'editor', string>;

  const rest = (caller: 'member' | 'editor', method: string, to: string, body?: unknown) =>
    restCall(server.url, method, to, { body, address: address(), token: tokens[caller] });
  const setClock = (date: Date | undefined) => server.api.set('clock', date ? () => date : undefined);

  async function createNews(overrides: Body = {}): Promise<Item> {
    const { status, body } = await rest('editor', 'POST', 'news', {
      title: { en: 'Pickup orders are here', 'zh-hk': '預訂自取登場', 'zh-cn': '预订自取上线' },
      content: {
        en: '<p>Order ahead &amp; skip the queue.</p>',
        'zh-hk': '<p>預先落單，免排隊。</p>',
        'zh-cn': '<p>提前下单，免排队。</p>',
      },
      region: 'hk',
      status: 'draft',
      ...overrides,
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return body as Item;
  }
  const patchNews = async (id: string, data: Body) => {
    const { status, body } = await rest('editor', 'PATCH', `news/${id}`, data);
    expect(status, JSON.stringify(body)).toBe(200);
    return body as Item;
  };
  const staffItem = async (id: string) => (await rest('editor', 'GET', `news/${id}`)).body as Item;

  /** The push messages the server wrote for an item. */
  const messagesOf = (newsId: string, origin: 'news' | 'reminder') =>
    knex('push_messages').where({ news_id: newsId, origin }).select('*') as Promise<Body[]>;
  const pushesOf = (messageId: string) => pushes.sent.filter((push) => push.notification.data?.message === messageId);

  /** A device written straight to the table, pushes on unless said otherwise; answers its row id and token. */
  async function device(spec: {
    region?: string;
    locale?: string;
    timeZone?: string;
    pushEnabled?: boolean;
    user?: string | null;
  }): Promise<{ id: string; token: string }> {
    const id = newId();
    const token = `token-${id}`;
    await knex('app_devices').insert({
      id,
      device_id: `publish-${id}`,
      platform: 'ios',
      locale: spec.locale ?? 'en',
      region: spec.region ?? 'hk',
      time_zone: spec.timeZone ?? 'Asia/Hong_Kong',
      push_enabled: spec.pushEnabled ?? true,
      push_token: token,
      app_user_id: spec.user ?? null,
      secret_hash: hashInstallationSecret(`secret-${id}`),
    });
    return { id, token };
  }

  /** An app user written to the table and signed in as the apps do; answers their id and token. */
  async function appUser(label: string, locale = 'en'): Promise<{ id: string; token: string }> {
    const id = newId();
    const email = `${label}-${id.slice(0, 6)}@example.test`;
    await knex('app_users').insert({ id, name: label, email, password: await hashPassword('Kowloon2026'), locale });
    const { status, body } = await restCall(server.url, 'POST', 'appAuthentication', {
      body: { strategy: 'local', email, password: 'Kowloon2026' },
      address: address(),
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return { id, token: body.accessToken as string };
  }
  const register = async (user: { token: string }, news: string) => {
    const { status, body } = await restCall(server.url, 'POST', 'eventRegistrations', {
      body: { news },
      token: user.token,
      address: address(),
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return body as Item;
  };

  beforeAll(async () => {
    graph = await new FakeGraph().start();
    uploadsRoot = await mkdtemp(path.join(os.tmpdir(), 'news-publishing-uploads-'));
    const base = testConfig();
    server = await startServer(
      testConfig({
        trustProxy: 'loopback',
        uploads: { ...base.uploads, storage: { kind: 'folder', root: uploadsRoot } },
        // The Graph API at the local stand-in; a failed try is tried again within seconds.
        facebook: {
          provider: 'graph',
          graphUrl: graph.url,
          page: PAGE,
          retry: { retryLimit: 2, retryDelay: 1, retryDelayMax: 1 },
        },
      }),
      { database: await createTestDatabase(), pages: false },
    );
    knex = server.database.knex;
    sender = pushSenderOf(server.api);
    pushes = sender.provider as LocalPushProvider;
    reminders = eventRemindersOf(server.api);
    for (const role of ['member', 'editor'] as const) {
      const account = await createAccount(knex, { role, label: `publishing-${role}` });
      tokens[role] = await accessTokenOf(server.url, account, address());
    }
  });
  afterAll(async () => {
    await server?.close();
    await graph?.stop();
    await rm(uploadsRoot, { recursive: true, force: true });
  });

  describe('the push notification', () => {
    it('is one message, sent when the item is first published, however often it is saved and published again', async () => {
      // Noon in Hong Kong: the region's devices are out of their quiet hours.
      setClock(hk('2031-03-03T12:00:00'));
      try {
        const reader = await device({ region: 'hk', locale: 'zh-hk' });
        const item = await createNews({ sendNotification: true });
        expect(await messagesOf(item._id, 'news')).toEqual([]);
        const published = await patchNews(item._id, { status: 'published' });
        expect(published.publishedAt).toBe(hk('2031-03-03T12:00:00').toISOString());
        const [message] = await messagesOf(item._id, 'news');
        expect(message).toMatchObject({
          origin: 'news',
          audience: 'region',
          audience_region: 'hk',
          status: expect.stringMatching(/^(sending|sent)$/),
          urgent: false,
          title: { en: 'Pickup orders are here', 'zh-hk': '預訂自取登場', 'zh-cn': '预订自取上线' },
          body: { en: 'Order ahead & skip the queue.', 'zh-hk': '預先落單，免排隊。', 'zh-cn': '提前下单，免排队。' },
        });
        const id = message?.id as string;
        await expect
          .poll(async () => (await messagesOf(item._id, 'news'))[0]?.status, { timeout: 20_000 })
          .toBe('sent');
        // The device gets it in its language, with the item's id to open.
        expect(pushesOf(id).find((push) => push.token === reader.token)?.notification).toEqual({
          title: '預訂自取登場',
          body: '預先落單，免排隊。',
          data: { message: id, news: item._id },
        });

        // Unpublished, published again, edited while published: nothing more.
        await patchNews(item._id, { status: 'draft' });
        await patchNews(item._id, { status: 'published' });
        await patchNews(item._id, { title: { en: 'Pickup orders, now everywhere' }, status: 'published' });
        await patchNews(item._id, { $set: { status: 'published' } });
        expect(await messagesOf(item._id, 'news')).toHaveLength(1);
        expect(pushesOf(id).filter((push) => push.token === reader.token)).toHaveLength(1);

        // Staff find it among the push messages, linked to its item.
        const listed = await rest('editor', 'GET', `pushMessages?news=${item._id}`);
        expect(listed.body.data).toEqual([expect.objectContaining({ _id: id, news: item._id, origin: 'news' })]);
      } finally {
        setClock(undefined);
      }
    });

    it('is one message when the item is published twice at once, and none for an item that asks for none', async () => {
      setClock(hk('2031-03-03T12:00:00'));
      try {
        const item = await createNews({ sendNotification: true, name: 'twice' });
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => rest('editor', 'PATCH', `news/${item._id}`, { status: 'published' })),
        );
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
        expect(await messagesOf(item._id, 'news')).toHaveLength(1);
        // Whoever might write a second one, the table refuses it.
        const [message] = await messagesOf(item._id, 'news');
        const { open_rate: _generated, ...copy } = message as Body;
        await expect(knex('push_messages').insert({ ...copy, id: newId() })).rejects.toMatchObject({ code: '23505' });

        const created = await createNews({ status: 'published', sendNotification: true, name: 'at once' });
        expect(await messagesOf(created._id, 'news')).toHaveLength(1);
        const quiet = await createNews({ status: 'published', name: 'no notification' });
        expect(await messagesOf(quiet._id, 'news')).toEqual([]);
      } finally {
        setClock(undefined);
      }
    });

    it('goes to the devices of the item’s region, each in its language or else English', async () => {
      // 13:00 in Toronto, 10:00 in Vancouver.
      setClock(new Date('2031-03-03T18:00:00Z'));
      try {
        const en = await device({ region: 'ca', timeZone: 'America/Vancouver' });
        const zhHk = await device({ region: 'ca', locale: 'zh-hk', timeZone: 'America/Vancouver' });
        const zhCn = await device({ region: 'ca', locale: 'zh-cn', timeZone: 'America/Vancouver' });
        const elsewhere = await device({ region: 'hk', timeZone: 'America/Vancouver' });
        const off = await device({ region: 'ca', pushEnabled: false, timeZone: 'America/Vancouver' });
        const item = await createNews({
          region: 'canada',
          sendNotification: true,
          status: 'published',
          title: { en: 'Vancouver pop-up market', 'zh-hk': '溫哥華市集' },
          content: { en: '<p>Saturday at the harbour.</p>' },
        });
        const [message] = await messagesOf(item._id, 'news');
        expect(message).toMatchObject({ audience: 'region', audience_region: 'ca' });
        const id = message?.id as string;
        await expect.poll(() => pushesOf(id).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
        const got = new Map(pushesOf(id).map((push) => [push.token, push.notification]));
        expect(got.get(en.token)).toMatchObject({ title: 'Vancouver pop-up market', body: 'Saturday at the harbour.' });
        // Chinese without its own text: the invitation to read it, in Chinese.
        expect(got.get(zhHk.token)).toMatchObject({ title: '溫哥華市集', body: '在應用程式內打開，閱讀全文。' });
        // No Simplified Chinese title: English.
        expect(got.get(zhCn.token)).toMatchObject({ title: 'Vancouver pop-up market' });
        expect(got.has(elsewhere.token)).toBe(false);
        expect(got.has(off.token)).toBe(false);
        const reached = (await knex('push_deliveries').where({ message_id: id }).pluck('device_id')) as string[];
        const regions = (await knex('app_devices').whereIn('id', reached).distinct().pluck('region')) as string[];
        expect(regions).toEqual(['ca']);
      } finally {
        setClock(undefined);
      }
    });

    it('waits for the item’s window to open: scheduled at its publishFrom', async () => {
      const now = hk('2031-03-04T09:00:00');
      const from = hk('2031-03-05T09:00:00');
      let clock = now;
      server.api.set('clock', () => clock);
      try {
        const item = await createNews({
          sendNotification: true,
          status: 'published',
          publishFrom: from.toISOString(),
          name: 'later',
        });
        const [message] = await messagesOf(item._id, 'news');
        expect(message).toMatchObject({ status: 'scheduled' });
        expect(new Date(message?.send_at as string).toISOString()).toBe(from.toISOString());
        await sender.due();
        expect((await messagesOf(item._id, 'news'))[0]?.status).toBe('scheduled');
        clock = new Date(from.getTime() + 1000);
        await sender.due();
        await expect
          .poll(async () => (await messagesOf(item._id, 'news'))[0]?.status, { timeout: 20_000 })
          .toBe('sent');
      } finally {
        setClock(undefined);
      }
    });

    it('is written with the publication or not at all: a publication that fails leaves neither', async () => {
      const poster = facebookPosterOf(server.api);
      const queue = poster.queue.bind(poster);
      poster.queue = () => Promise.reject(new Error('the process died here'));
      const item = await createNews({ sendNotification: true, postToFacebook: true, name: 'all or nothing' });
      try {
        const failed = await rest('editor', 'PATCH', `news/${item._id}`, { status: 'published' });
        expect(failed.status).toBe(500);
      } finally {
        poster.queue = queue;
      }
      // Still a draft, never published, no message: the push message went with the publication.
      expect(await staffItem(item._id)).toMatchObject({ status: 'draft', publishedAt: null, facebookStatus: null });
      expect(await messagesOf(item._id, 'news')).toEqual([]);
      await patchNews(item._id, { status: 'published' });
      expect(await messagesOf(item._id, 'news')).toHaveLength(1);
      await expect.poll(async () => (await staffItem(item._id)).facebookStatus, { timeout: 20_000 }).toBe('posted');
    });
  });

  describe('the Facebook post', () => {
    it('is made once, with the item’s picture, its text and a link to it, and its id kept on the item', async () => {
      const image = new FormData();
      image.append('file', new Blob([new Uint8Array(await photo(640, 360))], { type: 'image/jpeg' }), 'market.jpg');
      const uploaded = await fetch(`${server.url}/api/attachments/upload/news`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.editor}`, 'x-forwarded-for': address() },
        body: image,
      });
      expect(uploaded.status).toBe(201);
      const picture = ((await uploaded.json()) as { data: { info: { id: string } } }).data.info.id;
      const item = await createNews({ postToFacebook: true, image: picture, name: 'on facebook' });
      const before = graph.requests.length;
      const published = await patchNews(item._id, { status: 'published' });
      expect(published.facebookStatus).toBe('pending');
      await expect.poll(async () => (await staffItem(item._id)).facebookStatus, { timeout: 20_000 }).toBe('posted');
      const posted = await staffItem(item._id);
      const requests = graph.requests.slice(before);
      expect(requests).toHaveLength(1);
      const [request] = requests;
      expect(request?.path).toBe(`/v21.0/${PAGE.id}/photos`);
      expect(request?.fields.access_token).toBe(PAGE.token);
      expect(request?.files.source).toMatchObject({ type: 'image/jpeg' });
      expect(request?.fields.caption?.split('\r\n\r\n')).toEqual([
        'Pickup orders are here',
        'Order ahead & skip the queue.',
        '預訂自取登場',
        '預先落單，免排隊。',
        `http://localhost:0/en/news/${item._id}`,
      ]);
      expect(posted.facebookPostId).toMatch(new RegExp(`^${PAGE.id}_\\d+$`));
      expect(posted.facebookError).toBeNull();

      // Saved, unpublished and published again: never posted twice; the id stays.
      await patchNews(item._id, { status: 'draft' });
      await patchNews(item._id, { status: 'published', name: 'on facebook, edited' });
      await sleep(1500);
      expect(graph.requests.length).toBe(before + 1);
      expect((await staffItem(item._id)).facebookPostId).toBe(posted.facebookPostId);
      // Nobody writes it from outside.
      expect((await rest('editor', 'PATCH', `news/${item._id}`, { facebookPostId: '1_2' })).status).toBe(400);
    });

    it('posts text and a link without a picture; an item that asks for no post is not posted', async () => {
      const before = graph.requests.length;
      const item = await createNews({ postToFacebook: true, status: 'published', name: 'text only' });
      await expect.poll(async () => (await staffItem(item._id)).facebookStatus, { timeout: 20_000 }).toBe('posted');
      const request = graph.requests.slice(before).find((seen) => seen.fields.link?.endsWith(item._id));
      expect(request?.path).toBe(`/v21.0/${PAGE.id}/feed`);
      expect(request?.fields).toMatchObject({
        link: `http://localhost:0/en/news/${item._id}`,
        access_token: PAGE.token,
      });
      const quiet = await createNews({ status: 'published', name: 'not on facebook' });
      await sleep(1000);
      expect((await staffItem(quiet._id)).facebookStatus).toBeNull();
      expect(graph.requests.some((seen) => seen.fields.link?.endsWith(quiet._id))).toBe(false);
    });

    it('is tried again after a rate limit, and posted', async () => {
      graph.answerNext({ status: 400, body: graphErrorBody(613, 'Calls to this api have exceeded the rate limit.') });
      const item = await createNews({ postToFacebook: true, status: 'published', name: 'rate limited' });
      await expect
        .poll(async () => (await staffItem(item._id)).facebookError, { timeout: 20_000 })
        .toBe('Facebook error 613: Calls to this api have exceeded the rate limit. (try 1; trying again)');
      expect((await staffItem(item._id)).facebookStatus).toMatch(/^(pending|posting)$/);
      await expect.poll(async () => (await staffItem(item._id)).facebookStatus, { timeout: 20_000 }).toBe('posted');
      expect(await staffItem(item._id)).toMatchObject({ facebookError: null, facebookPostId: expect.any(String) });
    });

    it('fails after its last try, or at once when Facebook refuses it; staff read why and post it again', async () => {
      // Three tries (the first and two more), each limited.
      const limited = { status: 400, body: graphErrorBody(32, 'Page request limit reached') };
      graph.answerNext(limited, limited, limited);
      const tired = await createNews({ postToFacebook: true, status: 'published', name: 'limited thrice' });
      await expect.poll(async () => (await staffItem(tired._id)).facebookStatus, { timeout: 30_000 }).toBe('failed');
      expect((await staffItem(tired._id)).facebookError).toBe('Facebook error 32: Page request limit reached');

      graph.answerNext({
        status: 400,
        body: graphErrorBody(190, 'Error validating access token: Session has expired.', { error_subcode: 463 }),
      });
      const refused = await createNews({ postToFacebook: true, status: 'published', name: 'expired token' });
      await expect.poll(async () => (await staffItem(refused._id)).facebookStatus, { timeout: 20_000 }).toBe('failed');
      const seen = await staffItem(refused._id);
      expect(seen.facebookError).toBe(
        'Facebook error 190 (subcode 463): Error validating access token: Session has expired.',
      );
      expect(seen.facebookPostId).toBeNull();

      // Once the token is set right, staff post it again from its row; then it is not failed any more.
      expect((await rest('member', 'POST', 'facebookPosts', { news: refused._id })).status).toBe(403);
      const again = await rest('editor', 'POST', 'facebookPosts', { news: refused._id });
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(again.body).toEqual({ news: refused._id, facebookStatus: 'pending' });
      await expect.poll(async () => (await staffItem(refused._id)).facebookStatus, { timeout: 20_000 }).toBe('posted');
      const twice = await rest('editor', 'POST', 'facebookPosts', { news: refused._id });
      expect(twice.status).toBe(409);
      expect(twice.body.message).toBe('Only a published item whose post to Facebook failed can be posted again.');
      expect((await rest('editor', 'POST', 'facebookPosts', { news: 'nothing-here' })).status).toBe(404);
      expect((await rest('editor', 'POST', 'facebookPosts', { news: refused._id, extra: 1 })).status).toBe(400);
    });

    it('is not tried again after a try that stopped half-way: Facebook may have it', async () => {
      const item = await createNews({ status: 'published', name: 'interrupted' });
      await knex('news').where({ id: item._id }).update({ facebook_status: 'posting' });
      const before = graph.requests.length;
      const result = await facebookPosterOf(server.api).work(item._id, { id: 'job', attempt: 2, last: false });
      expect(result).toBe('failed');
      expect(graph.requests.length).toBe(before);
      expect(await staffItem(item._id)).toMatchObject({
        facebookStatus: 'failed',
        facebookError: expect.stringMatching(/^Interrupted: /),
      });
    });

    it('waits for the item’s window to open, and is not made for an item taken back to draft by then', async () => {
      const soon = new Date(Date.now() + 3000);
      const item = await createNews({
        postToFacebook: true,
        status: 'published',
        publishFrom: soon.toISOString(),
        name: 'window',
      });
      const drafted = await createNews({
        postToFacebook: true,
        status: 'published',
        publishFrom: soon.toISOString(),
        name: 'drafted',
      });
      await patchNews(drafted._id, { status: 'draft' });
      await sleep(1500);
      expect((await staffItem(item._id)).facebookStatus).toBe('pending');
      await expect.poll(async () => (await staffItem(item._id)).facebookStatus, { timeout: 20_000 }).toBe('posted');
      await expect.poll(async () => (await staffItem(drafted._id)).facebookStatus, { timeout: 20_000 }).toBe('failed');
      expect((await staffItem(drafted._id)).facebookError).toMatch(/draft/);
    });

    it('goes through the local provider by default, which posts nothing and records it', () => {
      expect(facebookProviderOf(testConfig().facebook)).toBeInstanceOf(LocalFacebookProvider);
    });
  });

  describe('the reminder of an event', () => {
    it('reaches each registrant’s devices the day before, at 10:00 on the event’s clock, once; never the cancelled', async () => {
      // The event: 23:00 on 10 May 2031 in Hong Kong (11:00 in Toronto); its reminder at 10:00 on 9 May.
      const start = hk('2031-05-10T23:00:00');
      const due = hk('2031-05-09T10:00:00');
      let clock = hk('2031-05-08T12:00:00');
      server.api.set('clock', () => clock);
      try {
        const item = await createNews({
          status: 'published',
          hasEvent: true,
          eventTitle: { en: 'Menu workshop', 'zh-hk': '餐牌工作坊' },
          eventStartDate: start.toISOString(),
          eventEndDate: new Date(start.getTime() + 7_200_000).toISOString(),
          eventLocation: 'hk',
          eventRegion: 'Kwun Tong',
          name: 'reminded',
        });
        const reader = await appUser('reader', 'zh-hk');
        const readerPhone = await device({ user: reader.id, locale: 'zh-hk' });
        const twoPhones = await appUser('two phones');
        const first = await device({ user: twoPhones.id });
        const second = await device({ user: twoPhones.id, timeZone: 'America/Vancouver' });
        const pushOff = await appUser('push off');
        const silent = await device({ user: pushOff.id, pushEnabled: false });
        const cancelled = await appUser('cancelled early');
        const cancelledPhone = await device({ user: cancelled.id });
        const night = await appUser('night owl');
        // 22:00 in Toronto when the reminder goes: held for the morning, and cancelled by then.
        const nightPhone = await device({ user: night.id, timeZone: 'America/Toronto' });
        for (const user of [reader, twoPhones, pushOff, cancelled, night]) await register(user, item._id);
        const early = (await restCall(server.url, 'GET', 'eventRegistrations', { token: cancelled.token })).body
          .data as Item[];
        expect(
          (await restCall(server.url, 'DELETE', `eventRegistrations/${early[0]?._id}`, { token: cancelled.token }))
            .status,
        ).toBe(200);

        clock = new Date(due.getTime() - 60_000);
        await reminders.due();
        expect(await messagesOf(item._id, 'reminder')).toEqual([]);

        clock = due;
        const { written } = await reminders.due();
        expect(written).toHaveLength(1);
        const [message] = await messagesOf(item._id, 'reminder');
        expect(message).toMatchObject({ audience: 'registrants', origin: 'reminder', urgent: false });
        expect(message?.title).toMatchObject({ en: 'Reminder: Menu workshop', 'zh-hk': '提提你：餐牌工作坊' });
        expect((message?.body as { en: string }).en).toMatch(/^Starts .*2031.* · Kwun Tong, Hong Kong$/);
        const id = message?.id as string;
        const reached = () => pushesOf(id).map((push) => push.token);
        await expect.poll(() => reached().length, { timeout: 20_000 }).toBe(3);
        expect(reached().sort()).toEqual([readerPhone.token, first.token, second.token].sort());
        expect(pushesOf(id).find((push) => push.token === readerPhone.token)?.notification).toMatchObject({
          title: '提提你：餐牌工作坊',
          data: { message: id, news: item._id },
        });
        // Looked at again: nothing more.
        expect(await reminders.due()).toEqual({ written: [], added: 0 });

        // The night owl cancels before their morning; a latecomer registers the day before.
        const mine = (await restCall(server.url, 'GET', 'eventRegistrations', { token: night.token })).body
          .data as Item[];
        expect(
          (await restCall(server.url, 'DELETE', `eventRegistrations/${mine[0]?._id}`, { token: night.token })).status,
        ).toBe(200);
        clock = new Date(due.getTime() + 3_600_000);
        const late = await appUser('latecomer');
        const latePhone = await device({ user: late.id });
        await register(late, item._id);
        expect((await reminders.due()).added).toBe(1);
        await expect.poll(() => reached().includes(latePhone.token), { timeout: 20_000 }).toBe(true);

        // 08:00 in Toronto: the held delivery is not sent to someone no longer registered.
        clock = new Date('2031-05-09T12:00:00Z');
        await sender.due();
        await expect
          .poll(
            async () =>
              (
                await knex('push_deliveries')
                  .where({ message_id: id, device_id: nightPhone.id })
                  .first('state', 'error')
              )?.state,
            { timeout: 20_000 },
          )
          .toBe('failed');
        expect(
          (await knex('push_deliveries').where({ message_id: id, device_id: nightPhone.id }).first('error'))?.error,
        ).toMatch(/no longer registered/);
        await expect
          .poll(async () => (await messagesOf(item._id, 'reminder'))[0]?.status, { timeout: 20_000 })
          .toBe('sent');
        // Once each; never the cancelled or those whose push is off.
        expect(reached().sort()).toEqual([readerPhone.token, first.token, second.token, latePhone.token].sort());
        for (const token of [silent.token, cancelledPhone.token, nightPhone.token])
          expect(reached()).not.toContain(token);
        expect(await messagesOf(item._id, 'reminder')).toHaveLength(1);

        // Once the event has started, nobody is added any more.
        clock = new Date(start.getTime() + 1000);
        expect(await reminders.due()).toEqual({ written: [], added: 0 });
      } finally {
        setClock(undefined);
      }
    });

    it('goes at 10:00 on Vancouver’s clock for an event in Canada, and for a published item only', async () => {
      // 18:00 on 20 June 2031 in Vancouver (UTC-7); the reminder at 10:00 on 19 June, 17:00 UTC.
      const start = new Date('2031-06-21T01:00:00Z');
      const due = new Date('2031-06-19T17:00:00Z');
      let clock = new Date('2031-06-18T17:00:00Z');
      server.api.set('clock', () => clock);
      try {
        const event = {
          status: 'published',
          region: 'canada',
          hasEvent: true,
          eventTitle: { en: 'Richmond tasting' },
          eventStartDate: start.toISOString(),
          eventLocation: 'canada',
        };
        const item = await createNews({ ...event, name: 'vancouver' });
        const hidden = await createNews({ ...event, name: 'taken back' });
        const guest = await appUser('guest');
        const phone = await device({ user: guest.id, region: 'ca', timeZone: 'America/Vancouver' });
        await register(guest, item._id);
        await register(guest, hidden._id);
        await patchNews(hidden._id, { status: 'draft' });

        clock = new Date(due.getTime() - 1000);
        await reminders.due();
        expect(await messagesOf(item._id, 'reminder')).toEqual([]);
        clock = due;
        await reminders.due();
        const [message] = await messagesOf(item._id, 'reminder');
        expect((message?.body as { en: string }).en).toMatch(/^Starts 20 June 2031 at 6:00\Wpm GMT-7 · Canada$/);
        await expect
          .poll(() => pushesOf(message?.id as string).map((push) => push.token), { timeout: 20_000 })
          .toEqual([phone.token]);
        expect(await messagesOf(hidden._id, 'reminder')).toEqual([]);
      } finally {
        setClock(undefined);
      }
    });

    it('lets staff write to an event’s registrants themselves, naming the item', async () => {
      const item = await createNews({
        status: 'published',
        hasEvent: true,
        eventTitle: { en: 'Room change' },
        eventStartDate: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        eventLocation: 'hk',
        name: 'staff to registrants',
      });
      const guest = await appUser('staff guest');
      const phone = await device({ user: guest.id });
      await register(guest, item._id);
      const text = { title: { en: 'Room change' }, body: { en: 'We moved to room 2.' }, urgent: true };
      const missing = await rest('editor', 'POST', 'pushMessages', { ...text, audience: 'registrants' });
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toHaveProperty('news');
      const created = await rest('editor', 'POST', 'pushMessages', {
        ...text,
        audience: 'registrants',
        news: item._id,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ origin: 'staff', news: item._id });
      const id = created.body._id as string;
      expect((await rest('editor', 'POST', 'pushSends', { message: id, action: 'now' })).status).toBe(201);
      await expect.poll(() => pushesOf(id).map((push) => push.token), { timeout: 20_000 }).toEqual([phone.token]);
      // Nobody sets a message's origin.
      expect((await rest('editor', 'POST', 'pushMessages', { ...text, origin: 'news' })).status).toBe(400);
    });
  });
});
