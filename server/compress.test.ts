import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { writeReadableStreamToWritable } from '@react-router/node';
import compression from 'compression';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compress } from './compress.ts';

/*
 * A large page written as React Router writes it (`writeReadableStreamToWritable`: each write the
 * compressing stream cannot take yet waits for `drain` with `once`, then takes its listener back).
 */

/** About 2.5 MB of text that compresses poorly, in 64 KB chunks: a wait for `drain` after most writes. */
const CHUNKS = Array.from({ length: 40 }, () => randomBytes(48 * 1024).toString('base64'));

let close: (() => void) | undefined;
afterEach(() => {
  close?.();
  vi.restoreAllMocks();
});

async function serve(
  middleware: RequestHandler,
  seen: { drainListeners: number[] },
  maxListeners?: number,
): Promise<string> {
  // The middleware's compressing stream, to count the listeners it holds.
  let stream: zlib.BrotliCompress | undefined;
  const create = zlib.createBrotliCompress.bind(zlib);
  vi.spyOn(zlib, 'createBrotliCompress').mockImplementation((options) => {
    stream = create(options);
    if (maxListeners !== undefined) stream.setMaxListeners(maxListeners);
    return stream;
  });
  const app = express();
  app.use(middleware);
  app.get('/page', (_req: Request, res: Response) => {
    res.type('text/html');
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = CHUNKS[seen.drainListeners.length];
        if (chunk === undefined) {
          controller.close();
          return;
        }
        // The listeners the compressing stream holds before each write.
        seen.drainListeners.push(stream?.listenerCount('drain') ?? 0);
        controller.enqueue(Buffer.from(chunk));
      },
    });
    void writeReadableStreamToWritable(body, res);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
}

async function warningsWhile(run: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const listen = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', listen);
  try {
    await run();
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off('warning', listen);
  }
  return warnings;
}

describe('compressed responses written with backpressure', () => {
  it('leave no drain listener behind on the compressing stream, and arrive whole', async () => {
    const seen = { drainListeners: [] as number[] };
    const url = await serve(compress(), seen);
    const warnings = await warningsWhile(async () => {
      const response = await fetch(url, { headers: { 'accept-encoding': 'br' } });
      expect(response.headers.get('content-encoding')).toBe('br');
      // fetch decodes it: the page as written, every chunk in order.
      expect(await response.text()).toBe(CHUNKS.join(''));
    });
    expect(warnings.filter((warning) => warning.includes('MaxListenersExceeded'))).toEqual([]);
    expect(seen.drainListeners).toHaveLength(CHUNKS.length);
    expect(Math.max(...seen.drainListeners)).toBeLessThanOrEqual(1);
  });

  it('is needed: the bare middleware keeps a listener on its stream for every wait', async () => {
    const seen = { drainListeners: [] as number[] };
    // Its warning silenced here: the count is what shows the leak.
    const url = await serve(compression(), seen, 1000);
    const response = await fetch(url, { headers: { 'accept-encoding': 'br' } });
    expect(await response.text()).toBe(CHUNKS.join(''));
    expect(Math.max(...seen.drainListeners)).toBeGreaterThan(10);
  });
});
