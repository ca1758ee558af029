import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { ExpiringCache } from './expiring-cache.ts';

/** Remembers signed-out tokens (by JWT id) until they would have expired anyway. */
export interface RevocationStore {
  revoke(jti: string, expiresAt: Date): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
}

/** How long, and for how many tokens, an instance may reuse a "not revoked" answer from the database. */
export const REVOCATION_MEMORY = { ttlMs: 5_000, maxEntries: 10_000 };

/**
 * The revocation list in the `revoked_tokens` table, for a single instance without Redis.
 *
 * A token found not revoked is remembered for a few seconds, so a busy client does not cost a
 * query per call. Every sign-out on this instance passes through `revoke`, which forgets the token
 * before it answers, so signing out still takes effect at once. A sign-out on another instance
 * sharing the database would be seen only when the memory expires: several instances use Redis.
 */
export class DatabaseRevocationStore implements RevocationStore {
  private readonly knex: Knex;
  private readonly notRevoked: ExpiringCache<true>;
  /** Changes around every revocation, so a lookup that overlapped one is not remembered. */
  private generation = 0;

  constructor(knex: Knex, memory: { ttlMs: number; maxEntries: number } = REVOCATION_MEMORY) {
    this.knex = knex;
    this.notRevoked = new ExpiringCache(memory);
  }

  async revoke(jti: string, expiresAt: Date): Promise<void> {
    this.generation += 1;
    this.notRevoked.delete(jti);
    try {
      await this.knex('revoked_tokens').insert({ jti, expires_at: expiresAt }).onConflict('jti').ignore();
    } finally {
      this.generation += 1;
      this.notRevoked.delete(jti);
    }
    // Old entries are dropped now and then instead of by a separate job.
    if (Math.random() < 0.05) await this.knex('revoked_tokens').where('expires_at', '<', new Date()).delete();
  }

  async isRevoked(jti: string): Promise<boolean> {
    if (this.notRevoked.get(jti)) return false;
    const generation = this.generation;
    const revoked = Boolean(await this.knex('revoked_tokens').where({ jti }).first('jti'));
    if (!revoked && generation === this.generation) this.notRevoked.set(jti, true);
    return revoked;
  }
}

/**
 * The revocation list in Redis, shared by every instance. Asked on every authenticated call (one
 * `EXISTS`), so a sign-out on any instance takes effect on all of them at once.
 */
export class RedisRevocationStore implements RevocationStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  constructor(redis: Redis, prefix = 'revoked') {
    this.redis = redis;
    this.prefix = prefix;
  }

  async revoke(jti: string, expiresAt: Date): Promise<void> {
    const seconds = Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
    await this.redis.set(`${this.prefix}:${jti}`, '1', 'EX', seconds);
  }

  /** Writes many revocations in one round trip (copying the table into Redis). */
  async revokeAll(entries: { jti: string; expiresAt: Date }[]): Promise<void> {
    if (entries.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const { jti, expiresAt } of entries) {
      pipeline.set(
        `${this.prefix}:${jti}`,
        '1',
        'EX',
        Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000)),
      );
    }
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }

  async isRevoked(jti: string): Promise<boolean> {
    return (await this.redis.exists(`${this.prefix}:${jti}`)) === 1;
  }
}

/**
 * How long a "not revoked" answer from the database is reused while Redis is away (several
 * instances): short enough that a sign-out on one instance is refused on the others within a
 * second as a client measures it, the round trips of its requests included.
 */
export const FALLBACK_REVOCATION_MEMORY = { ttlMs: 800, maxEntries: 10_000 };

/** Unexpired revocations copied into Redis per round trip when it comes back. */
const COPY_BATCH = 500;

/**
 * Several instances (decision 032): the `revoked_tokens` table is the record, written by every
 * sign-out; Redis holds a copy that answers the check on every call at once. A sign-out always
 * succeeds when the database does, with or without Redis.
 *
 * The copy is trusted only while it is known complete. Whenever Redis fails a call, or its
 * connection is lost, checks go to the table (reusing a "not revoked" answer for at most a second,
 * so another instance's sign-out is refused everywhere within a second); when Redis answers
 * again, every unexpired row of the table is copied into it (a Redis that restarted empty, and
 * sign-outs made anywhere while it was away, are covered alike), and only then is Redis asked again.
 */
export class SharedRevocationStore implements RevocationStore {
  private readonly redis: Redis;
  private readonly fast: RedisRevocationStore;
  private readonly record: DatabaseRevocationStore;
  private readonly knex: Knex;
  private readonly onError: (error: unknown) => void;
  /** True while every revocation in the table is known to be in Redis too. */
  private complete = false;
  /** A revocation may be missing from Redis: set by every miss, cleared as a copy starts. */
  private behind = true;
  private copying: Promise<void> | undefined;

  constructor(
    redis: Redis,
    knex: Knex,
    options: {
      prefix?: string;
      onError?: (error: unknown) => void;
      memory?: { ttlMs: number; maxEntries: number };
    } = {},
  ) {
    this.redis = redis;
    this.knex = knex;
    this.fast = new RedisRevocationStore(redis, options.prefix);
    this.record = new DatabaseRevocationStore(knex, options.memory ?? FALLBACK_REVOCATION_MEMORY);
    this.onError = options.onError ?? (() => undefined);
    redis.on('ready', () => void this.copyTable());
    if (redis.status === 'ready') void this.copyTable();
  }

  /** Whether checks are answered by Redis now (tests and /health read it). */
  get redisComplete(): boolean {
    return this.complete;
  }

  async revoke(jti: string, expiresAt: Date): Promise<void> {
    await this.record.revoke(jti, expiresAt);
    try {
      await this.fast.revoke(jti, expiresAt);
    } catch (error) {
      this.lostTrack(error);
    }
  }

  async isRevoked(jti: string): Promise<boolean> {
    if (this.complete && this.redis.status === 'ready') {
      try {
        return await this.fast.isRevoked(jti);
      } catch (error) {
        this.lostTrack(error);
      }
    }
    return this.record.isRevoked(jti);
  }

  /** Redis missed a write or an answer: the table answers until it is copied again. */
  private lostTrack(error: unknown): void {
    if (this.complete) this.onError(error);
    this.complete = false;
    this.behind = true;
    if (this.redis.status === 'ready') void this.copyTable();
  }

  /**
   * Copies every unexpired revocation into Redis, then lets Redis answer; again as long as a
   * revocation missed Redis meanwhile. A failed copy is tried again a second later.
   */
  private copyTable(): Promise<void> {
    this.complete = false;
    this.behind = true;
    this.copying ??= (async () => {
      try {
        while (this.behind && this.redis.status === 'ready') {
          this.behind = false;
          await this.copyOnce();
          if (!this.behind) this.complete = true;
        }
      } catch (error) {
        this.onError(error);
        setTimeout(() => {
          if (!this.complete && this.redis.status === 'ready') void this.copyTable();
        }, 1_000).unref();
      } finally {
        this.copying = undefined;
      }
    })();
    return this.copying;
  }

  private async copyOnce(): Promise<void> {
    let after = '';
    for (;;) {
      const rows = (await this.knex('revoked_tokens')
        .where('expires_at', '>', new Date())
        .andWhere('jti', '>', after)
        .orderBy('jti')
        .limit(COPY_BATCH)
        .select('jti', 'expires_at')) as { jti: string; expires_at: Date | string }[];
      await this.fast.revokeAll(rows.map((row) => ({ jti: row.jti, expiresAt: new Date(row.expires_at) })));
      if (rows.length < COPY_BATCH) return;
      after = rows.at(-1)?.jti ?? after;
    }
  }
}
