import { describe, expect, it } from 'vitest';
import { ExpiringCache } from './expiring-cache.ts';

describe('ExpiringCache', () => {
  it('answers a value until its time is up', () => {
    const cache = new ExpiringCache<string>({ ttlMs: 1000, maxEntries: 10 });
    cache.set('a', 'A', Number.POSITIVE_INFINITY, 5000);
    expect(cache.get('a', 5999)).toBe('A');
    expect(cache.get('a', 6000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never keeps a value past its own end', () => {
    const cache = new ExpiringCache<string>({ ttlMs: 1000, maxEntries: 10 });
    cache.set('a', 'A', 5200, 5000);
    expect(cache.get('a', 5199)).toBe('A');
    expect(cache.get('a', 5200)).toBeUndefined();
    cache.set('b', 'B', 4000, 5000);
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, dropping the oldest first', () => {
    const cache = new ExpiringCache<number>({ ttlMs: 1000, maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    // Setting a key again makes it the newest.
    cache.set('b', 20);
    cache.set('d', 4);
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('b')).toBe(20);
  });

  it('forgets one key, the entries that match, or everything', () => {
    const cache = new ExpiringCache<{ user: string }>({ ttlMs: 1000, maxEntries: 10 });
    cache.set('t1', { user: 'u1' });
    cache.set('t2', { user: 'u2' });
    cache.set('t3', { user: 'u1' });
    cache.deleteWhere((value) => value.user === 'u1');
    expect([cache.get('t1'), cache.get('t2'), cache.get('t3')]).toEqual([undefined, { user: 'u2' }, undefined]);
    cache.delete('t2');
    expect(cache.size).toBe(0);
    cache.set('t4', { user: 'u4' });
    cache.clear();
    expect(cache.get('t4')).toBeUndefined();
  });

  it('keeps nothing when its time or size is zero', () => {
    const none = new ExpiringCache<number>({ ttlMs: 0, maxEntries: 10 });
    none.set('a', 1);
    expect(none.get('a')).toBeUndefined();
    const empty = new ExpiringCache<number>({ ttlMs: 1000, maxEntries: 0 });
    empty.set('a', 1);
    expect(empty.size).toBe(0);
  });
});
