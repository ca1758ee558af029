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

  async isRevoked(jti: string): Promise<boolean> {
    return (await this.redis.exists(`${this.prefix}:${jti}`)) === 1;
  }
}
