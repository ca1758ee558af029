import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceIdOf } from '../../domain/facebook/posts.ts';
import { translate } from '../../server/i18n.ts';
import { newId } from '../../server/db/ids.ts';
import { exportStorageOf } from '../../server/services/exports/exports.ts';
import { facebookImporterOf } from '../../server/services/facebook/facebook.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  accessTokenOf,
  createAccount,
  restCall,
  skipReason,
  socketClient,
  startTestServer,
  type SocketClient,
  type TestAccount,
} from './harness.ts';

/*
 * The Facebook import (issue 34, decision 060): a page's export (the sample in
 * tests/fixtures/facebook, made by its make.ts) or the Graph API (a fake server here, never
 * Facebook) becomes draft news, each post once, by a durable job whose progress staff follow live.
 */

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/facebook');
const ZIP = path.join(FIXTURE, 'page-export.zip');
const POSTS_JSON = path.join(FIXTURE, 'posts/your_posts_1.json');
const FINAL = new Set(['done', 'failed']);

type ImportRow = {
  id: string;
  state: string;
  total: number | null;
  done: number;
  added: number;
  skipped: number;
  failed: number;
  failures: { post: string; reason: string }[];
  error: string | null;
};
type NewsRow = {
  id: string;
  title: Record<string, string>;
  content: Record<string, string>;
  date: Date;
  status: string;
  image_id: string | null;
  post_to_facebook: boolean;
  facebook_source_id: string;
  facebook_import_id: string;
  region: string;
};

/** A small PNG for the fake Graph API's pictures: one of the sample's own. */
const PICTURE = await readFile(path.join(FIXTURE, 'posts/media/YourPosts_2085133479/481516236_3.png'));

