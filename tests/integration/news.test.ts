import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords.ts';
import { newId } from '../../server/db/ids.ts';
import { NEWS_CATEGORIES, NEWS_ITEMS } from '../../server/db/seed/news.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import {
  accessTokenOf,
  createAccount,
  createTestDatabase,
  restCall,
  skipReason,
  socketClient,
  testConfig,
  type SocketClient,
} from './harness.ts';

/**
 * The apps' news with their events and the registrations for them (decision 056), over REST and
 * socket.io: the publication window and the expiry at their edges in Hong Kong time, drafts and
 * items out of their window never served to anyone but staff (find, get, `$populate`, events),
 * pinned first and newest next by cursor, by region and category; the categories shared with the
 * blog; places taken under the item's row lock, closing, cancelling, the confirmation mail with
 * its calendar file, and the registrants' export.
 */

type Body = Record<string, unknown>;
type Caller = 'signed out' | 'member' | 'editor' | 'admin' | 'app user';

let nextAddress = 1;
const address = () => `10.56.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

/** An instant written in Hong Kong time (UTC+8). */
const hk = (local: string) => new Date(`${local}+08:00`);
const justBefore = (date: Date) => new Date(date.getTime() - 1);

describe.skipIf(skipReason)('news, events and registrations', () => {
  let server: RunningServer;
  let root: string;
  let tempDir: string;
  const tokens = {} as Record<Exclude<Caller, 'signed out'>, string>;
  let appUserId: string;
  let appUserEmail: string;
  const sockets: SocketClient[] = [];

  const rest = (caller: Caller, method: string, path: string, body?: unknown, locale = 'en') =>
    restCall(server.url, method, path, {
      body,
      locale,
      address: address(),
      ...(caller === 'signed out' ? {} : { token: tokens[caller] }),
    });
  const setClock = (date: Date | undefined) => server.api.set('clock', date ? () => date : undefined);

  /** A news item written by an editor (published unless said otherwise), answered as stored. */
  async function createNews(overrides: Body = {}): Promise<Body & { _id: string }> {
    const { status, body } = await rest('editor', 'POST', 'news', {
      title: { en: 'Item', 'zh-hk': '新聞', 'zh-cn': '新闻' },
      content: { en: '<p>Text</p>' },
      region: 'hk',
      status: 'published',
      ...overrides,
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return body as Body & { _id: string };
  }

  /** An item with an event that takes registrations for `capacity` places, closing in a week. */
  const createEvent = (capacity: number, overrides: Body = {}) =>
    createNews({
      hasEvent: true,
      eventTitle: { en: 'POS workshop', 'zh-hk': 'POS 工作坊', 'zh-cn': 'POS 工作坊' },
      eventContent: { en: '<p>Bring a laptop.</p><script>alert(1)</script>' },
      eventStartDate: new Date(Date.now() + 14 * 86_400_000).toISOString(),
      eventEndDate: new Date(Date.now() + 14 * 86_400_000 + 7_200_000).toISOString(),
      eventClosesAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      eventLocation: 'hk',
      eventRegion: 'Kwun Tong',
      eventCapacity: capacity,
      ...overrides,
    });

  /** App users written straight to the table (one hash for all), each signed in through `appAuthentication`. */
  async function appUsers(count: number, label: string): Promise<{ id: string; token: string }[]> {
    const hash = await hashPassword('Kowloon2026');
    const rows = Array.from({ length: count }, (_, index) => ({
      id: newId(),
      name: `${label} ${index}`,
      email: `${label}-${index}-${newId().slice(0, 6)}@example.test`,
      password: hash,
    }));
    await server.database.knex('app_users').insert(rows);
    return Promise.all(
      rows.map(async (row) => {
        const { status, body } = await restCall(server.url, 'POST', 'appAuthentication', {
          body: { strategy: 'local', email: row.email, password: 'Kowloon2026' },
          address: address(),
        });
        expect(status, JSON.stringify(body)).toBe(201);
        return { id: row.id, token: body.accessToken as string };
      }),
    );
  }

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'news-exports-'));
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'news-exports-temp-'));
    server = await startServer(
      testConfig({ trustProxy: 'loopback', exports: { storage: { kind: 'folder', root }, tempDir } }),
      { database: await createTestDatabase(), pages: false },
    );
    for (const role of ['member', 'editor', 'admin'] as const) {
      const account = await createAccount(server.database.knex, { role, label: `news-${role}` });
      tokens[role] = await accessTokenOf(server.url, account, address());
    }
    appUserEmail = `news-app-${newId().slice(0, 6)}@example.test`;
    const signUp = await restCall(server.url, 'POST', 'appUsers', {
      body: { name: '陳小明', email: appUserEmail, password: 'Kowloon2026' },
      address: address(),
    });
    expect(signUp.status).toBe(201);
    appUserId = signUp.body._id as string;
    await server.database.knex('app_users').where({ id: appUserId }).update({ locale: 'zh-hk' });
    const signIn = await restCall(server.url, 'POST', 'appAuthentication', {
      body: { strategy: 'local', email: appUserEmail, password: 'Kowloon2026' },
      address: address(),
    });
    tokens['app user'] = signIn.body.accessToken as string;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
    await rm(root, { recursive: true, force: true });
    await rm(tempDir, { recursive: true, force: true });
  });

  it('has the blog’s five categories under their old keys and the news’ own, in order, read by anyone', async () => {
    const all = await rest('signed out', 'GET', 'categories?$limit=50');
    expect(all.status).toBe(200);
    const ids = (all.body.data as { _id: string }[]).map((category) => category._id);
    expect(ids).toEqual([
      'restaurant-tips',
      'retail-tips',
      'payments',
      'product-news',
      'case-studies',
      ...NEWS_CATEGORIES.map((category) => category.id),
    ]);
    // The blog's filter reads those marked for it, named in three languages.
    const blog = await rest('signed out', 'GET', 'categories?inBlog=true&$limit=50');
    expect((blog.body.data as { _id: string }[]).map((category) => category._id)).toEqual(ids.slice(0, 5));
    expect((blog.body.data as { name: unknown }[])[0]?.name).toEqual({
      en: 'Restaurant tips',
      'zh-hk': '餐廳經營貼士',
      'zh-cn': '餐厅经营技巧',
    });
    // Every article still points at one of them, and filters by it as before.
    const articles = await rest('signed out', 'GET', 'blogs?category=payments&status=published');
    expect(articles.status).toBe(200);
    expect((articles.body.data as { category: string }[]).every((post) => post.category === 'payments')).toBe(true);
    expect(articles.body.total).toBeGreaterThan(0);
    // An article in a category the list has not is refused; a category in use is not removed.
    const unknown = await rest('editor', 'POST', 'blogs', {
      title: { en: 'T' },
      slug: `unknown-category-${newId().slice(0, 6)}`,
      summary: { en: 'S' },
      body: { en: '<p>B</p>' },
      category: 'gossip',
      status: 'draft',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ category: 'The linked record does not exist.' });
    expect((await rest('admin', 'DELETE', 'categories/payments')).status).toBe(409);
    // Staff add one; a member may not.
    expect((await rest('member', 'POST', 'categories', { name: { en: 'Tips' } })).status).toBe(403);
    expect((await rest('editor', 'POST', 'categories', { name: { en: 'Tips' }, order: 90 })).status).toBe(201);
  });

  it('seeds the demo news: pinned items, events in Hong Kong and Canada, a draft and an expired item', async () => {
    const staff = await rest('editor', 'GET', 'news?$limit=50');
    expect(staff.body.total).toBe(NEWS_ITEMS.length);
    const items = staff.body.data as Body[];
    expect(items.filter((item) => item.top === true).length).toBeGreaterThanOrEqual(2);
    expect(new Set(items.filter((item) => item.hasEvent).map((item) => item.eventLocation))).toEqual(
      new Set(['hk', 'canada']),
    );
    for (const item of items) expect(Object.keys(item.title as object).sort()).toEqual(['en', 'zh-cn', 'zh-hk']);
    const served = await rest('signed out', 'GET', 'news?$limit=50');
    // The draft and the expired item are never served outside staff.
    expect(served.body.total).toBe(NEWS_ITEMS.length - 2);
    expect((served.body.data as Body[]).every((item) => item.status === 'published')).toBe(true);
  });

  it('serves an item from its start to its end and before its expiry, at the edges in Hong Kong time', async () => {
    const name = `window-${newId().slice(0, 6)}`;
    const from = hk('2031-03-01T00:00:00');
    const to = hk('2031-03-10T00:00:00');
    const expiry = hk('2031-03-08T12:00:00');
    const item = await createNews({
      name,
      publishFrom: from.toISOString(),
      publishTo: to.toISOString(),
      expiry: expiry.toISOString(),
    });
    const untilEnd = await createNews({
      name: `${name}-to`,
      publishFrom: from.toISOString(),
      publishTo: to.toISOString(),
    });
    const seen = async (caller: Caller, id: string, filter: string) => {
      const list = await rest(caller, 'GET', `news?name=${filter}`);
      const one = await rest(caller, 'GET', `news/${id}`);
      expect(one.status === 200, `${caller} get and find agree: ${one.status} ${String(list.body.total)}`).toBe(
        list.body.total === 1,
      );
      return list.body.total === 1;
    };
    try {
      for (const caller of ['signed out', 'member', 'app user'] as const) {
        // 23:59:59.999 on the last day of February in Hong Kong: not yet.
        setClock(justBefore(from));
        expect(await seen(caller, item._id, name), caller).toBe(false);
        // Midnight in Hong Kong, 16:00 UTC the day before: served.
        setClock(from);
        expect(from.toISOString()).toBe('2031-02-28T16:00:00.000Z');
        expect(await seen(caller, item._id, name), caller).toBe(true);
        setClock(justBefore(expiry));
        expect(await seen(caller, item._id, name), caller).toBe(true);
        setClock(expiry);
        expect(await seen(caller, item._id, name), caller).toBe(false);
        setClock(justBefore(to));
        expect(await seen(caller, untilEnd._id, `${name}-to`), caller).toBe(true);
        setClock(to);
        expect(await seen(caller, untilEnd._id, `${name}-to`), caller).toBe(false);
      }
      // Staff read it whatever the time.
      setClock(justBefore(from));
      expect(await seen('editor', item._id, name)).toBe(true);
      setClock(expiry);
      expect(await seen('admin', item._id, name)).toBe(true);
    } finally {
      setClock(undefined);
    }
  });

  it('never serves a draft to anyone but staff, however it is asked for', async () => {
    const draft = await createNews({ status: 'draft', name: `draft-${newId().slice(0, 6)}` });
    for (const caller of ['signed out', 'member', 'app user'] as const) {
      expect((await rest(caller, 'GET', `news/${draft._id}`)).status, caller).toBe(404);
      const asked = await rest(caller, 'GET', `news?status=draft&_id=${draft._id}`);
      expect(asked.body.total, caller).toBe(0);
      const either = await rest(caller, 'GET', `news?$or[0][status]=draft&$or[1][_id]=${draft._id}`);
      expect(
        (either.body.data as Body[]).some((item) => item._id === draft._id),
        caller,
      ).toBe(false);
    }
    const staff = await rest('editor', 'GET', `news/${draft._id}`);
    expect(staff.status).toBe(200);
  });

  it('lists pinned items first and the newest next, by region and category, page by page with a cursor', async () => {
    const category = (await rest('editor', 'POST', 'categories', { name: { en: 'Order test' }, order: 95 })).body
      ._id as string;
    const day = (n: number) => hk(`2026-10-${String(n).padStart(2, '0')}T09:00:00`).toISOString();
    const made: Record<string, string> = {};
    for (const [key, date, top] of [
      ['a', day(1), false],
      ['b', day(2), true],
      ['c', day(3), false],
      ['d', day(4), false],
      ['e', day(5), true],
      ['f', day(6), false],
    ] as const) {
      made[key] = (await createNews({ category, region: 'sg', date, top, title: { en: `Order ${key}` } }))._id;
    }
    // Another region, the same category; a draft; neither is in the list.
    await createNews({ category, region: 'hk', date: day(7) });
    await createNews({ category, region: 'sg', date: day(8), status: 'draft' });
    const expected = ['e', 'b', 'f', 'd', 'c', 'a'].map((key) => made[key]);

    const read: string[] = [];
    let cursor: string | null = '';
    for (let pages = 0; cursor !== null && pages < 10; pages += 1) {
      const page = await rest(
        'app user',
        'GET',
        `news?region=sg&category=${category}&$limit=4&$cursor=${encodeURIComponent(cursor)}`,
      );
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      read.push(...(page.body.data as { _id: string }[]).map((item) => item._id));
      cursor = (page.body.cursors as { next: string | null }).next;
    }
    expect(read).toEqual(expected);
    // The apps' read is served by its index (the plan names it once the table has rows to choose by).
    const plan = (await server.database.knex.raw(
      `explain select id from news where status = 'published' and region = 'sg' and category = ? order by top desc, date desc, id desc limit 20`,
      [category],
    )) as { rows: { 'QUERY PLAN': string }[] };
    expect(plan.rows.length).toBeGreaterThan(0);
  });

  it('tells staff alone of a draft or an item out of its window; anyone of a published one', async () => {
    const anonymous = socketClient(server.url, { 'x-forwarded-for': address() });
    sockets.push(anonymous);
    await new Promise<void>((resolve) =>
      anonymous.socket.connected ? resolve() : anonymous.socket.once('connect', () => resolve()),
    );
    const heard: string[] = [];
    anonymous.client.service('news').on('created', (item: { name?: string }) => heard.push(item.name ?? ''));
    const tag = newId().slice(0, 6);
    await createNews({ status: 'draft', name: `${tag}-draft` });
    await createNews({ name: `${tag}-later`, publishFrom: new Date(Date.now() + 86_400_000).toISOString() });
    await createNews({ name: `${tag}-expired`, expiry: new Date(Date.now() - 1000).toISOString() });
    await createNews({ name: `${tag}-public` });
    await expect.poll(() => heard.filter((name) => name.startsWith(tag))).toEqual([`${tag}-public`]);
  });

  it('registers app users up to the capacity, once each, mails them the event, frees a place on cancelling', async () => {
    const item = await createEvent(2);
    // Signed out, a member, staff: registering is an app user's.
    expect((await rest('signed out', 'POST', 'eventRegistrations', { news: item._id })).status).toBe(401);
    expect((await rest('member', 'POST', 'eventRegistrations', { news: item._id })).status).toBe(403);
    expect((await rest('editor', 'POST', 'eventRegistrations', { news: item._id })).status).toBe(403);

    const mine = await rest('app user', 'POST', 'eventRegistrations', { news: item._id, appUser: 'someone-else' });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    // Whatever the data said, the place is the caller's.
    expect(mine.body.appUser).toBe(appUserId);
    expect(mine.body.email).toBe(appUserEmail);
    expect(mine.body.name).toBe('陳小明');
    const again = await rest('app user', 'POST', 'eventRegistrations', { news: item._id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('You have already registered for this event.');

    // The confirmation, in the app user's language, with the event's calendar file.
    await expect
      .poll(async () => (await server.database.knex('outbox').where({ recipient: appUserEmail })).length, {
        timeout: 15_000,
      })
      .toBe(1);
    const mail = (await server.database.knex('outbox').where({ recipient: appUserEmail }).first()) as {
      subject: string;
      text: string;
      attachments: { filename: string; contentType: string; content: string }[];
    };
    expect(mail.subject).toContain('POS 工作坊');
    expect(mail.text).toContain('陳小明');
    expect(mail.attachments).toHaveLength(1);
    const ics = mail.attachments[0]!;
    expect(ics.filename).toBe('event.ics');
    expect(ics.contentType).toMatch(/^text\/calendar/);
    expect(ics.content).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(ics.content).toContain('SUMMARY:POS 工作坊');
    expect(ics.content).toContain(`UID:${mine.body._id as string}@`);
    expect(ics.content).toContain('LOCATION:Kwun Tong\\, 香港');
    // The event's rich text was sanitised on write.
    const stored = await rest('app user', 'GET', `news/${item._id}`);
    expect((stored.body.eventContent as Record<string, string>).en).toBe('<p>Bring a laptop.</p>');

    // A second app user takes the last place; a third finds the event full.
    const [second, third] = await appUsers(2, 'capacity');
    const secondPlace = await restCall(server.url, 'POST', 'eventRegistrations', {
      body: { news: item._id },
      token: second!.token,
    });
    expect(secondPlace.status).toBe(201);
    const full = await restCall(server.url, 'POST', 'eventRegistrations', {
      body: { news: item._id },
      token: third!.token,
      locale: 'zh-hk',
    });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('此活動名額已滿。');

    // An app user sees their own registrations alone, and cancels their own; another's is not there.
    const own = await rest('app user', 'GET', 'eventRegistrations');
    expect((own.body.data as Body[]).map((registration) => registration._id)).toEqual([mine.body._id]);
    expect(
      (await restCall(server.url, 'DELETE', `eventRegistrations/${mine.body._id as string}`, { token: third!.token }))
        .status,
    ).toBe(404);
    expect((await rest('app user', 'DELETE', `eventRegistrations/${mine.body._id as string}`)).status).toBe(200);
    expect((await rest('editor', 'GET', `news/${item._id}`)).body.eventRegistered).toBe(1);
    // The place is free again.
    const thirdPlace = await restCall(server.url, 'POST', 'eventRegistrations', {
      body: { news: item._id },
      token: third!.token,
    });
    expect(thirdPlace.status).toBe(201);
    expect((await rest('editor', 'GET', `news/${item._id}`)).body.eventRegistered).toBe(2);
  });

  it('gives a hundred registrations at once for the last ten places exactly ten', async () => {
    const item = await createEvent(12);
    const [first, second, ...others] = await appUsers(102, 'rush');
    for (const user of [first!, second!]) {
      const { status } = await restCall(server.url, 'POST', 'eventRegistrations', {
        body: { news: item._id },
        token: user.token,
      });
      expect(status).toBe(201);
    }
    const answers = await Promise.all(
      others.map((user) =>
        restCall(server.url, 'POST', 'eventRegistrations', { body: { news: item._id }, token: user.token }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(90);
    const rows = await server.database.knex('event_registrations').where({ news_id: item._id }).count({ n: '*' });
    expect(Number(rows[0]?.n)).toBe(12);
    expect((await rest('editor', 'GET', `news/${item._id}`)).body.eventRegistered).toBe(12);
  });

  it('refuses registrations after the closing time, and for drafts and items without an event', async () => {
    const closes = hk('2031-05-01T18:00:00');
    const item = await createEvent(5, {
      eventClosesAt: closes.toISOString(),
      eventStartDate: hk('2031-05-03T10:00:00').toISOString(),
      eventEndDate: hk('2031-05-03T12:00:00').toISOString(),
    });
    try {
      setClock(closes);
      const late = await rest('app user', 'POST', 'eventRegistrations', { news: item._id });
      expect(late.status).toBe(409);
      expect(late.body.message).toBe('Registration for this event has closed.');
      setClock(justBefore(closes));
      expect((await rest('app user', 'POST', 'eventRegistrations', { news: item._id })).status).toBe(201);
    } finally {
      setClock(undefined);
    }
    const draft = await createEvent(5, { status: 'draft' });
    expect((await rest('app user', 'POST', 'eventRegistrations', { news: draft._id })).status).toBe(404);
    const plain = await createNews();
    expect((await rest('app user', 'POST', 'eventRegistrations', { news: plain._id })).status).toBe(404);
    // An event that ends before it starts, or closes after it starts, is refused to staff.
    const wrong = await rest('editor', 'POST', 'news', {
      title: { en: 'Wrong' },
      content: { en: '<p>x</p>' },
      region: 'hk',
      hasEvent: true,
      eventTitle: { en: 'Wrong' },
      eventLocation: 'hk',
      eventStartDate: hk('2031-05-03T10:00:00').toISOString(),
      eventEndDate: hk('2031-05-03T09:00:00').toISOString(),
      eventClosesAt: hk('2031-05-04T10:00:00').toISOString(),
    });
    expect(wrong.status).toBe(400);
    expect(Object.keys(wrong.body.errors as object).sort()).toEqual(['eventClosesAt', 'eventEndDate']);
  });

  it('keeps an item that went back to draft out of an app user’s $populate', async () => {
    const item = await createEvent(5);
    const mine = await rest('app user', 'POST', 'eventRegistrations', { news: item._id });
    expect(mine.status).toBe(201);
    const populated = await rest('app user', 'GET', `eventRegistrations/${mine.body._id as string}?$populate=news`);
    expect((populated.body.news as Body)._id).toBe(item._id);
    await rest('editor', 'PATCH', `news/${item._id}`, { status: 'draft' });
    const hidden = await rest('app user', 'GET', `eventRegistrations/${mine.body._id as string}?$populate=news`);
    expect(hidden.body.news).toBe(item._id);
    const staff = await rest('editor', 'GET', `eventRegistrations/${mine.body._id as string}?$populate=news`);
    expect((staff.body.news as Body).status).toBe('draft');
  });

  it('sets the first publication once, the seam for what publishing sends', async () => {
    const draft = await createNews({ status: 'draft' });
    expect(draft.publishedAt).toBeNull();
    const published = await rest('editor', 'PATCH', `news/${draft._id}`, { status: 'published' });
    const first = published.body.publishedAt as string;
    expect(first).toBeTruthy();
    await rest('editor', 'PATCH', `news/${draft._id}`, { status: 'draft' });
    const again = await rest('editor', 'PATCH', `news/${draft._id}`, { status: 'published' });
    expect(again.body.publishedAt).toBe(first);
    expect((await rest('editor', 'PATCH', `news/${draft._id}`, { publishedAt: null })).status).toBe(400);
  });

  it('lets staff list, filter and export the registrants; exports are an admin’s (personal data)', async () => {
    const item = await createEvent(10);
    const people = await appUsers(3, 'export');
    for (const person of people) {
      const { status } = await restCall(server.url, 'POST', 'eventRegistrations', {
        body: { news: item._id },
        token: person.token,
      });
      expect(status).toBe(201);
    }
    const listed = await rest('editor', 'GET', `eventRegistrations?news=${item._id}&$limit=50`);
    expect(listed.status).toBe(200);
    expect((listed.body.data as Body[]).map((row) => row.name).sort()).toEqual(['export 0', 'export 1', 'export 2']);
    const refused = await rest('editor', 'POST', 'exports', {
      source: 'eventRegistrations',
      format: 'csv',
      columns: ['name', 'email'],
      query: { news: item._id },
    });
    expect(refused.status).toBe(403);
    const started = await rest('admin', 'POST', 'exports', {
      source: 'eventRegistrations',
      format: 'csv',
      columns: ['name', 'email'],
      query: { news: item._id },
      locale: 'en',
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const id = started.body._id as string;
    await expect
      .poll(async () => (await rest('admin', 'GET', `exports/${id}`)).body.state, { timeout: 30_000 })
      .toBe('done');
    const download = await fetch(`${server.url}/api/exports/${id}/download`, {
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(download.status).toBe(200);
    const lines = (await download.text()).replace('\uFEFF', '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,Email');
    expect(lines.slice(1).sort()).toEqual(
      people.map((_, index) => expect.stringMatching(new RegExp(`^export ${index},export-${index}-`))),
    );
  });
});
