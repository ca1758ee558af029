import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LimitSetting {
  points: number;
  /** Seconds over which points are counted. */
  duration: number;
  /** Seconds an exhausted key stays blocked (default: until the duration ends). */
  blockDuration?: number;
}

/**
 * Sign-in and registration limits (decision 004). Sign-in follows rate-limiter-flexible's login
 * protection: failures count per account and address together, so an attacker's failures hold back
 * the attacker and not the owner signing in from elsewhere; wider limits stop slow and spread-out
 * guessing. Addresses are keys from `addressKey` (an IPv6 /64 counts as one address).
 */
export interface LoginLimitSettings {
  /** Sign-in attempts per address, failed or not (`LOGIN_ATTEMPTS_PER_IP`). */
  perIp: LimitSetting;
  /** Failed sign-ins per address, whatever the account: slow guessing over many accounts. */
  failuresPerIp: LimitSetting;
  /** Failed sign-ins per account from every address together: guessing spread over many addresses. */
  failuresPerAccount: LimitSetting;
  /** Failures in a row for one account from one address: `points` of them cost no wait; forgotten `duration` after the first. */
  consecutiveFailures: LimitSetting;
  /** Seconds an account and address wait after each failure in a row from the free ones on; the last repeats. */
  waits: readonly [number, ...number[]];
  /** Account registrations per address (registration says when an account exists). */
  registrations: LimitSetting;
}

type LimiterName = Exclude<keyof LoginLimitSettings, 'waits'>;
export type LoginLimits = Record<LimiterName, RateLimiterAbstract> & {
  /** The wait each account and address is in, one attempt admitted per wait. */
  pairWaits: RateLimiterAbstract;
  waits: LoginLimitSettings['waits'];
};

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;

/** Production values; tests read them rather than repeat them. */
export const LOGIN_LIMITS: Readonly<LoginLimitSettings> = {
  perIp: { points: 30, duration: 15 * MINUTE },
  failuresPerIp: { points: 100, duration: DAY, blockDuration: DAY },
  failuresPerAccount: { points: 100, duration: DAY },
  consecutiveFailures: { points: 5, duration: DAY },
  waits: [1 * MINUTE, 2 * MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, 60 * MINUTE],
  registrations: { points: 10, duration: 60 * MINUTE },
};

/**
 * A limit in Redis when there is one, so every instance counts together; else in this process.
 * While Redis is away (not connected, or a command timed out) the same limit counts in this
 * process instead (rate-limiter-flexible's insurance limiter), so it still holds, per instance,
 * and no call waits on Redis (decision 032). Counts made meanwhile stay in memory when it returns.
 */
export function createLimiter(redis: Redis | null, keyPrefix: string, setting: LimitSetting): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix, ...setting });
  if (!redis) return memory;
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    ...setting,
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true,
  });
}

export function createLoginLimits(
  redis: Redis | null,
  prefix = 'limit',
  settings: LoginLimitSettings = LOGIN_LIMITS,
): LoginLimits {
  const make = (name: LimiterName) => createLimiter(redis, `${prefix}:${name}`, settings[name]);
  return {
    perIp: make('perIp'),
    failuresPerIp: make('failuresPerIp'),
    failuresPerAccount: make('failuresPerAccount'),
    consecutiveFailures: make('consecutiveFailures'),
    // Each wait is the lifetime of its key, given when the key is made (`customDuration`).
    pairWaits: createLimiter(redis, `${prefix}:pairWaits`, { points: 1, duration: Math.max(...settings.waits) }),
    waits: settings.waits,
    registrations: make('registrations'),
  };
}

/** Consumes a point; answers the seconds to wait when the limit is reached. */
export async function consume(
  limiter: RateLimiterAbstract,
  key: string,
  options?: { customDuration: number },
): Promise<number | null> {
  try {
    await limiter.consume(key, 1, options);
    return null;
  } catch (error) {
    if (error instanceof RateLimiterRes) return Math.ceil(error.msBeforeNext / 1000);
    throw error;
  }
}

/** The key of one account signing in from one address (address keys hold no space). */
export const pairKey = (address: string, account: string) => `${address} ${account}`;

/** Seconds an account and address wait after their `run`-th failure in a row (`run` ≥ the free ones). */
export function pairWait(settings: Pick<LoginLimitSettings, 'consecutiveFailures' | 'waits'>, run: number): number {
  const { waits } = settings;
  return waits[Math.min(Math.max(run - settings.consecutiveFailures.points, 0), waits.length - 1)] ?? waits[0];
}

/** A sign-in let through to the password check: `succeeded` once the password was right. */
export interface AdmittedSignIn {
  succeeded(): Promise<void>;
}

/**
 * Lets a sign-in attempt through, or answers the seconds to wait. Each limit takes its point before
 * the password is checked, as if the attempt will fail, so attempts sent in parallel cannot slip
 * past a limit while the first ones are still being checked; a limit that refuses gives back what
 * the ones before it took. Past the free failures in a row, the wait after this attempt starts as
 * it is let through, and it is the one attempt let through until that wait ends.
 *
 * Once the password was right, `succeeded` gives back the points it took and clears the account's
 * run of failures from that address. A failure keeps everything taken.
 */
export async function admitSignIn(
  limits: LoginLimits,
  account: string,
  address: string,
): Promise<AdmittedSignIn | { retryAfter: number }> {
  const attempts = await consume(limits.perIp, address);
  if (attempts !== null) return { retryAfter: attempts };

  const pair = pairKey(address, account);
  const taken: (() => Promise<unknown>)[] = [];
  const refuse = async (retryAfter: number) => {
    for (const giveBack of taken.reverse()) await giveBack();
    return { retryAfter };
  };
  // The account and address first: while an attacker waits there, the wider counts stay untouched.
  const run = (await limits.consecutiveFailures.penalty(pair)).consumedPoints;
  taken.push(() => limits.consecutiveFailures.reward(pair));
  if (run >= limits.consecutiveFailures.points) {
    const wait = await consume(limits.pairWaits, pair, { customDuration: pairWait(limits, run) });
    if (wait !== null) return refuse(wait);
    taken.push(() => limits.pairWaits.delete(pair));
  }
  const addressDay = await consume(limits.failuresPerIp, address);
  if (addressDay !== null) return refuse(addressDay);
  taken.push(() => limits.failuresPerIp.reward(address));
  const accountDay = await consume(limits.failuresPerAccount, account);
  if (accountDay !== null) return refuse(accountDay);

  return {
    async succeeded() {
      await Promise.all([
        limits.consecutiveFailures.delete(pair),
        limits.pairWaits.delete(pair),
        limits.failuresPerIp.reward(address),
        limits.failuresPerAccount.reward(account),
      ]);
    },
  };
}
