/** One stored page: what the page handler answered, and the CSP nonce its HTML was rendered with. */
export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: string;
  /** Replaced by each response's own nonce when served (never sent twice). */
  nonce: string;
  storedAt: number;
}

export interface PageCacheOptions {
  maxEntries?: number;
  /** Total UTF-16 length of the stored bodies, a close enough measure of memory. */
  maxChars?: number;
  /** A backstop for changes that raise no service event (a scheduled publication, SQL by hand). */
  ttlMs?: number;
  /** How old a last copy may be and still be served while pages cannot be rendered. */
  staleMs?: number;
  now?: () => number;
}

export const PAGE_CACHE_TTL_MS = 30_000;
/** How long a page's last copy may stand in for it while it cannot be rendered (the database away). */
export const PAGE_STALE_MS = 24 * 60 * 60 * 1000;

/**
 * An in-process LRU of anonymous page responses. `clear()` empties it and starts a new
 * generation: a page whose rendering began before a clear is not stored, so an update that lands
 * while a page renders cannot leave the old content in the cache.
 *
 * A page that expires or is cleared is not served again, but its last copy is kept (within the
 * same limits, dropped first) for `stale`: what the page handler serves when rendering fails
 * because the database is away (stale-if-error, decision 032).
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  /** Last copies no longer served fresh (expired or cleared), oldest first. */
  private readonly previous = new Map<string, CachedPage>();
  private chars = 0;
  private currentGeneration = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly ttlMs: number;
  private readonly staleMs: number;
  private readonly now: () => number;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxChars = options.maxChars ?? 32 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? PAGE_CACHE_TTL_MS;
    this.staleMs = options.staleMs ?? PAGE_STALE_MS;
    this.now = options.now ?? Date.now;
  }

  get generation(): number {
    return this.currentGeneration;
  }

  /** Pages served fresh (last copies kept for `stale` not counted). */
  get size(): number {
    return this.entries.size;
  }

  get(key: string): CachedPage | undefined {
    const page = this.entries.get(key);
    if (!page) return undefined;
    this.entries.delete(key);
    if (this.now() - page.storedAt >= this.ttlMs) {
      this.keepPrevious(key, page);
      return undefined;
    }
    // Re-inserted last: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.set(key, page);
    return page;
  }

  /** The last copy of a page, fresh or not, unless older than `staleMs`: only when it cannot be rendered. */
  stale(key: string): CachedPage | undefined {
    const page = this.entries.get(key) ?? this.previous.get(key);
    return page && this.now() - page.storedAt < this.staleMs ? page : undefined;
  }

  /** Stores a page rendered during `generation`; false when a clear came in between, or it is too big. */
  set(key: string, page: Omit<CachedPage, 'storedAt'>, generation: number): boolean {
    if (generation !== this.currentGeneration || page.body.length > this.maxChars / 4) return false;
    this.forget(key);
    this.entries.set(key, { ...page, storedAt: this.now() });
    this.chars += page.body.length;
    this.evict();
    return true;
  }

  clear(): void {
    this.currentGeneration += 1;
    for (const [key, page] of this.entries) this.keepPrevious(key, page);
    this.entries.clear();
  }

  private keepPrevious(key: string, page: CachedPage): void {
    const older = this.previous.get(key);
    if (older) {
      this.previous.delete(key);
      this.chars -= older.body.length;
    }
    this.previous.set(key, page);
  }

  private forget(key: string): void {
    for (const map of [this.entries, this.previous]) {
      const page = map.get(key);
      if (!page) continue;
      map.delete(key);
      this.chars -= page.body.length;
    }
  }

  /** Within the limits again: last copies go first, then the least recently used pages. */
  private evict(): void {
    for (const map of [this.previous, this.entries]) {
      for (const [oldest, stored] of map) {
        if (this.entries.size + this.previous.size <= this.maxEntries && this.chars <= this.maxChars) return;
        map.delete(oldest);
        this.chars -= stored.body.length;
      }
    }
  }
}

/** The body with the nonce it was rendered with replaced by this response's. */
export function withNonce(page: CachedPage, nonce: string): string {
  return page.body.replaceAll(`nonce="${page.nonce}"`, `nonce="${nonce}"`);
}

/**
 * Whether the rendered nonce appears only as `nonce="…"` attributes, which `withNonce` replaces.
 * Anywhere else (inside a script's text) it would be served stale to the next visitor: such a
 * page is not stored.
 */
export function nonceOnlyInAttributes(body: string, nonce: string): boolean {
  return body.split(nonce).length === body.split(`nonce="${nonce}"`).length;
}