/** The Graph API's `/{page}/posts`, two pages of it, and the pictures its posts name. */
function fakeGraph(token: string) {
  const requests: string[] = [];
  let base = '';
  const pages = [
    {
      data: [
        {
          id: 'tillpoint_900001',
          message: 'Graph post with two pictures\nFrom the page itself.',
          created_time: '2025-04-01T03:00:00+0000',
          full_picture: 'ignored-when-attachments-have-media',
          attachments: {
            data: [
              {
                type: 'album',
                subattachments: {
                  data: [
                    { media: { image: { src: '__BASE__/pictures/a.png', width: 96, height: 64 } } },
                    { media: { image: { src: '__BASE__/pictures/b.png', width: 96, height: 64 } } },
                  ],
                },
              },
            ],
          },
        },
        { id: 'tillpoint_900002', message: '圖像 API 的中文帖文', created_time: '2025-04-02T03:00:00+0000' },
      ],
      paging: { next: '__BASE__/v21.0/tillpoint/posts?after=page2' },
    },
    {
      data: [
        {
          id: 'tillpoint_900003',
          message: 'A shared article',
          created_time: '2025-04-03T03:00:00+0000',
          attachments: { data: [{ type: 'share', url: 'https://news.example/article' }] },
        },
      ],
      paging: {},
    },
  ];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    if (req.url?.startsWith('/pictures/')) {
      res.writeHead(200, { 'content-type': 'image/png' }).end(PICTURE);
      return;
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad token"}}');
      return;
    }
    const page = req.url?.includes('after=page2') ? pages[1] : pages[0];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page).replaceAll('__BASE__', base));
  });
  return {
    requests,
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return base;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(skipReason)('facebook import', () => {
  let server: RunningServer;
  let editor: TestAccount;
  let member: TestAccount;
  let editorToken: string;
  let adminToken: string;
  let memberToken: string;
  let appUserToken: string;
  const graph = fakeGraph('page-token-for-tests');
  const knex = () => server.database.knex;

  const upload = async (
    file: string,
    options: { token?: string; locale?: string; name?: string; body?: Buffer } = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const form = new FormData();
    const bytes = options.body ?? (await readFile(file));
    form.set('file', new Blob([new Uint8Array(bytes)]), options.name ?? path.basename(file));
    const response = await fetch(`${server.url}/api/facebook/upload?region=hk`, {
      method: 'POST',
      headers: {
        'x-locale': options.locale ?? 'en',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** The import once its job has finished with it. */
  const settled = async (id: string, timeoutMs = 60_000): Promise<ImportRow> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const row = (await knex()('facebook_imports').where({ id }).first()) as ImportRow;
      if (FINAL.has(row.state)) return row;
      if (Date.now() > until) throw new Error(`import ${id} still ${row.state}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const newsOf = async (importId: string): Promise<NewsRow[]> =>
    (await knex()('news').where({ facebook_import_id: importId }).orderBy('date')) as NewsRow[];
  const counts = async () => ({
    news: Number(((await knex()('news').count({ n: '*' }).first()) as { n: string }).n),
    attachments: Number(((await knex()('attachments').count({ n: '*' }).first()) as { n: string }).n),
    imports: Number(((await knex()('facebook_imports').count({ n: '*' }).first()) as { n: string }).n),
  });

  beforeAll(async () => {
    const graphUrl = `${await graph.start()}/v21.0`;
    const root = await mkdtemp(path.join(os.tmpdir(), 'facebook-exports-'));
    const base = (await import('./harness.ts')).testConfig();
    server = await startTestServer({
      trustProxy: 'loopback',
      exports: { ...base.exports, storage: { kind: 'folder', root } },
      facebook: {
        ...base.facebook,
        provider: 'local',
        graphUrl,
        page: { id: 'tillpoint', token: 'page-token-for-tests' },
      },
    });
    editor = await createAccount(knex(), { role: 'editor' });
    const admin = await createAccount(knex(), { role: 'admin' });
    member = await createAccount(knex(), { role: 'member' });
    editorToken = await accessTokenOf(server.url, editor);
    adminToken = await accessTokenOf(server.url, admin);
    memberToken = await accessTokenOf(server.url, member);
    const email = `fb-app-${newId()}@example.test`;
    const password = 'Kowloon2026';
    expect(
      (await restCall(server.url, 'POST', 'appUsers', { body: { name: 'App User', email, password } })).status,
    ).toBe(201);
    const signedIn = await restCall(server.url, 'POST', 'appAuthentication', {
      body: { strategy: 'local', email, password },
    });
    appUserToken = signedIn.body.accessToken as string;
    expect(typeof appUserToken).toBe('string');
  });
  afterAll(async () => {
    await server?.close();
    await graph.close();
  });

  let firstImport: string;

  it('imports the sample export as draft news: texts, dates, pictures, the mojibake decoded', async () => {
    const before = await counts();
    const answer = await upload(ZIP, { token: editorToken });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ source: 'export', fileName: 'page-export.zip', region: 'hk' });
    expect(answer.body).not.toHaveProperty('fileKey');
    firstImport = answer.body._id as string;
    const row = await settled(firstImport);
    expect(row).toMatchObject({ state: 'done', total: 5, done: 5, added: 5, skipped: 0, failed: 0, error: null });
    const news = await newsOf(firstImport);
    expect(news).toHaveLength(5);
    for (const item of news) {
      expect(item.status).toBe('draft');
      expect(item.post_to_facebook).toBe(false);
      expect(item.region).toBe('hk');
    }
    const [newYear, link, shop, expo, mojibake] = news as [NewsRow, NewsRow, NewsRow, NewsRow, NewsRow];
    // The post's time, to the second, as its date.
    expect(newYear.date.toISOString()).toBe('2025-01-01T02:00:00.000Z');
    expect(mojibake.date.toISOString()).toBe('2025-03-12T09:00:00.000Z');
    // The first line as the title; each line a paragraph; English text in English alone.
    expect(newYear.title).toEqual({ en: 'Happy New Year from all of us at Tillpoint!' });
    expect(newYear.content.en).toBe(
      '<p>Happy New Year from all of us at Tillpoint!</p><p>Our support line is open as usual on 1 January.</p>',
    );
    expect(newYear.image_id).toBeNull();
    // Addresses become links.
    expect(link.content.en).toContain(
      '<a href="https://www.tillpoint.example/en/blog/fps-guide" rel="noopener">https://www.tillpoint.example/en/blog/fps-guide</a>',
    );
    // Chinese text in Hong Kong Chinese (and in English, the language every item must have).
    expect(shop.title).toEqual({ en: '新店開幕優惠', 'zh-hk': '新店開幕優惠' });
    expect(shop.content['zh-hk']).toBe('<p>新店開幕優惠</p><p>觀塘分店今日開幕，首一百位客人有精美禮品。</p>');
    // Facebook's latin-1 escaped UTF-8 read back as the Chinese it is.
    expect(mojibake.title['zh-hk']).toBe('我們的新收銀系統已經上線！');
    expect(mojibake.content['zh-hk']).toBe('<p>我們的新收銀系統已經上線！</p><p>歡迎致電 2345 6789 查詢。</p>');
    // Pictures stored through the uploads, in the news folder: the first as the image, the others in the content.
    expect(shop.image_id).not.toBeNull();
    const pictures = (await knex()('attachments').whereIn(
      'id',
      news
        .flatMap((item) => [
          item.image_id,
          ...[...item.content.en!.matchAll(/\/api\/attachments\/([\w-]+)/g)].map((m) => m[1]),
        ])
        .filter(Boolean) as string[],
    )) as { id: string; folder: string; mime: string; width: number; height: number; uploaded_by: string }[];
    expect(pictures).toHaveLength(4);
    for (const picture of pictures) {
      expect(picture).toMatchObject({ folder: 'news', width: 96, height: 64, uploaded_by: editor._id });
      expect(picture.mime).toMatch(/^image\//);
    }
    expect(expo.image_id).not.toBeNull();
    const inContent = [...expo.content.en!.matchAll(/<img loading="lazy" src="\/api\/attachments\/([\w-]+)"/g)].map(
      (m) => m[1],
    );
    expect(inContent).toHaveLength(2);
    expect(inContent).not.toContain(expo.image_id);
    // The stored picture is served, in a width, as any upload is.
    const served = await fetch(`${server.url}/api/attachments/${expo.image_id}?width=small&format=webp`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const after = await counts();
    expect(after.news - before.news).toBe(5);
    expect(after.attachments - before.attachments).toBe(4);
    // The export's file is not kept once the import is done.
    expect(await storedImports()).not.toContain(`facebook-${firstImport}`);
  });

  /** The folders of the exports' storage that hold an import's file. */
  const storedImports = async () => {
    const storage = exportStorageOf(server.api) as unknown as { root: string };
    return (await readdir(storage.root).catch(() => [] as string[])).filter((name) => name.startsWith('facebook-'));
  };

  it('importing the same export again adds nothing: every post is skipped', async () => {
    const before = await counts();
    const again = await upload(ZIP, { token: adminToken });
    expect(again.status).toBe(201);
    const row = await settled(again.body._id as string);
    expect(row).toMatchObject({ state: 'done', total: 5, added: 0, skipped: 5, failed: 0 });
    // The posts file alone is the same posts: known too.
    const alone = await upload(POSTS_JSON, { token: editorToken });
    expect(alone.status).toBe(201);
    expect(await settled(alone.body._id as string)).toMatchObject({ state: 'done', added: 0, skipped: 5 });
    const after = await counts();
    expect(after.news).toBe(before.news);
    expect(after.attachments).toBe(before.attachments);
  });

  it('refuses a file that is not a page’s posts, in the caller’s language, and writes nothing', async () => {
    const before = await counts();
    const stored = await storedImports();
    const broken = await upload(POSTS_JSON, {
      token: editorToken,
      locale: 'zh-hk',
      body: Buffer.from('[{"timestamp": 17'),
    });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe(translate('zh-hk', 'facebook.errors.notJson'));
    expect(broken.body.message).toBe('此檔案不是 Facebook 匯出檔：帖文檔案不是有效的 JSON。');
    const notPosts = await upload(POSTS_JSON, {
      token: editorToken,
      body: Buffer.from('{"posts": [{"text": "no time"}]}'),
    });
    expect(notPosts.status).toBe(400);
    expect(notPosts.body.message).toBe(translate('en', 'facebook.errors.notPosts'));
    const zipWithout = await upload(ZIP, {
      token: editorToken,
      locale: 'zh-cn',
      body: Buffer.from('PK\u0003\u0004 not really an archive'),
    });
    expect(zipWithout.status).toBe(400);
    expect(zipWithout.body.message).toBe(translate('zh-cn', 'facebook.errors.badArchive'));
    // Through the service without a file (a socket's create): told to upload one.
    const noFile = await restCall(server.url, 'POST', 'facebook', { token: editorToken, body: { source: 'export' } });
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe(translate('en', 'facebook.errors.noFile'));
    expect(await counts()).toEqual(before);
    expect(await storedImports()).toEqual(stored);
  });

  it('reads the Graph API page by page when a page is configured, pictures by their address', async () => {
    const socket = socketClient(server.url);
    try {
      await socket.client.authenticate({ strategy: 'jwt', accessToken: editorToken });
      const created = (await socket.client.service('facebook').create({ source: 'graph', region: 'sg' })) as {
        _id: string;
      };
      const row = await settled(created._id);
      expect(row).toMatchObject({ state: 'done', total: 3, added: 3, skipped: 0, failed: 0 });
      expect(graph.requests.filter((url) => url.includes('/posts'))).toHaveLength(2);
      expect(graph.requests[0]).toContain('fields=id%2Cmessage%2Ccreated_time%2Cfull_picture%2Cattachments');
      const news = await newsOf(created._id);
      expect(news.map((item) => item.title.en)).toEqual([
        'Graph post with two pictures',
        '圖像 API 的中文帖文',
        'A shared article',
      ]);
      expect(news[0]?.facebook_source_id).toBe(
        sourceIdOf(Date.UTC(2025, 3, 1, 3) / 1000, 'Graph post with two pictures\nFrom the page itself.'),
      );
      expect(news[0]?.image_id).not.toBeNull();
      expect(news[0]?.content.en).toMatch(/<img loading="lazy" src="\/api\/attachments\/[\w-]+"/);
      expect(news[1]?.title['zh-hk']).toBe('圖像 API 的中文帖文');
      expect(news[2]?.content.en).toContain('href="https://news.example/article"');
      expect(news.every((item) => item.region === 'sg')).toBe(true);
      // Again: the same posts are known.
      const again = (await socket.client.service('facebook').create({ source: 'graph' })) as { _id: string };
      expect(await settled(again._id)).toMatchObject({ state: 'done', added: 0, skipped: 3 });
    } finally {
      socket.close();
    }
  });

  it('goes on from where a job stopped: a restarted import adds nothing twice', async () => {
    // A job that died after adding the first two posts of an export of four: its items and its
    // counts were written together, so it is at `done: 2`.
    const posts = [1, 2, 3, 4].map((n) => ({
      timestamp: 1750000000 + n * 3600,
      data: [{ post: `Restart post ${n}` }],
    }));
    const id = newId();
    const key = `facebook-${id}/export`;
    await exportStorageOf(server.api).put(key, Buffer.from(JSON.stringify(posts)), 'application/json');
    await knex()('facebook_imports').insert({
      id,
      source: 'export',
      file_name: 'your_posts_1.json',
      file_key: key,
      region: 'hk',
      locale: 'en',
      state: 'running',
      total: 4,
      done: 2,
      added: 2,
      user_id: editor._id,
    });
    for (const post of posts.slice(0, 2))
      await knex()('news').insert({
        id: newId(),
        title: JSON.stringify({ en: post.data[0]!.post }),
        content: JSON.stringify({ en: `<p>${post.data[0]!.post}</p>` }),
        region: 'hk',
        status: 'draft',
        date: new Date(post.timestamp * 1000),
        facebook_source_id: sourceIdOf(post.timestamp, post.data[0]!.post),
        facebook_import_id: id,
      });
    await facebookImporterOf(server.api).work(id);
    const row = (await knex()('facebook_imports').where({ id }).first()) as ImportRow;
    expect(row).toMatchObject({ state: 'done', total: 4, done: 4, added: 4, skipped: 0, failed: 0 });
    expect((await newsOf(id)).map((item) => item.title.en)).toEqual([
      'Restart post 1',
      'Restart post 2',
      'Restart post 3',
      'Restart post 4',
    ]);
    // Worked again (a retry after it finished): nothing changes.
    await facebookImporterOf(server.api).work(id);
    expect(await newsOf(id)).toHaveLength(4);
  });

  it('announces progress live to staff, and to no one else', async () => {
    const staff = socketClient(server.url);
    const outsider = socketClient(server.url);
    const sockets: SocketClient[] = [staff, outsider];
    try {
      await staff.client.authenticate({ strategy: 'jwt', accessToken: editorToken });
      await outsider.client.authenticate({ strategy: 'jwt', accessToken: memberToken });
      const seen: { _id: string; state: string; done: number; total: number | null; skipped: number }[] = [];
      const leaked: unknown[] = [];
      staff.client.service('facebook').on('patched', (record: (typeof seen)[number]) => seen.push(record));
      outsider.client.service('facebook').on('patched', (record: unknown) => leaked.push(record));
      outsider.client.service('facebook').on('created', (record: unknown) => leaked.push(record));
      const answer = await upload(ZIP, { token: editorToken });
      const id = answer.body._id as string;
      await settled(id);
      const until = Date.now() + 5000;
      while (!seen.some((record) => record._id === id && record.state === 'done') && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const mine = seen.filter((record) => record._id === id);
      expect(mine[0]?.state).toBe('running');
      expect(mine.at(-1)).toMatchObject({ state: 'done', done: 5, total: 5, skipped: 5 });
      expect(mine.some((record) => record.total === 5)).toBe(true);
      expect(mine).not.toContainEqual(expect.objectContaining({ fileKey: expect.anything() }));
      expect(leaked).toEqual([]);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  describe('access', () => {
    const attackers = () => [
      { who: 'anonymous', token: undefined, status: 401 },
      { who: 'a member', token: memberToken, status: 403 },
      { who: 'an app user', token: appUserToken, status: 403 },
    ];

    it('refuses the upload, the list, a read and a create over REST to anyone but staff', async () => {
      const before = await counts();
      for (const { who, token, status } of attackers()) {
        const uploaded = await upload(ZIP, token ? { token } : {});
        expect(uploaded.status, who).toBe(status);
        for (const [method, target, body] of [
          ['GET', 'facebook', undefined],
          ['GET', `facebook/${firstImport}`, undefined],
          ['POST', 'facebook', { source: 'graph' }],
        ] as const) {
          const answer = await restCall(server.url, method, target, {
            ...(token ? { token } : {}),
            ...(body ? { body } : {}),
          });
          expect(answer.status, `${who} ${method} ${target}`).toBe(status);
        }
      }
      expect(await counts()).toEqual(before);
      // Staff read the imports; nobody changes or removes one.
      const list = await restCall(server.url, 'GET', 'facebook', { token: editorToken });
      expect(list.status).toBe(200);
      expect((list.body.data as { _id: string }[]).map((row) => row._id)).toContain(firstImport);
      expect(
        (await restCall(server.url, 'PATCH', `facebook/${firstImport}`, { token: adminToken, body: { added: 0 } }))
          .status,
      ).toBe(403);
      expect((await restCall(server.url, 'DELETE', `facebook/${firstImport}`, { token: adminToken })).status).toBe(403);
    });

    it('refuses them over socket.io to anyone but staff', async () => {
      const before = await counts();
      for (const { who, token } of attackers()) {
        const socket = socketClient(server.url);
        try {
          if (token === appUserToken)
            await socket.client.service('appAuthentication').create({ strategy: 'jwt', accessToken: token });
          else if (token) await socket.client.authenticate({ strategy: 'jwt', accessToken: token });
          const service = socket.client.service('facebook');
          for (const call of [
            () => service.find(),
            () => service.get(firstImport),
            () => service.create({ source: 'graph' }),
          ]) {
            const error = (await call().then(
              () => null,
              (failure: unknown) => failure,
            )) as { code?: number } | null;
            expect(error?.code, who).toBe(token ? 403 : 401);
          }
        } finally {
          socket.close();
        }
      }
      expect(await counts()).toEqual(before);
    });
  });
});
