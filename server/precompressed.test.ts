import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressFolder, precompressed } from './precompressed.ts';

const script = `export const words = ${JSON.stringify('a script of some length '.repeat(400))};\n`;
let folder: string;
let url: string;
let close: () => void;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-assets-'));
  writeFileSync(path.join(folder, 'page-abc123.js'), script);
  writeFileSync(path.join(folder, 'tiny-def456.js'), 'export{};');
  writeFileSync(path.join(folder, 'logo.png'), Buffer.alloc(4096, 7));
  const totals = await compressFolder(folder);
  expect(totals.files).toBe(1);
  const app = express();
  app.use(
    '/assets',
    precompressed(folder, { 'Cache-Control': 'public, max-age=31536000, immutable' }),
    express.static(folder),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/assets`;
  close = () => server.close();
});
afterAll(() => {
  close?.();
  rmSync(folder, { recursive: true, force: true });
});

describe('built files sent compressed ahead', () => {
  it('writes a brotli and a gzip copy of each script worth it, and of nothing else', () => {
    expect(readdirSync(folder).sort()).toEqual(
      ['logo.png', 'page-abc123.js', 'page-abc123.js.br', 'page-abc123.js.gz', 'tiny-def456.js'].sort(),
    );
  });

  it('sends brotli when the browser takes it, else gzip, else the file as it is', async () => {
    const br = await fetch(`${url}/page-abc123.js`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    // fetch decodes what it is sent: the text arrives whole.
    expect(await br.text()).toBe(script);

    const raw = await import('node:http');
    const bytes = (encoding: string) =>
      new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
        raw
          .get(`${url}/page-abc123.js`, { headers: { 'accept-encoding': encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const viaBr = await bytes('br');
    expect(viaBr.encoding).toBe('br');
    expect(brotliDecompressSync(viaBr.body).toString()).toBe(script);
    expect(viaBr.body.length).toBeLessThan(script.length / 10);
    const viaGzip = await bytes('gzip, br;q=0');
    expect(viaGzip.encoding).toBe('gzip');
    expect(gunzipSync(viaGzip.body).toString()).toBe(script);
    const plain = await bytes('identity');
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('leaves a file without copies to the static files', async () => {
    const tiny = await fetch(`${url}/tiny-def456.js`, { headers: { 'accept-encoding': 'br' } });
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(await tiny.text()).toBe('export{};');
  });
});
