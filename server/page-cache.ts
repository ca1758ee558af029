/**
 * One stored page as every visitor gets it (server/page-entry.ts): its headers, its bytes as they
 * are and compressed, and the hash of its content its ETags are made of.
 */
export interface CachedPage {
  status: number;
  /** Lower-case names; those of one response (date, request id, encoding, length) are not kept. */
  headers: [string, string][];
  body: Buffer;
  /** Absent when compressing would not make the body smaller. */
  gzip?: Buffer;
  br?: Buffer;
  /** The SHA-256 of `body` (base64url, 27 characters): each encoding's ETag is made of it. */
  etag: string;
  storedAt: number;
}

/** What a page holds in memory: its three copies. */
const bytesOf = (page: Pick<CachedPage, 'body' | 'gzip' | 'br'>) =>
  page.body.length + (page.gzip?.length ?? 0) + (page.br?.length ?? 0);

export interface PageCacheOptions {
  maxEntries?: number;
  /** Total bytes of the stored bodies, every encoding counted. */
  maxBytes?: number;
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
  private bytes = 0;
  private currentGeneration = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly ttlMs: number;
  private readonly staleMs: number;
  private readonly now: () => number;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxBytes = options.maxBytes ?? 48 * 1024 * 1024;
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
    if (generation !== this.currentGeneration || bytesOf(page) > this.maxBytes / 4) return false;
    this.forget(key);
    this.entries.set(key, { ...page, storedAt: this.now() });
    this.bytes += bytesOf(page);
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
      this.bytes -= bytesOf(older);
    }
    this.previous.set(key, page);
  }

  private forget(key: string): void {
    for (const map of [this.entries, this.previous]) {
      const page = map.get(key);
      if (!page) continue;
      map.delete(key);
      this.bytes -= bytesOf(page);
    }
  }

  /** Within the limits again: last copies go first, then the least recently used pages. */
  private evict(): void {
    for (const map of [this.previous, this.entries]) {
      for (const [oldest, stored] of map) {
        if (this.entries.size + this.previous.size <= this.maxEntries && this.bytes <= this.maxBytes) return;
        map.delete(oldest);
        this.bytes -= bytesOf(stored);
      }
    }
  }
}
