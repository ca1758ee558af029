import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache.ts';

const page = (body: string) => ({
  status: 200,
  headers: [['content-type', 'text/html']] as [string, string][],
  body: Buffer.from(body),
  etag: body,
});
const text = (stored: { body: Buffer } | undefined) => stored?.body.toString();

describe('PageCache', () => {
  it('serves what it stored until the time to live runs out', () => {
    let now = 0;
    const cache = new PageCache({ ttlMs: 1000, now: () => now });
    expect(cache.set('/en', page('a'), cache.generation)).toBe(true);
    now = 999;
    expect(text(cache.get('/en'))).toBe('a');
    now = 1000;
    expect(cache.get('/en')).toBeUndefined();
  });

  it('drops everything on clear, and refuses a page rendered before the clear', () => {
    const cache = new PageCache();
    const before = cache.generation;
    cache.set('/en', page('a'), before);
    cache.clear();
    expect(cache.get('/en')).toBeUndefined();
    expect(cache.set('/en', page('stale'), before)).toBe(false);
    expect(cache.get('/en')).toBeUndefined();
    expect(cache.set('/en', page('fresh'), cache.generation)).toBe(true);
  });

  it('evicts the least recently used page beyond its limits, counting every encoding it keeps', () => {
    const cache = new PageCache({ maxEntries: 2 });
    cache.set('a', page('1'), 0);
    cache.set('b', page('2'), 0);
    cache.get('a');
    cache.set('c', page('3'), 0);
    expect(cache.get('b')).toBeUndefined();
    expect(text(cache.get('a'))).toBe('1');
    expect(text(cache.get('c'))).toBe('3');

    const small = new PageCache({ maxBytes: 40 });
    small.set('x', page('0123456789'), 0);
    small.set('y', page('0123456789'), 0);
    small.set('z', page('0123456789'), 0);
    small.set('w', page('0123456789'), 0);
    small.set('v', page('0123456789'), 0);
    expect(small.size).toBe(4);
    expect(small.get('x')).toBeUndefined();
    expect(small.set('big', page('x'.repeat(11)), 0)).toBe(false);
    // Its compressed copies count too: 4 + 3 + 2 bytes fit a quarter of 40, 4 + 4 + 3 do not.
    expect(small.set('zipped', { ...page('0123'), gzip: Buffer.from('abc'), br: Buffer.from('ab') }, 0)).toBe(true);
    expect(small.set('zipped', { ...page('0123'), gzip: Buffer.from('abcd'), br: Buffer.from('abc') }, 0)).toBe(false);
  });
});

describe('last copies (stale-if-error)', () => {
  it('keeps the last copy of an expired or cleared page for when it cannot be rendered, never serving it fresh', () => {
    let now = 0;
    const cache = new PageCache({ ttlMs: 1000, staleMs: 10_000, now: () => now });
    cache.set('/en', page('a'), cache.generation);
    cache.set('/zh-hk', page('b'), cache.generation);
    expect(text(cache.stale('/en'))).toBe('a');
    now = 1000;
    expect(cache.get('/en')).toBeUndefined();
    expect(text(cache.stale('/en'))).toBe('a');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('/zh-hk')).toBeUndefined();
    expect(text(cache.stale('/zh-hk'))).toBe('b');
    // A new rendering replaces the last copy; a copy older than staleMs is not served.
    cache.set('/en', page('a2'), cache.generation);
    expect(text(cache.stale('/en'))).toBe('a2');
    now = 10_000;
    expect(cache.stale('/zh-hk')).toBeUndefined();
  });

  it('counts last copies within the limits and drops them before fresh pages', () => {
    const cache = new PageCache({ maxEntries: 2 });
    cache.set('a', page('1'), 0);
    cache.clear();
    cache.set('b', page('2'), 1);
    cache.set('c', page('3'), 1);
    expect(cache.stale('a')).toBeUndefined();
    expect(text(cache.get('b'))).toBe('2');
    expect(text(cache.get('c'))).toBe('3');
  });
});
