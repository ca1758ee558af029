import type { Application } from '@feathersjs/feathers';
import sync from 'feathers-sync';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** What feathers-sync's core reads on the app, and what the server waits for and closes. */
export interface EventSync {
  type: 'redis';
  serialize: (message: SyncOut) => string;
  deserialize: (raw: string) => unknown;
  /** Resolves once this instance hears the channel, or after `SUBSCRIBE_WAIT_MS` if Redis is away. */
  ready: Promise<void>;
  pub: Redis;
  sub: Redis;
  /**
   * Whether this instance both publishes its events to Redis and hears the others' now. While it
   * does not, events of other instances are missed (channels.ts checks its sockets' sessions
   * against the database meanwhile).
   */
  hears(): boolean;
  /**
   * Listens for the moments when events of other instances may have been missed and flow again:
   * this instance hears again after it had stopped, another instance announced that it does, or
   * an event of this instance that could not be published was followed by one that was. Several
   * such moments close together are told once. Returns how to stop.
   */
  onResumed(listener: () => void): () => void;
  /**
   * Whether events of other instances may be missed now: this instance does not hear, or heard
   * again less than `CATCH_UP_MS` ago (the others may still be reconnecting). What is kept from
   * their events (cached sessions) is then trusted for a moment only.
   */
  mayMiss(): boolean;
}

/** A service event as feathers-sync's core hands it over for publishing. */
export interface SyncOut {
  event: string;
  path: string;
  data: unknown;
  context?: { method?: string; dispatch?: unknown };
}

/** How long a start waits for the subscription before it goes on without Redis. */
export const SUBSCRIBE_WAIT_MS = 2_000;

/**
 * What an instance publishes on the events channel when it hears again, or publishes again after
 * a publish failed: every instance then tells its connections to fetch again. Not JSON of an
 * event (those are objects), so it is never taken for one.
 */
export const RESUMED_MESSAGE = 'resumed';
/** How long after this instance hears again the others' events may still be missed (they may still be reconnecting). */
export const CATCH_UP_MS = 10_000;
/** Moments of resumption this close together are told to the listeners once (both instances coming back, and each one's announcement). */
export const RESUMED_DELAY_MS = 300;

/** feathers-sync's core: every service event becomes `sync-out`, and only `sync-in` reaches the service's listeners. */
const core = (sync as unknown as { core: (app: Application) => void }).core;

export interface RedisSyncOptions {
  /** Publishes (the app's Redis client: bounded timeouts, no offline queue). */
  pub: Redis;
  /** Listens (a connection of its own, in subscriber mode). */
  sub: Redis;
  key: string;
  serialize: (message: SyncOut) => string;
  deserialize: (raw: string) => unknown;
  logger: Pick<Logger, 'warn'>;
}

/**
 * feathers-sync over Redis, with the app's own clients (decision 032). Its core stops emitting
 * service events locally and waits for them to come back through Redis, so with its stock adapter
 * an event published while Redis is away (or queued offline) reached no socket at all, not even
 * on the instance that made the change. Here an event this instance would not hear back from Redis
 * is emitted here at once: when the subscriber is not connected, when the publisher is not, and
 * when publishing fails or times out. Other instances miss it while Redis is away; sockets on this
 * instance never do.
 *
 * What was missed is caught up by `onResumed` (decision 032, addendum): when this instance hears
 * again after it had stopped, or publishes again after a publish failed, it tells its own
 * listeners and announces it on the channel (`RESUMED_MESSAGE`), so every instance that hears it
 * tells its own; the server then asks every connection to fetch again (server/app.ts).
 */
export function redisSync({ pub, sub, key, serialize, deserialize, logger }: RedisSyncOptions) {
  return (app: Application): void => {
    const here = (raw: string) => app.emit('sync-in', raw);
    /** True while the subscriber hears the channel (ioredis subscribes again after each reconnection). */
    let subscribed = false;
    let everSubscribed = false;
    const ready = new Promise<void>((resolve) => {
      const subscribe = () => {
        sub.subscribe(key).then(
          () => {
            sub.off('ready', subscribe);
            everSubscribed = true;
            subscribed = sub.status === 'ready';
            look();
            resolve();
          },
          // Tried again at the next connection; events are emitted here meanwhile.
          (error: unknown) =>
            logger.warn({ err: error }, 'events channel not subscribed; service events stay on this instance'),
        );
      };
      sub.on('ready', subscribe);
      if (sub.status === 'ready') subscribe();
      setTimeout(() => {
        // Started without hearing: the first time it does, what it missed meanwhile is caught up.
        if (!hears()) heardOnce = true;
        resolve();
      }, SUBSCRIBE_WAIT_MS).unref();
    });
    // ioredis subscribes again by itself after a reconnection, but says 'ready' before Redis
    // confirms it: this instance counts on hearing its events back only once Redis has.
    sub.on('ready', () => {
      if (!everSubscribed) return;
      sub.subscribe(key).then(
        () => {
          subscribed = sub.status === 'ready';
          look();
        },
        () => undefined,
      );
    });
    sub.on('close', () => (subscribed = false));

    const listeners = new Set<() => void>();
    let timer: NodeJS.Timeout | undefined;
    /** Tells the listeners once for the moments that come within `RESUMED_DELAY_MS` of each other. */
    const resumedHere = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        for (const listener of [...listeners]) listener();
      }, RESUMED_DELAY_MS);
      timer.unref();
    };
    /** This instance's events reach the others again: every instance tells its listeners. */
    const announce = () => {
      resumedHere();
      if (pub.status === 'ready') pub.publish(key, RESUMED_MESSAGE).catch(() => undefined);
    };
    sub.on('message', (channel: string, raw: string) => {
      if (channel !== key) return;
      if (raw === RESUMED_MESSAGE) resumedHere();
      else here(raw);
    });

    const hears = () => subscribed && sub.status === 'ready' && pub.status === 'ready';
    /** Whether this instance heard at the last look, and ever did (a start that hears at once misses nothing). */
    let hearing = false;
    let heardOnce = false;
    /** When this instance last started hearing again after it had stopped. */
    let resumedAt = Number.NEGATIVE_INFINITY;
    const look = () => {
      const now = hears();
      if (now && !hearing) {
        if (heardOnce) {
          resumedAt = Date.now();
          announce();
        }
        heardOnce = true;
      }
      hearing = now;
    };
    const mayMiss = () => !hears() || Date.now() - resumedAt < CATCH_UP_MS;
    for (const client of [pub, sub])
      for (const event of ['ready', 'close', 'end', 'reconnecting']) client.on(event, look);

    // The core first: it refuses an app that already has a sync.
    app.configure(core);
    const onResumed = (listener: () => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    };
    const state: EventSync = { type: 'redis', serialize, deserialize, ready, pub, sub, hears, onResumed, mayMiss };
    Object.assign(app, { sync: state });
    /** An event of this instance did not reach Redis (a publish failed or timed out): the others missed it. */
    let unpublished = false;
    app.on('sync-out', (raw: string) => {
      const hearsBack = subscribed && sub.status === 'ready';
      if (!hears()) here(raw);
      if (pub.status !== 'ready') return;
      pub.publish(key, raw).then(
        () => {
          if (!unpublished) return;
          unpublished = false;
          announce();
        },
        (error: unknown) => {
          unpublished = true;
          if (!hearsBack) return;
          logger.warn({ err: error }, 'service event not published; emitted on this instance only');
          here(raw);
        },
      );
    });
  };
}
