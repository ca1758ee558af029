import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * How long anything waits on Redis (decision 032). Redis answers in well under a millisecond; one
 * that has not answered in these times is treated as away, and what asked falls back at once to
 * what each instance can do alone (memory limits, the database).
 */
export const REDIS_TIMEOUTS = {
  /** A command without a reply by then is rejected ("Command timed out"). */
  commandMs: 400,
  /** A connection that received nothing this long while a reply was due is dead: dropped, then made again. */
  socketMs: 400,
  /** A TCP connection not made by then is given up (and tried again). */
  connectMs: 1_000,
  /** Waits between reconnection attempts grow by this step up to `maxRetryMs`. */
  retryStepMs: 100,
  maxRetryMs: 2_000,
} as const;

/**
 * A Redis client that never makes a request wait for Redis: no offline queue (a command while the
 * connection is down fails at once), every command and connection bounded by `REDIS_TIMEOUTS`,
 * and reconnection forever with a growing pause. A blackholed server (accepting, never answering)
 * costs the first command its timeout; the connection is then dropped, so the commands after it
 * fail at once until Redis answers again. Losing and regaining the connection is logged once each.
 */
export function createRedis(url: string, logger: Pick<Logger, 'warn' | 'info'>, name: string): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_TIMEOUTS.commandMs,
    socketTimeout: REDIS_TIMEOUTS.socketMs,
    connectTimeout: REDIS_TIMEOUTS.connectMs,
    retryStrategy: (times) => Math.min(times * REDIS_TIMEOUTS.retryStepMs, REDIS_TIMEOUTS.maxRetryMs),
  });
  let lost = false;
  redis.on('error', (error: Error) => {
    if (lost) return;
    lost = true;
    logger.warn({ err: error, redis: name }, 'Redis is away; this instance carries on without it');
  });
  // 'reconnecting' follows a lost connection, never a deliberate `quit`.
  redis.on('reconnecting', () => {
    if (lost) return;
    lost = true;
    logger.warn({ redis: name }, 'Redis connection lost; this instance carries on without it');
  });
  redis.on('ready', () => {
    if (!lost) return;
    lost = false;
    logger.info({ redis: name }, 'Redis is back');
  });
  return redis;
}

/** Whether a client may be sent commands now (connected and past its ready check). */
export const isRedisReady = (redis: Redis): boolean => redis.status === 'ready';

/** Closes a client for good: politely when connected, and stops its reconnecting either way. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => undefined);
  redis.disconnect();
}
