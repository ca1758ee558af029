/**
 * A small in-process cache whose entries expire after a fixed time and whose size is bounded (the
 * oldest entry goes first). For answers that may be reused for a moment and must be forgotten at
 * once when they stop being true.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  readonly ttlMs: number;
  readonly maxEntries: number;

  constructor(options: { ttlMs: number; maxEntries: number }) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries;
  }

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps a value for the cache's time, or less when it stops being valid sooner (`until`). */
  set(key: string, value: V, until = Number.POSITIVE_INFINITY, now = Date.now()): void {
    const expires = Math.min(now + this.ttlMs, until);
    if (this.ttlMs <= 0 || this.maxEntries <= 0 || expires <= now) return;
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: expires });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every entry whose value matches. */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
