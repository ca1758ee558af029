import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LoginLimits {
  /** Failed sign-ins per account before a pause. */
  perAccount: RateLimiterAbstract;
  /** Sign-in attempts per address. */
  perIp: RateLimiterAbstract;
  /** Account registrations per address (registration says when an account exists). */
  registrations: RateLimiterAbstract;
}

export interface LimitSetting {
  points: number;
  /** Seconds over which points are counted. */
  duration: number;
  /** Seconds an exhausted key stays blocked (default: until the duration ends). */
  blockDuration?: number;
}
export type LoginLimitSettings = Record<keyof LoginLimits, LimitSetting>;

/** Production values (decision 004); tests read them rather than repeat them. */
export const LOGIN_LIMITS: Readonly<LoginLimitSettings> = {
  perAccount: { points: 5, duration: 15 * 60, blockDuration: 15 * 60 },
  perIp: { points: 30, duration: 15 * 60 },
  registrations: { points: 10, duration: 60 * 60 },
};

/** A limit in Redis when there is one, so every instance counts together; else in this process. */
export function createLimiter(redis: Redis | null, keyPrefix: string, setting: LimitSetting): RateLimiterAbstract {
  return redis ? new RateLimiterRedis({ storeClient: redis, keyPrefix, ...setting }) : new RateLimiterMemory({ keyPrefix, ...setting });
}

export function createLoginLimits(redis: Redis | null, prefix = 'limit', settings: LoginLimitSettings = LOGIN_LIMITS): LoginLimits {
  const make = (name: keyof LoginLimits) => createLimiter(redis, `${prefix}:${name}`, settings[name]);
  return { perAccount: make('perAccount'), perIp: make('perIp'), registrations: make('registrations') };
}

/** Consumes a point; answers the seconds to wait when the limit is reached. */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (error) {
    if (error instanceof RateLimiterRes) return Math.ceil(error.msBeforeNext / 1000);
    throw error;
  }
}
