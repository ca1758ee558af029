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
  now?: () => number;
}

export const PAGE_CACHE_TTL_MS = 30_000;

/**
 * An in-process LRU of anonymous page responses. `clear()` empties it and starts a new
 * generation: a page whose rendering began before a clear is not stored, so an update that lands
 * while a page renders cannot leave the old content in the cache.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private chars = 0;
  private currentGeneration = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxChars = options.maxChars ?? 32 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? PAGE_CACHE_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  get generation(): number {
    return this.currentGeneration;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CachedPage | undefined {
    const page = this.entries.get(key);
    if (!page) return undefined;
    this.entries.delete(key);
    if (this.now() - page.storedAt >= this.ttlMs) {
      this.chars -= page.body.length;
      return undefined;
    }
    // Re-inserted last: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.set(key, page);
    return page;
  }

  /** Stores a page rendered during `generation`; false when a clear came in between, or it is too big. */
  set(key: string, page: Omit<CachedPage, 'storedAt'>, generation: number): boolean {
    if (generation !== this.currentGeneration || page.body.length > this.maxChars / 4) return false;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.chars -= previous.body.length;
    }
    this.entries.set(key, { ...page, storedAt: this.now() });
    this.chars += page.body.length;
    for (const [oldest, stored] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= stored.body.length;
    }
    return true;
  }

  clear(): void {
    this.currentGeneration += 1;
    this.entries.clear();
    this.chars = 0;
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
