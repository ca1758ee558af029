import { describe, expect, it } from 'vitest';
import { nonceOnlyInAttributes, PageCache, withNonce } from './page-cache.ts';

const page = (body: string, nonce = 'n0') => ({ status: 200, headers: [['content-type', 'text/html']] as [string, string][], body, nonce });

describe('PageCache', () => {
  it('serves what it stored until the time to live runs out', () => {
    let now = 0;
    const cache = new PageCache({ ttlMs: 1000, now: () => now });
    expect(cache.set('/en', page('a'), cache.generation)).toBe(true);
    now = 999;
    expect(cache.get('/en')?.body).toBe('a');
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

  it('evicts the least recently used page beyond its limits', () => {
    const cache = new PageCache({ maxEntries: 2 });
    cache.set('a', page('1'), 0);
    cache.set('b', page('2'), 0);
    cache.get('a');
    cache.set('c', page('3'), 0);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.body).toBe('1');
    expect(cache.get('c')?.body).toBe('3');

    const small = new PageCache({ maxChars: 40 });
    small.set('x', page('0123456789'), 0);
    small.set('y', page('0123456789'), 0);
    small.set('z', page('0123456789'), 0);
    small.set('w', page('0123456789'), 0);
    small.set('v', page('0123456789'), 0);
    expect(small.size).toBe(4);
    expect(small.get('x')).toBeUndefined();
    expect(small.set('big', page('x'.repeat(11)), 0)).toBe(false);
  });
});

describe('nonces', () => {
  it('gives each response its own nonce in every script', () => {
    const stored = page('<script nonce="old">a</script><script nonce="old" type="module">b</script>', 'old');
    expect(withNonce({ ...stored, storedAt: 0 }, 'new')).toBe('<script nonce="new">a</script><script nonce="new" type="module">b</script>');
  });

  it('refuses a page where the nonce appears other than as an attribute', () => {
    expect(nonceOnlyInAttributes('<script nonce="abc">x</script>', 'abc')).toBe(true);
    expect(nonceOnlyInAttributes('<script nonce="abc">var n="abc"</script>', 'abc')).toBe(false);
  });
});

describe('last copies (stale-if-error)', () => {
  it('keeps the last copy of an expired or cleared page for when it cannot be rendered, never serving it fresh', () => {
    let now = 0;
    const cache = new PageCache({ ttlMs: 1000, staleMs: 10_000, now: () => now });
    cache.set('/en', page('a'), cache.generation);
    cache.set('/zh-hk', page('b'), cache.generation);
    expect(cache.stale('/en')?.body).toBe('a');
    now = 1000;
    expect(cache.get('/en')).toBeUndefined();
    expect(cache.stale('/en')?.body).toBe('a');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('/zh-hk')).toBeUndefined();
    expect(cache.stale('/zh-hk')?.body).toBe('b');
    // A new rendering replaces the last copy; a copy older than staleMs is not served.
    cache.set('/en', page('a2'), cache.generation);
    expect(cache.stale('/en')?.body).toBe('a2');
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
    expect(cache.get('b')?.body).toBe('2');
    expect(cache.get('c')?.body).toBe('3');
  });
});
