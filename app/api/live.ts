import type { Services } from '../../domain/entities/services';

/**
 * The portal's live connection, without the transport (decision 027): how it signs in, retries,
 * signs out and recovers. `connect.ts` gives it the official Feathers client over socket.io; the
 * unit tests give it a fake one.
 *
 * The page never holds the session token: each sign-in of the socket redeems a fresh one-time
 * ticket (`getTicket`, a same-origin POST carrying the httpOnly cookie).
 *
 * The server closes a socket whose session was ended elsewhere (server/channels.ts), and socket.io
 * does not reconnect after that by itself: the page asks for a ticket first, which tells whether
 * its session is still alive; only then is the socket opened again, signed in with that ticket.
 * A dead session is never retried: it is logged out.
 */

/** A client service's events (a Feathers client service is an event emitter). */
export interface LiveEvents {
  on(event: string, listener: (data: unknown) => void): unknown;
  off(event: string, listener: (data: unknown) => void): unknown;
}

/** What the connection itself asks of the authentication service: a ticket's sign-in, and signing out. */
export interface LiveAuthentication {
  create(data: { strategy: 'ticket'; ticket: string }): Promise<unknown>;
  remove(id: null): Promise<unknown>;
}

/**
 * The services a connection reaches, by path: the service map over JSON (`Services<'json'>`,
 * domain/entities/services.ts), so every call is typed by the definitions; the unit tests give
 * their own.
 */
export interface LiveServices {
  authentication: LiveAuthentication;
}

/** The client: each service by its path, with its events (the official Feathers client is one). */
export interface LiveClient<S extends LiveServices = Services<'json'>> {
  service<K extends keyof S & string>(path: K): S[K] & LiveEvents;
}

/**
 * The socket underneath: its state and the events it announces (`disconnect` with socket.io's
 * reason; `resync` from the server, `RESYNC`).
 */
export interface LiveSocket {
  connected: boolean;
  on(event: 'connect' | 'disconnect' | typeof RESYNC, listener: (reason?: string) => void): unknown;
  off(event: 'connect' | 'disconnect' | typeof RESYNC, listener: (reason?: string) => void): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

export type LoggedOutReason = 'ended' | 'expired';

export interface LiveOptions<S extends LiveServices = Services<'json'>> {
  client: LiveClient<S>;
  socket: LiveSocket;
  /** A fresh one-time ticket; rejects with a `NotAuthenticated` error when the page has no session. */
  getTicket(): Promise<string>;
  /** The session is gone: forget the user and send them to sign in (`expired`: with the "please log in again" notice). */
  onLoggedOut(reason: LoggedOutReason): void | Promise<void>;
  /**
   * The socket came back and signed in again, or the server said events may have been missed
   * (`RESYNC`): refresh what the page shows.
   */
  onReconnected(): void;
  /** How long a sign-in may take (the calls' own timeout is the client's). */
  timeoutMs?: number;
}

/** A service call re-signs in and is sent again this many times when it is refused as not authenticated. */
export const MAX_RETRIES = 3;
export const AUTH_TIMEOUT_MS = 30_000;
export const AUTH_TIMED_OUT = 'Authentication timed out';
export const NETWORK_DISCONNECTED = 'Network disconnected';
/**
 * What the server sends every connection when events of other instances may have been missed (Redis
 * was away, server/sync.ts): the page reads its data again, as after a reconnection.
 */
export const RESYNC = 'resync';
/** Socket.io's reason for a socket the server closed; it is not reconnected by socket.io itself. */
export const SERVER_DISCONNECT = 'io server disconnect';
/** A ticket asked for before reopening a closed socket is used for its sign-in while younger than this (they last 60 s). */
const SPARE_TICKET_MS = 30_000;
/** Waits before asking again when a ticket could not be had (the network, not the session): doubling up to the last. */
const REOPEN_WAITS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  className?: unknown;
}

