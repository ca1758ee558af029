/**
 * `npm run bench:uploads` (and the last part of `npm run bench`): for each count of
 * `BENCH_UPLOADS` (8, 20 and 40), that many uploads at once of a 12-megapixel JPEG (made with sharp
 * at start) through the whole server, each count on a server started afresh; then, on the last
 * one, each image variant asked for: the first request makes it, the next are served from the
 * storage, beside the same stored file served by `express.static` from the same process.
 * Prints, for each count, uploads per second, p50/p99 of the upload call and the server's peak
 * memory (RSS, sampled every 20 ms in the server's own process), so a memory that stays bounded
 * whatever the count shows; then the time to first byte of each variant, against sharp doing the
 * same work in a bare script (the floor) and against the static file.
 *
 * Figures only, no thresholds. Runs on an embedded PGlite by default and on PostgreSQL when
 * DATABASE_URL is set (in a database `tillpoint_bench_uploads`, dropped and recreated); files go
 * to a temporary folder.
 *
 *   BENCH_UPLOADS (8,20,40)  BENCH_CONCURRENCY (the server's UPLOAD_CONCURRENCY, default 2)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import sharp from 'sharp';
import { IMAGE_FORMATS, IMAGE_WIDTHS, type ImageFormat, type ImageWidth } from '../domain/uploads/limits.ts';
import { loadConfig } from '../server/config.ts';
import type { Database } from '../server/database.ts';
import { createKnex } from '../server/db/knex.ts';
import { prepareDatabase } from '../server/db/prepare.ts';
import { startServer } from '../server/server.ts';
import { openBenchDatabase } from './bench-database.ts';

const COUNTS = (process.env.BENCH_UPLOADS ?? '8,20,40').split(',').map((count) => Number(count.trim()));
if (COUNTS.length === 0 || COUNTS.some((count) => !Number.isInteger(count) || count < 1))
  throw new Error('BENCH_UPLOADS must be positive integers, separated by commas');
const CONCURRENCY = process.env.BENCH_CONCURRENCY;
const ADMIN = { email: 'admin@bench.test', password: 'BenchAdmin123' };

/** Messages between the bench and its server process. */
type ToServer = { type: 'reset' } | { type: 'peak' } | { type: 'stop' };
type FromServer =
  | { type: 'ready'; url: string; staticUrl: string; label: string }
  | { type: 'peak'; rss: number; baseline: number }
  | { type: 'stopped' };

/** The server's side: started in its own process, so its memory is measured alone. */
async function serve(): Promise<void> {
  const db = await openBenchDatabase('tillpoint_bench_uploads', { maxConnections: 20 });
  const knex = createKnex(db.url);
  const database: Database = { knex, kind: db.kind, close: () => knex.destroy() };
  await prepareDatabase(knex, db.kind, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: false });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-bench-uploads-'));
  const config = loadConfig({
    NODE_ENV: 'development',
    APP_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'error',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    UPLOAD_MAX_BYTES: String(40 * 1024 * 1024),
    ...(CONCURRENCY ? { UPLOAD_CONCURRENCY: CONCURRENCY } : {}),
  });
  const storage = config.uploads.storage;
  if (storage.kind !== 'folder')
    throw new Error('The uploads bench keeps its files in a folder: unset the S3_ settings');
  const server = await startServer(config, { database, pages: false });
  // The stored files as a plain static server sends them, from the same process: the comparison
  // for a cached variant (`{id}/w800.webp` is the same file the API sends).
  const files = express()
    .use(express.static(storage.root, { immutable: true, maxAge: '1y' }))
    .listen(0, '127.0.0.1');
  await once(files, 'listening');
  const staticUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  let baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const send = (message: FromServer) => process.send?.(message);
  process.on('message', (message: ToServer) => {
    if (message.type === 'reset') {
      baseline = process.memoryUsage.rss();
      peak = baseline;
    } else if (message.type === 'peak') {
      send({ type: 'peak', rss: peak, baseline });
    } else {
      clearInterval(sampler);
      void (async () => {
        files.close();
        await server.close();
        await db.stop();
        rmSync(dataDir, { recursive: true, force: true });
        send({ type: 'stopped' });
        process.exit(0);
      })();
    }
  });
  send({
    type: 'ready',
    url: server.url,
    staticUrl,
    label: `${db.label}, ${config.uploads.concurrency} images at a time`,
  });
}

