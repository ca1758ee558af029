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
 * when publishing fails or times out. Other instances miss it while Redis is away (their clients
 * catch up by refetching when they reconnect); sockets on this instance never do.
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
            resolve();
          },
          // Tried again at the next connection; events are emitted here meanwhile.
          (error: unknown) => logger.warn({ err: error }, 'events channel not subscribed; service events stay on this instance'),
        );
      };
      sub.on('ready', subscribe);
      if (sub.status === 'ready') subscribe();
      setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref();
    });
    // ioredis subscribes again by itself after a reconnection, but says 'ready' before Redis
    // confirms it: this instance counts on hearing its events back only once Redis has.
    sub.on('ready', () => {
      if (!everSubscribed) return;
      sub.subscribe(key).then(
        () => (subscribed = sub.status === 'ready'),
        () => undefined,
      );
    });
    sub.on('close', () => (subscribed = false));
    sub.on('message', (channel: string, raw: string) => {
      if (channel === key) here(raw);
    });

    // The core first: it refuses an app that already has a sync.
    app.configure(core);
    const hears = () => subscribed && sub.status === 'ready' && pub.status === 'ready';
    const state: EventSync = { type: 'redis', serialize, deserialize, ready, pub, sub, hears };
    Object.assign(app, { sync: state });
    app.on('sync-out', (raw: string) => {
      const hearsBack = subscribed && sub.status === 'ready';
      if (!hears()) here(raw);
      if (pub.status !== 'ready') return;
      pub.publish(key, raw).catch((error: unknown) => {
        if (!hearsBack) return;
        logger.warn({ err: error }, 'service event not published; emitted on this instance only');
        here(raw);
      });
    });
  };
}
