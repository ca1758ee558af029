import { once } from 'node:events';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { cleanUpAttachments, CLEANUP_AGE_MS } from '../../server/services/attachments/cleanup.ts';
import { uploadsOf } from '../../server/services/attachments/attachments.ts';
import { storageKeys } from '../../server/services/attachments/uploads.ts';
import { IMAGE_WIDTHS } from '../../domain/uploads/limits.ts';
import { startLocalS3, type LocalS3 } from '../s3-server.ts';
import {
  containsPassword,
  createAccount,
  skipReason,
  socketClient,
  startTestServer,
  testConfig,
  type TestAccount,
} from './harness.ts';
import { HTML_PAGE, pdfOf, photo, png, pngBomb, SVG_IMAGE } from './upload-fixtures.ts';

const MAX_BYTES = 400_000;
const MAX_FILES = 3;

interface Info {
  name: string;
  size: number;
  mime: string;
  thumb: string | null;
  id: string;
  _id: string;
  width: number | null;
  height: number | null;
  src: string;
}

interface Part {
  body: Buffer;
  name: string;
  type?: string;
}

let nextAddress = 1;

/** Asks `check` every 20 ms until it holds or `ms` pass; whether it held. */
async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

/**
 * Starts a multipart upload by hand, sends every part but the last one's second half, and
 * answers the open socket: the caller cuts it as a browser closed or a network lost would.
 */
async function startCutUpload(server: RunningServer, token: string, files: Part[]): Promise<net.Socket> {
  const boundary = `----cut${Date.now()}`;
  const parts = files.map((file) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
    ),
    file.body,
    Buffer.from('\r\n'),
  ]);
  const end = Buffer.from(`--${boundary}--\r\n`);
  const length = parts.flat().reduce((sum, chunk) => sum + chunk.length, 0) + end.length;
  const { hostname, port } = new URL(server.url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  socket.write(
    [
      'POST /api/attachments/upload/news HTTP/1.1',
      `Host: ${hostname}:${port}`,
      `Authorization: Bearer ${token}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${length}`,
      `X-Forwarded-For: 10.15.3.${nextAddress++ % 250}`,
      '',
      '',
    ].join('\r\n'),
  );
  const last = parts.pop() ?? [];
  for (const chunk of parts.flat()) socket.write(chunk);
  const [head, body] = last;
  if (head && body) socket.write(Buffer.concat([head, body.subarray(0, Math.floor(body.length / 2))]));
  return socket;
}

/** Uploads over HTTP as a client does: multipart, field `file`. */
async function upload(
  server: RunningServer,
  files: Part[],
  options: { token?: string; folder?: string; headers?: Record<string, string> } = {},
) {
  const form = new FormData();
  for (const file of files)
    form.append(
      'file',
      new Blob([new Uint8Array(file.body)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  const response = await fetch(`${server.url}/api/attachments/upload${options.folder ? `/${options.folder}` : ''}`, {
    method: 'POST',
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      'x-forwarded-for': `10.15.0.${nextAddress++ % 250}`,
      ...options.headers,
    },
    body: form,
  });
  const body = (await response.json()) as { data?: { info: Info; files: Info[] }; message?: string; name?: string };
  return { status: response.status, body, headers: response.headers };
}

/** The user a session's token stands for, as the server reads it (its session cache included). */
async function authenticated(server: RunningServer, accessToken: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}/api/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.15.2.${nextAddress++ % 250}` },
    body: JSON.stringify({ strategy: 'jwt', accessToken }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { user: Record<string, unknown> }).user;
}

async function signIn(server: RunningServer, account: TestAccount): Promise<string> {
  const response = await fetch(`${server.url}/api/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.15.1.${nextAddress++ % 250}` },
    body: JSON.stringify({ strategy: 'local', email: account.email, password: account.password }),
  });
  return ((await response.json()) as { accessToken: string }).accessToken;
}

async function get(server: RunningServer, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${url}`, { headers });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}
type Adapter = 'folder' | 's3';

/**
 * Everything that reaches the storage runs on both adapters (decision 022): a folder, and an
 * S3-compatible bucket (s3rver, started here). What is refused before anything is stored, and the
 * rules of who may see or upload what, run once, on the folder.
 */