function ask(child: ChildProcess, message: ToServer, answer: FromServer['type']): Promise<FromServer> {
  return new Promise((resolve) => {
    const listen = (reply: FromServer) => {
      if (reply.type !== answer) return;
      child.off('message', listen);
      resolve(reply);
    };
    child.on('message', listen);
    if (message.type !== 'reset') child.send(message);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** A 12-megapixel photo-like JPEG: gradients with grain, so it weighs what a camera's does. */
async function twelveMegapixels(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < pixels.length; i += 3) {
    const x = (i / 3) % width;
    const y = Math.floor(i / 3 / width);
    seed = (seed * 1103515245 + 12345) >>> 0;
    const grain = (seed >>> 24) % 24;
    pixels[i] = ((x * 255) / width + grain) & 0xff;
    pixels[i + 1] = ((y * 255) / height + grain) & 0xff;
    pixels[i + 2] = (((x + y) >> 3) + grain) & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

/** Time to first byte (the answer's headers), the body read after. */
async function ttfb(url: string): Promise<number> {
  const [response, took] = await timed(() => fetch(url));
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return took;
}

/** The median of `times` requests, after the first. */
async function median(url: string, times = 7): Promise<number> {
  const taken: number[] = [];
  for (let i = 0; i < times; i += 1) taken.push(await ttfb(url));
  return percentile(
    taken.sort((a, b) => a - b),
    50,
  );
}

async function main(): Promise<void> {
  const photo = await twelveMegapixels();
  const meta = await sharp(photo).metadata();
  console.log(
    `Uploads bench: ${COUNTS.join(', ')} uploads at once of a ${meta.width}×${meta.height} JPEG (${mb(photo.length)}), ${os.cpus().length} cores`,
  );

  // The floor: what sharp alone takes for the same work, in this bare process.
  sharp.cache(false);
  const [, reencode] = await timed(() => sharp(photo).autoOrient().jpeg({ quality: 90 }).toBuffer());
  const floors = new Map<string, number>();
  for (const width of Object.keys(IMAGE_WIDTHS) as ImageWidth[]) {
    for (const format of IMAGE_FORMATS) {
      const [, took] = await timed(() => {
        const resized = sharp(photo).resize({ width: IMAGE_WIDTHS[width], withoutEnlargement: true });
        return (
          format === 'webp' ? resized.webp({ quality: 80 }) : resized.jpeg({ quality: 82, mozjpeg: true })
        ).toBuffer();
      });
      floors.set(`${width}.${format}`, took);
    }
  }
  const floorCount = Math.min(...COUNTS);
  const [, floorBatch] = await timed(() =>
    Promise.all(Array.from({ length: floorCount }, () => sharp(photo).autoOrient().jpeg({ quality: 90 }).toBuffer())),
  );

  const uploadRows: string[] = [];
  const variantRows: string[] = [];
  let label = '';
  for (const [round, count] of COUNTS.entries()) {
    // A server started afresh for each count, so each peak is its own.
    const child = fork(import.meta.filename, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = (await ask(child, { type: 'reset' }, 'ready')) as Extract<FromServer, { type: 'ready' }>;
    label = ready.label;
    try {
      const login = await fetch(`${ready.url}/api/authentication`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ strategy: 'local', ...ADMIN }),
      });
      const { accessToken } = (await login.json()) as { accessToken?: string };
      if (!accessToken) throw new Error(`signing in answered ${login.status}`);
      const upload = async () => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
        const [response, took] = await timed(() =>
          fetch(`${ready.url}/api/attachments/upload/news`, {
            method: 'POST',
            headers: { authorization: `Bearer ${accessToken}` },
            body: form,
          }),
        );
        const body = (await response.json()) as { data?: { info: { id: string } } };
        if (response.status !== 201 || !body.data)
          throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
        return { id: body.data.info.id, took };
      };
      await upload();
      child.send({ type: 'reset' } satisfies ToServer);
      const [results, wall] = await timed(() => Promise.all(Array.from({ length: count }, upload)));
      const peak = (await ask(child, { type: 'peak' }, 'peak')) as Extract<FromServer, { type: 'peak' }>;
      const latencies = results.map((result) => result.took).sort((a, b) => a - b);
      uploadRows.push(
        `| ${count} | ${((count * 1000) / wall).toFixed(2)} | ${ms(percentile(latencies, 50))} | ${ms(percentile(latencies, 99))} | ${mb(peak.baseline)} | ${mb(peak.rss)} | +${mb(peak.rss - peak.baseline)} |`,
      );
      if (round < COUNTS.length - 1) continue;

      const id = results[0]?.id as string;
      for (const width of Object.keys(IMAGE_WIDTHS) as ImageWidth[]) {
        for (const format of IMAGE_FORMATS as readonly ImageFormat[]) {
          const url = `${ready.url}/api/attachments/${id}?width=${width}&format=${format}`;
          const first = await ttfb(url);
          const cached = await median(url);
          // The same stored file (the photo is 4000 wide: no width is past it).
          const file = await median(
            `${ready.staticUrl}/${id}/w${Math.min(IMAGE_WIDTHS[width], meta.width ?? Infinity)}.${format}`,
          );
          variantRows.push(
            `| ${width} (${IMAGE_WIDTHS[width]}) ${format} | ${ms(first)} | ${ms(cached)} | ${ms(file)} | ${ms(floors.get(`${width}.${format}`) ?? 0)} |`,
          );
        }
      }
      variantRows.push(
        `| thumbnail (made at upload) | — | ${ms(await median(`${ready.url}/api/thumbs/${id}`))} | ${ms(await median(`${ready.staticUrl}/${id}/thumb.webp`))} | — |`,
      );
    } finally {
      const stopped = ask(child, { type: 'stop' }, 'stopped');
      child.send({ type: 'stop' } satisfies ToServer);
      await stopped;
    }
  }

  console.log(`Server: ${label}, started afresh for each count\n`);
  console.log('| uploads at once | per second | p50 | p99 | server RSS before | peak RSS | rise |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of uploadRows) console.log(row);
  console.log(
    `\nFloor: sharp re-encoding ${floorCount} of the same files at once in a bare process, ${((floorCount * 1000) / floorBatch).toFixed(2)} /s (one alone: ${ms(reencode)}).`,
  );
  console.log(
    `\nTime to first byte, on the server of ${COUNTS[COUNTS.length - 1]} uploads (cached and static: median of 7):\n`,
  );
  console.log('| variant | first request (made) | cached | same file, express.static | floor: sharp resize alone |');
  console.log('|---|---|---|---|---|');
  for (const row of variantRows) console.log(row);
}

if (process.argv.includes('--serve')) {
  await serve();
} else {
  await main();
}