export function isNotAuthenticated(error: unknown): boolean {
  const e = error as ErrorLike | null;
  return Boolean(e) && (e?.name === 'NotAuthenticated' || e?.code === 401 || e?.className === 'not-authenticated');
}

function isNotFound(error: unknown): boolean {
  const e = error as ErrorLike | null;
  return Boolean(e) && (e?.name === 'NotFound' || e?.code === 404 || e?.className === 'not-found');
}

/** A call the socket's disconnect cut off (a Feathers-style error, so callers can tell it apart). */
export class NetworkDisconnected extends Error {
  readonly code = 503;
  readonly className = 'unavailable';
  constructor() {
    super(NETWORK_DISCONNECTED);
    this.name = 'Unavailable';
  }
}

export class AuthenticationTimedOut extends Error {
  readonly code = 408;
  readonly className = 'timeout';
  constructor() {
    super(AUTH_TIMED_OUT);
    this.name = 'Timeout';
  }
}

export interface Live<S extends LiveServices = Services<'json'>> {
  /** Signs the socket in (a fresh ticket); shared by everyone asking at the same time. */
  authenticate(): Promise<void>;
  /**
   * A call to the service at `path`, re-signed-in and retried when it is refused as not
   * authenticated: `run` gets the service as the map types it and makes the call, whose answer
   * is the call's (`live.call('exports', (exports) => exports.get(id))`). `run` may be run again.
   */
  call<K extends keyof S & string, R>(path: K, run: (service: S[K]) => Promise<R>): Promise<R>;
  /** Listens to a service's events; returns how to stop. */
  on(path: keyof S & string, event: string, listener: (data: unknown) => void): () => void;
  /** The socket is connected and signed in: calls are answered and events arrive. */
  readonly up: boolean;
  /** Listens to `up` changing; returns how to stop. */
  onUp(listener: (up: boolean) => void): () => void;
  /** Signs the session out on the server (the token stops working everywhere). */
  logout(): Promise<void>;
  /** Stops listening and closes the socket. */
  close(): void;
}