describe.skipIf(skipReason).each<Adapter>(['folder', 's3'])('uploads kept in %s storage', (adapter) => {
  let server: RunningServer;
  let s3: LocalS3 | undefined;
  let root: string;
  let tempDir: string;
  let editor: TestAccount;
  let member: TestAccount;
  let other: TestAccount;
  let editorToken: string;
  let memberToken: string;
  let otherToken: string;

  const rowCount = async () => Number((await server.database.knex('attachments').count({ n: '*' }).first())?.n ?? 0);
  const storage = () => uploadsOf(server.api).storage;
  /** The attachments that have stored objects, as the storage lists them. */
  const storedIds = async () => {
    const ids = new Set<string>();
    for await (const { key } of storage().list()) ids.add(key.split('/')[0] ?? '');
    return [...ids].sort();
  };
  /** The names of an attachment's stored objects (`original`, `thumb.webp`, `w800.jpg`...). */
  const storedNames = async (id: string) => {
    const names: string[] = [];
    for await (const { key } of storage().list()) if (key.startsWith(`${id}/`)) names.push(key.slice(id.length + 1));
    return names.sort();
  };
  /** Makes a stored object look written at `time`. */
  const age = async (key: string, time: Date) => {
    if (s3) await s3.setModified(key, time);
    else await utimes(path.join(root, ...key.split('/')), time, time);
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'uploads-store-'));
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'uploads-temp-'));
    if (adapter === 's3') s3 = await startLocalS3();
    const base = testConfig().uploads;
    server = await startTestServer({
      trustProxy: 'loopback',
      uploads: {
        ...base,
        storage: s3 ? { kind: 's3', ...s3.settings } : { kind: 'folder', root },
        tempDir,
        maxBytes: MAX_BYTES,
        maxFiles: MAX_FILES,
        maxPixels: 20_000_000,
        concurrency: 2,
      },
    });
    const knex = server.database.knex;
    editor = await createAccount(knex, { role: 'editor' });
    member = await createAccount(knex, { label: 'pic-member' });
    other = await createAccount(knex, { label: 'pic-other' });
    [editorToken, memberToken, otherToken] = await Promise.all([
      signIn(server, editor),
      signIn(server, member),
      signIn(server, other),
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
    await rm(root, { recursive: true, force: true });
    await rm(tempDir, { recursive: true, force: true });
  });

  describe('storing a file', () => {
    it('answers the info existing clients read, with the image turned upright and its metadata gone', async () => {
      expect(storage().kind).toBe(adapter);
      // Stored sideways (EXIF orientation 6): 300 wide, 200 high, shown 200 × 300.
      const { status, body, headers } = await upload(
        server,
        [{ body: await photo(300, 200, { orientation: 6 }), name: '../../etc/夏日 photo.jpg', type: 'image/jpeg' }],
        { token: editorToken, folder: 'news' },
      );
      expect(status).toBe(201);
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      const info = body.data?.info as Info;
      expect(Object.keys(info).sort()).toEqual([
        '_id',
        'height',
        'id',
        'mime',
        'name',
        'size',
        'src',
        'thumb',
        'width',
      ]);
      expect(info).toMatchObject({
        name: '夏日 photo.jpg',
        mime: 'image/jpeg',
        width: 200,
        height: 300,
        src: `/api/attachments/${info.id}`,
        thumb: `/api/thumbs/${info.id}`,
      });
      expect(info._id).toBe(info.id);
      expect(body.data?.files).toEqual([info]);
      // Kept under its generated id, never the sender's name.
      expect(await storedNames(info.id)).toEqual(['original', 'thumb.webp']);
      const original = await get(server, info.src);
      const meta = await sharp(original.body).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation ?? 1).toBe(1);
      expect([meta.width, meta.height]).toEqual([200, 300]);
      expect(info.size).toBe(original.body.length);
      const row = await server.database.knex('attachments').where('id', info.id).first();
      expect(row).toMatchObject({ folder: 'news', uploaded_by: editor._id, name: '夏日 photo.jpg' });
    });

    it('decides the type from the content, not the name or the browser', async () => {
      const { status, body } = await upload(
        server,
        [{ body: await png(40, 30), name: 'picture.jpg', type: 'image/jpeg' }],
        { token: editorToken, folder: 'products' },
      );
      expect(status).toBe(201);
      expect(body.data?.info.mime).toBe('image/png');
    });

    it('takes a file of exactly the size limit; one byte more is a 413 that leaves nothing, not even a temporary file', async () => {
      const exact = await upload(
        server,
        [{ body: pdfOf(MAX_BYTES), name: 'price list.pdf', type: 'application/pdf' }],
        { token: editorToken, folder: 'settings' },
      );
      expect(exact.status).toBe(201);
      expect(exact.body.data?.info).toMatchObject({
        size: MAX_BYTES,
        mime: 'application/pdf',
        thumb: null,
        width: null,
      });
      const before = [await rowCount(), await storedIds()];
      const over = await upload(
        server,
        [{ body: pdfOf(MAX_BYTES + 1), name: 'price list.pdf', type: 'application/pdf' }],
        { token: editorToken, folder: 'settings' },
      );
      expect(over.status).toBe(413);
      expect(over.body.message).toBe('This file is too large: the limit is 391 KB.');
      expect([await rowCount(), await storedIds()]).toEqual(before);
      expect(await readdir(tempDir)).toEqual([]);
    });

    it('stores nothing of an upload cut short half-way, and keeps answering', async () => {
      const before = [await rowCount(), await storedIds()];
      const socket = await startCutUpload(server, editorToken, [
        { body: await photo(300, 200), name: 'whole.jpg', type: 'image/jpeg' },
        { body: pdfOf(MAX_BYTES - 10_000), name: 'cut.pdf', type: 'application/pdf' },
      ]);
      // Both files are being received into temporary files when the connection is lost.
      expect(await eventually(async () => (await readdir(tempDir)).length === 2)).toBe(true);
      socket.destroy();
      expect(await eventually(async () => (await readdir(tempDir)).length === 0)).toBe(true);
      expect([await rowCount(), await storedIds()]).toEqual(before);
      const next = await upload(server, [{ body: await png(20, 20), name: 'after.png' }], {
        token: editorToken,
        folder: 'news',
      });
      expect(next.status).toBe(201);
      expect(await storedIds()).toContain(next.body.data?.info.id);
    });

    it('stores several files at once, or none when one of them is refused', async () => {
      const good = [
        { body: await png(20, 20), name: 'a.png' },
        { body: await photo(30, 20), name: 'b.jpg' },
      ];
      const ok = await upload(server, good, { token: editorToken, folder: 'blogs' });
      expect(ok.status).toBe(201);
      expect(ok.body.data?.files.map((file) => file.name)).toEqual(['a.png', 'b.jpg']);
      expect(ok.body.data?.info.name).toBe('a.png');
      const before = [await rowCount(), await storedIds()];
      const mixed = await upload(server, [...good, { body: HTML_PAGE, name: 'c.png' }], {
        token: editorToken,
        folder: 'blogs',
      });
      expect(mixed.status).toBe(415);
      expect([await rowCount(), await storedIds()]).toEqual(before);
    });
  });

  describe('serving', () => {
    let image: Info;
    beforeAll(async () => {
      const answer = await upload(
        server,
        [{ body: await photo(1000, 750), name: '菜單 2026.jpg', type: 'image/jpeg' }],
        { token: editorToken, folder: 'news' },
      );
      image = answer.body.data?.info as Info;
    });

    it('serves each width and format, made once, never wider than the original', async () => {
      const widths = { small: 400, medium: 800, large: 1000, exlarge: 1000, exlargex2: 1000 };
      // Without a width: the original's.
      expect((await sharp((await get(server, `${image.src}?format=webp`)).body).metadata()).width).toBe(1000);
      for (const [width, pixels] of Object.entries(widths)) {
        for (const format of ['webp', 'jpg'] as const) {
          const answer = await get(server, `${image.src}?width=${width}&format=${format}`);
          expect(answer.status).toBe(200);
          expect(answer.headers.get('content-type')).toBe(format === 'webp' ? 'image/webp' : 'image/jpeg');
          const meta = await sharp(answer.body).metadata();
          expect(meta.format).toBe(format === 'webp' ? 'webp' : 'jpeg');
          expect(meta.width).toBe(pixels);
          expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
          expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
        }
      }
      // Widths past the original share one stored variant per format.
      expect(await storedNames(image.id)).toEqual([
        'original',
        'thumb.webp',
        'w1000.jpg',
        'w1000.webp',
        'w400.jpg',
        'w400.webp',
        'w800.jpg',
        'w800.webp',
      ]);
    });

    it('makes every width up to 4000 from an original wider than that, and never enlarges a narrower one', async () => {
      // 4200 wide yet 60 high: few pixels, so making the widest variants stays quick.
      const wide = (
        await upload(server, [{ body: await photo(4200, 60), name: 'panorama.jpg' }], {
          token: editorToken,
          folder: 'news',
        })
      ).body.data?.info as Info;
      expect(wide).toMatchObject({ width: 4200, height: 60 });
      const narrow = (
        await upload(server, [{ body: await photo(1500, 40), name: 'banner.jpg' }], {
          token: editorToken,
          folder: 'news',
        })
      ).body.data?.info as Info;
      const expected = {
        small: [400, 400],
        medium: [800, 800],
        large: [1200, 1200],
        exlarge: [2000, 1500],
        exlargex2: [4000, 1500],
      };
      for (const [width, [fromWide, fromNarrow]] of Object.entries(expected)) {
        for (const format of ['webp', 'jpg'] as const) {
          for (const [source, pixels] of [
            [wide, fromWide],
            [narrow, fromNarrow],
          ] as const) {
            const answer = await get(server, `${source.src}?width=${width}&format=${format}`);
            expect(answer.status).toBe(200);
            const meta = await sharp(answer.body).metadata();
            expect(meta.format, `${source.name} ${width} ${format}`).toBe(format === 'webp' ? 'webp' : 'jpeg');
            expect(meta.width, `${source.name} ${width} ${format}`).toBe(pixels);
          }
        }
      }
      expect((await storedNames(wide.id)).filter((name) => name.startsWith('w'))).toEqual(
        ['w1200', 'w2000', 'w400', 'w4000', 'w800'].flatMap((name) => [`${name}.jpg`, `${name}.webp`]),
      );
    });

    it('answers 304 to a request that holds the ETag', async () => {
      const first = await get(server, `${image.src}?width=small&format=webp`);
      const etag = first.headers.get('etag') as string;
      expect(etag).toMatch(/^".+"$/);
      const again = await get(server, `${image.src}?width=small&format=webp`, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      const thumb = await get(server, image.thumb as string);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/webp');
      expect(
        (await get(server, image.thumb as string, { 'if-none-match': thumb.headers.get('etag') as string })).status,
      ).toBe(304);
    });

    it('makes a variant asked for by many at once a single time', async () => {
      const stored = uploadsOf(server.api).storage;
      const puts: string[] = [];
      const put = stored.put.bind(stored);
      stored.put = async (key, body, type) => {
        puts.push(key);
        return put(key, body, type);
      };
      try {
        const fresh = (
          await upload(server, [{ body: await photo(640, 480), name: 'fresh.jpg' }], {
            token: editorToken,
            folder: 'news',
          })
        ).body.data?.info as Info;
        puts.length = 0;
        const answers = await Promise.all(Array.from({ length: 5 }, () => get(server, `${fresh.src}?format=jpg`)));
        expect(answers.every((answer) => answer.status === 200)).toBe(true);
        expect(puts).toEqual([storageKeys.variant(fresh.id, 640, 'jpg')]);
      } finally {
        stored.put = put;
      }
    });

    it('reads an original only in its turn of the image queue: requests waiting their turn hold no image', async () => {
      const uploads = uploadsOf(server.api);
      const fresh = (
        await upload(server, [{ body: await photo(1600, 1200), name: 'queued.jpg' }], {
          token: editorToken,
          folder: 'news',
        })
      ).body.data?.info as Info;
      const { storage: stored, media } = uploads;
      const read = stored.get.bind(stored);
      const run = media.queue.run.bind(media.queue);
      // Originals read so far and turns of the queue ended so far: their difference is the originals held at once.
      let opened = 0;
      let ended = 0;
      let held = 0;
      stored.get = async (key) => {
        if (key === storageKeys.original(fresh.id)) {
          opened += 1;
          held = Math.max(held, opened - ended);
        }
        return read(key);
      };
      media.queue.run = <T>(task: () => Promise<T>) =>
        run(async () => {
          try {
            return await task();
          } finally {
            ended += 1;
          }
        });
      try {
        // Every width in both formats at once: 1600 wide, exlarge and exlargex2 are one variant per format.
        const queries = Object.keys(IMAGE_WIDTHS).flatMap((width) =>
          ['webp', 'jpg'].map((format) => `width=${width}&format=${format}`),
        );
        const answers = await Promise.all(queries.map((query) => get(server, `${fresh.src}?${query}`)));
        expect(answers.map((answer) => answer.status)).toEqual(queries.map(() => 200));
      } finally {
        stored.get = read;
        media.queue.run = run;
      }
      expect(opened).toBe(8);
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThanOrEqual(media.queue.limit);
    });

    it('downloads the original with its name, encoded for any language', async () => {
      const answer = await get(server, `${image.src}/download`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/jpeg');
      const disposition = answer.headers.get('content-disposition') ?? '';
      expect(disposition).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''/);
      expect(decodeURIComponent(disposition.split("UTF-8''")[1] ?? '')).toBe('菜單 2026.jpg');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    });
  });

  describe('removing', () => {
    it('removes a file with all its variants, and the picture that referred to it', async () => {
      const owner = await createAccount(server.database.knex, { label: 'removed-picture' });
      const sent = await upload(server, [{ body: await photo(900, 600), name: 'me.jpg' }], {
        token: await signIn(server, owner),
      });
      const id = sent.body.data?.info.id as string;
      expect(await server.database.knex('users').where('id', owner._id).first('picture_id')).toEqual({
        picture_id: id,
      });
      for (const query of ['width=small&format=jpg', 'width=medium&format=webp']) {
        expect(
          (await get(server, `/api/attachments/${id}?${query}`, { authorization: `Bearer ${editorToken}` })).status,
        ).toBe(200);
      }
      expect(await storedNames(id)).toEqual(['original', 'thumb.webp', 'w400.jpg', 'w800.webp']);
      const remove = await fetch(`${server.url}/api/attachments/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${editorToken}` },
      });
      expect(remove.status).toBe(200);
      expect(await storedNames(id)).toEqual([]);
      expect(await storedIds()).not.toContain(id);
      expect(await server.database.knex('users').where('id', owner._id).first('picture_id')).toEqual({
        picture_id: null,
      });
      expect((await get(server, `/api/attachments/${id}/download`)).status).toBe(404);
    });
  });

  describe('the cleanup job', () => {
    it('removes, after a day, pictures nothing refers to and files that have no record', async () => {
      const uploads = uploadsOf(server.api);
      const knex = server.database.knex;
      const keeper = await createAccount(knex, { label: 'cleanup-member' });
      const keeperToken = await signIn(server, keeper);
      const unused = await upload(server, [{ body: await png(30, 30), name: 'unused.png' }], { token: keeperToken });
      const unusedId = unused.body.data?.info.id as string;
      // Nothing refers to it any more, yet it was not removed (as when an account is removed).
      await knex('users').where('id', keeper._id).update({ picture_id: null });
      const kept = await upload(server, [{ body: await png(30, 30), name: 'kept.png' }], { token: keeperToken });
      const keptId = kept.body.data?.info.id as string;
      const orphan = '0000aaaa0000bbbb0000cccc';
      await uploads.storage.put(storageKeys.original(orphan), Buffer.from('left over'), 'image/png');
      const fresh = '0000aaaa0000bbbb0000dddd';
      await uploads.storage.put(storageKeys.original(fresh), Buffer.from('being uploaded'), 'image/png');

      const now = new Date();
      expect(await cleanUpAttachments(uploads, now)).toEqual({ attachments: 0, files: 0 });

      const old = new Date(now.getTime() - CLEANUP_AGE_MS - 60_000);
      await knex('attachments').whereIn('id', [keptId, unusedId]).update({ created_at: old });
      await age(storageKeys.original(orphan), old);
      const removed = await cleanUpAttachments(uploads, now);
      expect(removed).toEqual({ attachments: 1, files: 1 });
      expect(await knex('attachments').where('id', unusedId).first()).toBeUndefined();
      expect(await knex('attachments').where('id', keptId).first()).toBeDefined();
      const ids = await storedIds();
      expect(ids).not.toContain(unusedId);
      expect(ids).not.toContain(orphan);
      expect(ids).toContain(fresh);
      expect(ids).toContain(keptId);
      // Content folders are kept: staff remove their files.
      expect(await knex('attachments').where('folder', 'news').count({ n: '*' }).first()).not.toEqual({ n: 0 });
    });

    it("keeps an article's cover and pictures while the article shows them, and removes them once it no longer does", async () => {
      const uploads = uploadsOf(server.api);
      const knex = server.database.knex;
      const stored = async (name: string) => {
        const answer = await upload(server, [{ body: await png(40, 30), name }], {
          token: editorToken,
          folder: 'blogs',
        });
        expect(answer.status).toBe(201);
        return answer.body.data?.info as Info;
      };
      const [cover, inBody, replaced, library] = [
        await stored('cover.png'),
        await stored('inline.png'),
        await stored('old-cover.png'),
        await upload(server, [{ body: await png(20, 20), name: 'library.png' }], {
          token: editorToken,
          folder: 'general',
        }),
      ];
      const libraryId = library.body.data?.info.id as string;
      const blogs = server.api.service('blogs');
      const article = (await blogs.create({
        title: { en: 'Cleanup' },
        slug: 'cleanup-article',
        summary: { en: 'Summary' },
        body: {
          en: '<p>Intro</p>',
          'zh-hk': `<p>圖片</p><p><img src="${inBody.src}?width=medium&amp;format=webp" alt=""></p>`,
        },
        category: 'product-news',
        status: 'draft',
        coverImage: replaced.src,
      })) as { _id: string };
      // The cover replaced by another: the first is used by nothing now.
      await blogs.patch(article._id, { coverImage: cover.src });
      const ids = [cover.id, inBody.id, replaced.id, libraryId];
      const old = new Date(Date.now() - CLEANUP_AGE_MS - 60_000);
      await knex('attachments').whereIn('id', ids).update({ created_at: old });

      expect(await cleanUpAttachments(uploads)).toMatchObject({ attachments: 1 });
      const left = async () =>
        ((await knex('attachments').whereIn('id', ids).select('id')) as { id: string }[]).map((row) => row.id).sort();
      expect(await left()).toEqual([cover.id, inBody.id, libraryId].sort());
      expect(await storedIds()).not.toContain(replaced.id);

      // The article removed: its pictures go with it; the media library's file stays.
      await blogs.remove(article._id);
      expect(await cleanUpAttachments(uploads)).toMatchObject({ attachments: 2 });
      expect(await left()).toEqual([libraryId]);
      const files = await storedIds();
      expect(files).not.toContain(cover.id);
      expect(files).not.toContain(inBody.id);
      expect(files).toContain(libraryId);
    });

    it("keeps the app settings' gallery pictures, in their order, while the gallery shows them", async () => {
      const uploads = uploadsOf(server.api);
      const knex = server.database.knex;
      const stored = async (name: string) => {
        const answer = await upload(server, [{ body: await png(40, 30), name }], {
          token: editorToken,
          folder: 'settings',
        });
        expect(answer.status).toBe(201);
        return answer.body.data?.info.id as string;
      };
      const [first, second, dropped] = [
        await stored('first.png'),
        await stored('second.png'),
        await stored('dropped.png'),
      ];
      const settings = server.api.service('appSettings');
      const point = { latitude: 22.3, longitude: 114.1, latitudeDelta: 0.3, longitudeDelta: 0.3 };
      const existing = (await settings.find({ query: { $limit: 1 } })).data[0];
      const row =
        existing ??
        (await settings.create({
          header: { en: 'Home' },
          footerColor1: '#112233',
          footerColor2: '#445566',
          mapHongKong: point,
          mapCanada: point,
        }));
      const before = row.homeGallery;
      try {
        await settings.patch(row._id, { homeGallery: [second, dropped, first] });
        expect((await settings.get(row._id)).homeGallery).toEqual([second, dropped, first]);
        // Written whole, in the order given: the third taken out.
        await settings.patch(row._id, { homeGallery: [second, first] });
        expect((await settings.get(row._id)).homeGallery).toEqual([second, first]);
        await expect(settings.patch(row._id, { homeGallery: [first, first] })).rejects.toMatchObject({ code: 400 });

        const ids = [first, second, dropped];
        await knex('attachments')
          .whereIn('id', ids)
          .update({ created_at: new Date(Date.now() - CLEANUP_AGE_MS - 60_000) });
        await cleanUpAttachments(uploads);
        const left = ((await knex('attachments').whereIn('id', ids).select('id')) as { id: string }[])
          .map((file) => file.id)
          .sort();
        expect(left).toEqual([first, second].sort());
        expect(await storedIds()).not.toContain(dropped);
      } finally {
        if (existing) await settings.patch(row._id, { homeGallery: before });
        else await settings.remove(row._id).catch(() => undefined);
      }
    });
  });

  // Refused before anything is stored, or rules of access: the same whatever the storage.
  if (adapter !== 'folder') return;

  describe('refusing an upload', () => {
    it('refuses HTML (renamed as a picture) and SVG, in the caller’s language, storing nothing', async () => {
      const before = [await rowCount(), await storedIds()];
      const html = await upload(server, [{ body: HTML_PAGE, name: 'cat.png', type: 'image/png' }], {
        token: editorToken,
        folder: 'news',
        headers: { 'x-locale': 'zh-hk' },
      });
      expect(html.status).toBe(415);
      expect(html.body.message).toBe('不接受這類檔案。請上載 JPEG、PNG、WebP 或 GIF 圖片，或 PDF 檔案。');
      const svg = await upload(server, [{ body: SVG_IMAGE, name: 'logo.svg', type: 'image/svg+xml' }], {
        token: editorToken,
        folder: 'news',
        headers: { 'x-locale': 'zh-cn' },
      });
      expect(svg.status).toBe(415);
      expect(svg.body.message).toBe('不接受此类文件。请上传 JPEG、PNG、WebP 或 GIF 图片，或 PDF 文件。');
      expect([await rowCount(), await storedIds()]).toEqual(before);
      expect(await readdir(tempDir)).toEqual([]);
    });

    it('refuses one file more than the limit, and keeps none of the others', async () => {
      const before = [await rowCount(), await storedIds()];
      const files = await Promise.all(
        Array.from({ length: MAX_FILES + 1 }, async (_, i) => ({ body: await png(10 + i, 10), name: `p${i}.png` })),
      );
      const { status, body } = await upload(server, files, { token: editorToken, folder: 'ads' });
      expect(status).toBe(413);
      expect(body.message).toBe(`Too many files: send at most ${MAX_FILES} at once.`);
      expect([await rowCount(), await storedIds()]).toEqual(before);
      expect(await readdir(tempDir)).toEqual([]);
    });

    it('refuses a decompression bomb from its header, fast and without the memory it would take', async () => {
      const bomb = pngBomb();
      expect(bomb.length).toBeLessThan(2_000);
      const before = process.memoryUsage().rss;
      const started = performance.now();
      const { status, body } = await upload(server, [{ body: bomb, name: 'bomb.png', type: 'image/png' }], {
        token: editorToken,
        folder: 'news',
      });
      expect(status).toBe(422);
      expect(body.message).toBe('This image has too many pixels to process: at most 20 megapixels.');
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
      expect(await readdir(tempDir)).toEqual([]);
    });

    it('refuses a damaged image', async () => {
      const jpeg = await photo(200, 200);
      const { status, body } = await upload(server, [{ body: jpeg.subarray(0, 600), name: 'broken.jpg' }], {
        token: editorToken,
        folder: 'news',
      });
      expect(status).toBe(422);
      expect(body.message).toMatch(/could not be read/);
    });

    it('refuses what is not an upload: no file, another body type, an unknown folder, a path as a folder', async () => {
      const none = await fetch(`${server.url}/api/attachments/upload/news`, {
        method: 'POST',
        headers: { authorization: `Bearer ${editorToken}` },
        body: new FormData(),
      });
      expect(none.status).toBe(400);
      const json = await fetch(`${server.url}/api/attachments/upload/news`, {
        method: 'POST',
        headers: { authorization: `Bearer ${editorToken}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(json.status).toBe(415);
      expect(
        (await upload(server, [{ body: await png(5, 5), name: 'x.png' }], { token: editorToken, folder: 'secret' }))
          .status,
      ).toBe(404);
      expect(
        (
          await upload(server, [{ body: await png(5, 5), name: 'x.png' }], {
            token: editorToken,
            folder: '..%2F..%2Fetc',
          })
        ).status,
      ).toBe(404);
    });

    it('works images a few at a time, whatever arrives at once', async () => {
      const uploads = uploadsOf(server.api);
      let peak = 0;
      const sampler = setInterval(() => {
        peak = Math.max(peak, uploads.media.queue.load.active);
      }, 2);
      const image = await photo(1600, 1200);
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          upload(server, [{ body: image, name: `p${i}.jpg` }], { token: editorToken, folder: 'news' }),
        ),
      );
      clearInterval(sampler);
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201, 201]);
      expect(peak).toBeGreaterThan(0);
      expect(peak).toBeLessThanOrEqual(2);
    });
  });

  describe('who may upload where', () => {
    it('refuses a caller who is not signed in, and a session cookie sent from another site', async () => {
      const image = [{ body: await png(5, 5), name: 'x.png' }];
      expect((await upload(server, image, { folder: 'news' })).status).toBe(401);
      const cookie = `tp_session=${editorToken}`;
      const foreign = await upload(server, image, {
        folder: 'news',
        headers: { cookie, origin: 'https://evil.example' },
      });
      expect(foreign.status).toBe(401);
      const own = await upload(server, image, { folder: 'news', headers: { cookie, origin: server.url } });
      expect(own.status).toBe(201);
    });

    it('lets a member upload their own picture only', async () => {
      const image = [{ body: await png(60, 60), name: 'me.png' }];
      const refused = await upload(server, image, {
        token: memberToken,
        folder: 'news',
        headers: { 'x-locale': 'zh-hk' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('你在這裏只可以上載自己的頭像。');
      expect(
        (await upload(server, [{ body: pdfOf(2_000), name: 'cv.pdf' }], { token: memberToken, folder: 'profile' }))
          .status,
      ).toBe(415);
      expect((await upload(server, [...image, ...image], { token: memberToken, folder: 'profile' })).status).toBe(413);
    });

    it('makes a member’s upload their picture, replacing and removing the one before', async () => {
      const first = await upload(server, [{ body: await png(500, 500), name: 'first.png' }], { token: memberToken });
      expect(first.status).toBe(201);
      const firstId = first.body.data?.info.id as string;
      expect(await server.database.knex('users').where('id', member._id).first('picture_id')).toEqual({
        picture_id: firstId,
      });
      const pic = await get(server, `/api/users/pic/${member._id}`, { authorization: `Bearer ${memberToken}` });
      expect(pic.status).toBe(200);
      expect(pic.headers.get('cache-control')).toBe('private, max-age=300');
      expect(pic.headers.get('content-type')).toBe('image/webp');
      expect((await sharp(pic.body).metadata()).width).toBe(400);

      const second = await upload(server, [{ body: await photo(100, 80), name: 'second.jpg' }], {
        token: memberToken,
        folder: 'profile',
      });
      const secondId = second.body.data?.info.id as string;
      expect(await server.database.knex('users').where('id', member._id).first('picture_id')).toEqual({
        picture_id: secondId,
      });
      expect(await server.database.knex('attachments').where('id', firstId).first()).toBeUndefined();
      expect(await storedIds()).not.toContain(firstId);
      const replaced = await get(server, `/api/users/pic/${member._id}?width=medium&format=jpg`, {
        authorization: `Bearer ${memberToken}`,
      });
      expect(replaced.headers.get('content-type')).toBe('image/jpeg');
      // Never enlarged: the picture is 100 wide.
      expect((await sharp(replaced.body).metadata()).width).toBe(100);
    });

    it('tells the owner’s live connection of a new picture, and a session sees it at once', async () => {
      const socket = socketClient(server.url);
      try {
        await socket.client.authenticate({ strategy: 'jwt', accessToken: memberToken });
        const heard = new Promise<Record<string, unknown>>((resolve) =>
          socket.client.service('users').once('patched', resolve),
        );
        // The session is read (and kept for a few seconds) before the change.
        const before = await authenticated(server, memberToken);
        const sent = await upload(server, [{ body: await png(120, 120), name: 'new-me.png' }], {
          token: memberToken,
          folder: 'profile',
        });
        const pictureId = sent.body.data?.info.id as string;
        const event = await heard;
        expect(event).toMatchObject({ _id: member._id, picture: pictureId });
        expect(containsPassword(event)).toBe(false);
        expect(before.picture).not.toBe(pictureId);
        expect((await authenticated(server, memberToken)).picture).toBe(pictureId);
      } finally {
        socket.close();
      }
    });

    it('announces stored files to staff lists, and a replaced picture leaving, never to other members', async () => {
      const staff = socketClient(server.url);
      const stranger = socketClient(server.url);
      try {
        await staff.client.authenticate({ strategy: 'jwt', accessToken: editorToken });
        await stranger.client.authenticate({ strategy: 'jwt', accessToken: otherToken });
        const created: Record<string, unknown>[] = [];
        const removed: Record<string, unknown>[] = [];
        const overheard: unknown[] = [];
        staff.client.service('attachments').on('created', (record: Record<string, unknown>) => created.push(record));
        staff.client.service('attachments').on('removed', (record: Record<string, unknown>) => removed.push(record));
        stranger.client.service('attachments').on('created', (record: unknown) => overheard.push(record));
        const previous = (await server.database.knex('users').where('id', member._id).first('picture_id')) as {
          picture_id: string | null;
        };
        const sent = await upload(server, [{ body: await png(60, 60), name: 'announced.png' }], {
          token: memberToken,
          folder: 'profile',
        });
        const id = sent.body.data?.info.id as string;
        const deadline = Date.now() + 5000;
        while (!created.some((record) => record._id === id) && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(created.find((record) => record._id === id)).toMatchObject({
          _id: id,
          name: 'announced.png',
          folder: 'profile',
          uploadedBy: member._id,
        });
        // The member had a picture (the test before): replaced, it leaves the lists.
        expect(previous.picture_id).toEqual(expect.any(String));
        while (!removed.some((record) => record._id === previous.picture_id) && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(removed.map((record) => record._id)).toContain(previous.picture_id);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(overheard).toEqual([]);
      } finally {
        staff.close();
        stranger.close();
      }
    });

    it('serves a default picture to an account without one, and to staff for an id that is no account', async () => {
      const none = await get(server, `/api/users/pic/${other._id}`, { authorization: `Bearer ${otherToken}` });
      const unknown = await get(server, '/api/users/pic/000000000000000000000000', {
        authorization: `Bearer ${editorToken}`,
      });
      expect([none.status, unknown.status]).toEqual([200, 200]);
      expect(none.headers.get('content-type')).toBe('image/webp');
      expect(none.body.equals(unknown.body)).toBe(true);
      expect(none.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await sharp(none.body).metadata()).width).toBe(400);
    });

    it('shows a member’s picture to them and to staff only: anyone else is answered 404 for any id, in their language', async () => {
      const { picture_id: pictureId } = (await server.database
        .knex('users')
        .where('id', member._id)
        .first('picture_id')) as { picture_id: string };
      expect(pictureId).toEqual(expect.any(String));
      // The owner, by token or by the session cookie (an <img> on the site's pages), and staff.
      const cookie = `tp_session=${memberToken}`;
      const readers: Record<string, string>[] = [
        { authorization: `Bearer ${memberToken}` },
        { cookie },
        { authorization: `Bearer ${editorToken}` },
      ];
      for (const headers of readers) {
        expect((await get(server, `/api/users/pic/${member._id}`, headers)).status).toBe(200);
        const file = await get(server, `/api/attachments/${pictureId}?width=small`, headers);
        expect(file.status).toBe(200);
        expect(file.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
        expect((await get(server, `/api/thumbs/${pictureId}`, headers)).status).toBe(200);
        expect((await get(server, `/api/attachments/${pictureId}/download`, headers)).status).toBe(200);
      }
      // Another member, a visitor, and a token that is no longer valid: not found, like an id that is no account.
      const strangers: Record<string, string>[] = [
        { authorization: `Bearer ${otherToken}` },
        {},
        { authorization: 'Bearer not-a-token' },
      ];
      for (const headers of strangers) {
        for (const url of [
          `/api/users/pic/${member._id}`,
          `/api/users/pic/${member._id}?width=medium&format=jpg`,
          '/api/users/pic/000000000000000000000000',
          `/api/attachments/${pictureId}`,
          `/api/attachments/${pictureId}?width=large&format=webp`,
          `/api/thumbs/${pictureId}`,
          `/api/attachments/${pictureId}/download`,
        ]) {
          const answer = await get(server, url, { ...headers, 'x-locale': 'zh-hk' });
          expect(answer.status, url).toBe(404);
          expect(answer.headers.get('content-type'), url).toMatch(/^application\/json/);
          expect(JSON.parse(answer.body.toString()).message, url).toBe('找不到這個檔案。');
        }
      }
      // A content image stays public: the site's pages show it to everyone.
      const [content] = (await server.database.knex('attachments').where('folder', 'news').select('id')) as {
        id: string;
      }[];
      expect((await get(server, `/api/attachments/${content?.id}?width=small`)).status).toBe(200);
    });

    it('keeps the picture out of every write from outside: only an upload sets it', async () => {
      const [attachment] = await server.database.knex('attachments').where('folder', 'news').select('id');
      for (const data of [{ picture: attachment.id }, { $set: { picture: attachment.id } }]) {
        const response = await fetch(`${server.url}/api/users/${other._id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${otherToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(data),
        });
        expect([400, 403]).toContain(response.status);
      }
      expect(await server.database.knex('users').where('id', other._id).first('picture_id')).toEqual({
        picture_id: null,
      });
    });
  });

  describe('refusing a request for a file', () => {
    let image: Info;
    beforeAll(async () => {
      const answer = await upload(
        server,
        [{ body: await photo(1000, 750), name: '菜單 2026.jpg', type: 'image/jpeg' }],
        { token: editorToken, folder: 'news' },
      );
      image = answer.body.data?.info as Info;
    });

    it('refuses unknown widths and formats, and answers 404 for a file that does not exist', async () => {
      const bad = await get(server, `${image.src}?width=huge`, { 'x-locale': 'zh-cn' });
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.body.toString()).message).toMatch(/^图片尺寸或格式不正确/);
      expect((await get(server, `${image.src}?format=gif`)).status).toBe(400);
      expect((await get(server, `${image.src}?width=small&path=../x`)).status).toBe(400);
      expect((await get(server, '/api/thumbs/doesnotexist000')).status).toBe(404);
      expect((await get(server, '/api/attachments/doesnotexist000/download')).status).toBe(404);
    });

    it('hands a JSON request to the attachments service, which keeps its access rules', async () => {
      const anonymous = await get(server, `/api/attachments/${image.id}`, { accept: 'application/json' });
      expect(anonymous.status).toBe(401);
      const staff = await get(server, `/api/attachments/${image.id}`, {
        accept: 'application/json',
        authorization: `Bearer ${editorToken}`,
      });
      expect(staff.status).toBe(200);
      expect(JSON.parse(staff.body.toString())).toMatchObject({
        _id: image.id,
        name: '菜單 2026.jpg',
        folder: 'news',
        uploadedBy: editor._id,
      });
    });
  });

  describe('the attachments service', () => {
    it('lists every file to staff with the query language, and a member’s own to them', async () => {
      const staff = await fetch(`${server.url}/api/attachments?folder=news&$sort[createdAt]=-1&$limit=2`, {
        headers: { authorization: `Bearer ${editorToken}` },
      });
      const page = (await staff.json()) as { total: number; data: { folder: string }[] };
      expect(page.data).toHaveLength(2);
      expect(page.total).toBeGreaterThan(2);
      expect(page.data.every((row) => row.folder === 'news')).toBe(true);
      const own = await fetch(`${server.url}/api/attachments`, { headers: { authorization: `Bearer ${memberToken}` } });
      const mine = (await own.json()) as { data: { uploadedBy: string }[] };
      expect(mine.data.length).toBeGreaterThan(0);
      expect(mine.data.every((row) => row.uploadedBy === member._id)).toBe(true);
    });

    it('lets a member rename their file but not describe it or remove it; staff may', async () => {
      const [mine] = await server.database.knex('attachments').where('uploaded_by', member._id).select('id');
      const patch = (token: string, data: unknown) =>
        fetch(`${server.url}/api/attachments/${mine.id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(data),
        });
      expect((await patch(memberToken, { name: 'me.png' })).status).toBe(200);
      expect((await patch(memberToken, { alt: { en: 'Me' } })).status).toBe(403);
      expect((await patch(memberToken, { $set: { alt: { en: 'Me' } } })).status).toBe(403);
      expect((await patch(memberToken, { folder: 'news' })).status).toBe(400);
      expect((await patch(otherToken, { name: 'theirs.png' })).status).toBe(404);
      expect((await patch(editorToken, { alt: { en: 'A smiling owner', 'zh-hk': '笑容滿面的店主' } })).status).toBe(
        200,
      );
      const remove = await fetch(`${server.url}/api/attachments/${mine.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${memberToken}` },
      });
      expect(remove.status).toBe(403);
    });
  });
});

describe.skipIf(skipReason)('the cleanup schedule', () => {
  let server: RunningServer;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'uploads-schedule-'));
    const base = testConfig();
    // Asked for every second rather than every hour; the queue runs it as in production.
    server = await startTestServer({
      uploads: { ...base.uploads, storage: { kind: 'folder', root } },
      jobs: { ...base.jobs, attachmentCleanupSeconds: 1 },
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("runs by itself on every instance's timer and removes what nothing uses", async () => {
    const knex = server.database.knex;
    const member = await createAccount(knex, { label: 'schedule-member' });
    const token = await signIn(server, member);
    const answer = await upload(server, [{ body: await png(30, 30), name: 'first.png' }], { token });
    const first = answer.body.data?.info.id as string;
    const second = (await upload(server, [{ body: await png(30, 30), name: 'second.png' }], { token })).body.data?.info
      .id as string;
    expect(await knex('users').where('id', member._id).first('picture_id')).toEqual({ picture_id: second });
    // The first picture was replaced (and removed at once); make the picture in use look old too.
    const orphan = '0000aaaa0000bbbb0000eeee';
    const uploads = uploadsOf(server.api);
    await uploads.storage.put(storageKeys.original(orphan), Buffer.from('left over'), 'image/png');
    const old = new Date(Date.now() - CLEANUP_AGE_MS - 60_000);
    await utimes(path.join(root, orphan, 'original'), old, old);
    await knex('attachments').where('id', second).update({ created_at: old });

    const deadline = Date.now() + 30_000;
    let ids = await readdir(root);
    while (ids.includes(orphan) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      ids = await readdir(root);
    }
    expect(ids).not.toContain(orphan);
    expect(ids).not.toContain(first);
    expect(ids).toContain(second);
    expect(await knex('attachments').where('id', second).first('id')).toEqual({ id: second });
  });
});