export function createLive<S extends LiveServices = Services<'json'>>(options: LiveOptions<S>): Live<S> {
  const { client, socket } = options;
  const timeoutMs = options.timeoutMs ?? AUTH_TIMEOUT_MS;
  let authenticating: Promise<void> | null = null;
  let loggedOut = false;
  let closed = false;
  let connectedBefore = socket.connected;
  /** Rejecters of the calls in flight, failed when the socket drops. */
  const pending = new Set<(error: Error) => void>();
  /** A ticket already asked for (reopening a closed socket), and when. */
  let spare: { ticket: string; at: number } | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  let up = false;
  const upListeners = new Set<(up: boolean) => void>();
  const setUp = (next: boolean) => {
    if (up === next) return;
    up = next;
    for (const listener of [...upListeners]) listener(next);
  };

  const loggedOutBy = async (reason: LoggedOutReason) => {
    // Closed: the page has left the portal (or is signing out), nothing to send anywhere.
    if (loggedOut || closed) return;
    loggedOut = true;
    setUp(false);
    await options.onLoggedOut(reason);
  };

  /** A promise that also fails when the socket disconnects while it is waited for. */
  const tracked = <T>(run: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (!socket.connected) {
        reject(new NetworkDisconnected());
        return;
      }
      const fail = (error: Error) => {
        pending.delete(fail);
        reject(error);
      };
      pending.add(fail);
      run().then(
        (value) => {
          pending.delete(fail);
          resolve(value);
        },
        (error: unknown) => fail(error as Error),
      );
    });

  const signIn = async () => {
    let ticket: string;
    const kept = spare && Date.now() - spare.at < SPARE_TICKET_MS ? spare.ticket : null;
    spare = null;
    try {
      ticket = kept ?? (await options.getTicket());
    } catch (error) {
      if (isNotAuthenticated(error)) await loggedOutBy('ended');
      throw error;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new AuthenticationTimedOut()), timeoutMs);
    });
    try {
      await Promise.race([
        tracked(() => client.service('authentication').create({ strategy: 'ticket', ticket })),
        timedOut,
      ]);
      if (socket.connected && !loggedOut && !closed) setUp(true);
    } catch (error) {
      if (isNotAuthenticated(error) || isNotFound(error)) await loggedOutBy('ended');
      // A timeout (ours, or the socket's own request timeout) clears nothing: the session may be
      // fine and the network slow.
      if (error instanceof Error && !(error instanceof AuthenticationTimedOut) && /timed out/i.test(error.message))
        throw new AuthenticationTimedOut();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };

  const authenticate = (): Promise<void> => {
    if (loggedOut)
      return Promise.reject(Object.assign(new Error('auth.sessionEnded'), { name: 'NotAuthenticated', code: 401 }));
    authenticating ??= signIn().finally(() => {
      authenticating = null;
    });
    return authenticating;
  };

  const call = async <K extends keyof S & string, R>(path: K, run: (service: S[K]) => Promise<R>): Promise<R> => {
    for (let retries = 0; ; retries += 1) {
      if (authenticating) await authenticating;
      try {
        return await tracked(() => run(client.service(path)));
      } catch (error) {
        if (path === 'authentication' || !isNotAuthenticated(error)) throw error;
        if (retries >= MAX_RETRIES) {
          await loggedOutBy('expired');
          throw error;
        }
        await authenticate();
      }
    }
  };

  /**
   * The server closed the socket: its session may have been ended elsewhere. A ticket says whether
   * the page's session is alive: then the socket is opened again (and signs in with that ticket);
   * refused, the member is logged out and the socket stays closed.
   */
  const reopen = async (attempt = 0): Promise<void> => {
    reopenTimer = undefined;
    if (closed || loggedOut || socket.connected) return;
    try {
      spare = { ticket: await options.getTicket(), at: Date.now() };
    } catch (error) {
      if (isNotAuthenticated(error)) {
        await loggedOutBy('ended');
        return;
      }
      reopenTimer = setTimeout(
        () => void reopen(attempt + 1),
        REOPEN_WAITS_MS[Math.min(attempt, REOPEN_WAITS_MS.length - 1)],
      );
      return;
    }
    if (!closed && !loggedOut) socket.connect();
  };

  const onDisconnect = (reason?: string) => {
    setUp(false);
    const error = new NetworkDisconnected();
    for (const fail of [...pending]) fail(error);
    // Any other reason is the network's: socket.io reconnects by itself.
    if (reason === SERVER_DISCONNECT && !closed && !loggedOut && !reopenTimer) void reopen();
  };
  const onConnect = () => {
    if (closed || loggedOut) return;
    const reconnected = connectedBefore;
    connectedBefore = true;
    // A new socket is a new connection on the server: it signs in again with a new ticket.
    authenticate().then(
      () => {
        if (reconnected) options.onReconnected();
      },
      () => undefined,
    );
  };
  const onResync = () => {
    if (!closed && !loggedOut) options.onReconnected();
  };
  socket.on('disconnect', onDisconnect);
  socket.on('connect', onConnect);
  socket.on(RESYNC, onResync);

  return {
    authenticate,
    call,
    on(path, event, listener) {
      const service = client.service(path);
      service.on(event, listener);
      return () => {
        service.off(event, listener);
      };
    },
    get up() {
      return up;
    },
    onUp(listener) {
      upListeners.add(listener);
      return () => {
        upListeners.delete(listener);
      };
    },
    async logout() {
      loggedOut = true;
      setUp(false);
      await tracked(() => client.service('authentication').remove(null));
    },
    close() {
      closed = true;
      clearTimeout(reopenTimer);
      socket.off('disconnect', onDisconnect);
      socket.off('connect', onConnect);
      socket.off(RESYNC, onResync);
      onDisconnect();
      socket.disconnect();
    },
  };
}
