import { describe, expect, it, vi } from 'vitest';
import {
  AUTH_TIMED_OUT,
  createLive,
  MAX_RETRIES,
  NETWORK_DISCONNECTED,
  RESYNC,
  SERVER_DISCONNECT,
  type LiveClient,
  type LiveEvents,
  type LiveSocket,
} from './live';

const notAuthenticated = () =>
  Object.assign(new Error('Please sign in to continue.'), {
    name: 'NotAuthenticated',
    code: 401,
    className: 'not-authenticated',
  });
const notFound = () => Object.assign(new Error('Not found'), { name: 'NotFound', code: 404, className: 'not-found' });

type Handler = (...args: unknown[]) => Promise<unknown>;

/** A scripted service: every method takes anything and answers what the test says. */
interface FakeService extends LiveEvents {
  create: Handler;
  remove: Handler;
  find: Handler;
  get: Handler;
}

/** Any path answers a scripted service; the authentication service among them. */
interface FakeServices {
  [path: string]: FakeService;
  authentication: FakeService;
}

/** A Feathers-like client whose methods the test scripts. */
function fakeClient(methods: Record<string, Record<string, Handler>>) {
  const calls: string[] = [];
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  const client: LiveClient<FakeServices> = {
    service(path: string): FakeService {
      const own = methods[path] ?? {};
      const wrap =
        (method: string) =>
        (...args: unknown[]) => {
          calls.push(`${path}.${method}`);
          const handler = own[method];
          return handler ? handler(...args) : Promise.resolve(null);
        };
      return {
        create: wrap('create'),
        remove: wrap('remove'),
        find: wrap('find'),
        get: wrap('get'),
        on(event: string, listener: (data: unknown) => void) {
          const key = `${path} ${event}`;
          if (!listeners.has(key)) listeners.set(key, new Set());
          listeners.get(key)!.add(listener);
        },
        off(event: string, listener: (data: unknown) => void) {
          listeners.get(`${path} ${event}`)?.delete(listener);
        },
      };
    },
  };
  const emit = (path: string, event: string, data: unknown) => {
    for (const listener of listeners.get(`${path} ${event}`) ?? []) listener(data);
  };
  return { client, calls, emit, listeners };
}

function fakeSocket(connected = true) {
  const listeners: Record<string, Set<(reason?: string) => void>> = {
    connect: new Set(),
    disconnect: new Set(),
    [RESYNC]: new Set(),
  };
  const socket: LiveSocket & {
    fire(event: 'connect' | 'disconnect' | typeof RESYNC, reason?: string): void;
    opened: number;
  } = {
    connected,
    /** How many times the page opened the socket again itself. */
    opened: 0,
    on(event, listener) {
      listeners[event]!.add(listener);
    },
    off(event, listener) {
      listeners[event]!.delete(listener);
    },
    connect() {
      socket.opened += 1;
    },
    disconnect() {
      socket.connected = false;
    },
    fire(event, reason) {
      if (event !== RESYNC) socket.connected = event === 'connect';
      for (const listener of [...listeners[event]!]) listener(reason);
    },
  };
  return socket;
}

function setup(
  methods: Record<string, Record<string, Handler>>,
  options: { connected?: boolean; getTicket?: () => Promise<string>; timeoutMs?: number } = {},
) {
  const fake = fakeClient(methods);
  const socket = fakeSocket(options.connected ?? true);
  let tickets = 0;
  const onLoggedOut = vi.fn();
  const onReconnected = vi.fn();
  const live = createLive({
    client: fake.client,
    socket,
    getTicket: options.getTicket ?? (async () => `ticket-${(tickets += 1)}`),
    onLoggedOut,
    onReconnected,
    timeoutMs: options.timeoutMs,
  });
  return { live, socket, onLoggedOut, onReconnected, ...fake, tickets: () => tickets };
}

const signedIn = async (data: unknown) => ({
  user: { _id: 'u1' },
  authentication: { strategy: (data as { strategy: string }).strategy },
});

describe('the portal live connection', () => {
  it('signs in with a fresh ticket each time, never a token', async () => {
    const create = vi.fn(signedIn);
    const { live } = setup({ authentication: { create } });
    await live.authenticate();
    await live.authenticate();
    expect(create.mock.calls.map(([data]) => data)).toEqual([
      { strategy: 'ticket', ticket: 'ticket-1' },
      { strategy: 'ticket', ticket: 'ticket-2' },
    ]);
  });

  it('shares one sign-in between callers asking at once', async () => {
    const create = vi.fn(signedIn);
    const { live, tickets } = setup({ authentication: { create } });
    await Promise.all([live.authenticate(), live.authenticate(), live.authenticate()]);
    expect(create).toHaveBeenCalledTimes(1);
    expect(tickets()).toBe(1);
  });

  it('signs in when the socket connects, and refreshes the page when it comes back', async () => {
    const create = vi.fn(signedIn);
    const { socket, onReconnected } = setup({ authentication: { create } }, { connected: false });
    socket.fire('connect');
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(onReconnected).not.toHaveBeenCalled();
    socket.fire('disconnect');
    socket.fire('connect');
    await vi.waitFor(() => expect(onReconnected).toHaveBeenCalledTimes(1));
    expect(create).toHaveBeenCalledTimes(2);
    expect(create.mock.calls[1]?.[0]).toEqual({ strategy: 'ticket', ticket: 'ticket-2' });
  });

  it('refreshes the page when the server says events may have been missed, and no longer once closed', async () => {
    const create = vi.fn(signedIn);
    const { live, socket, onReconnected } = setup({ authentication: { create } }, { connected: false });
    socket.fire('connect');
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(onReconnected).not.toHaveBeenCalled();
    socket.fire(RESYNC);
    expect(onReconnected).toHaveBeenCalledTimes(1);
    // Still the same socket and sign-in: nothing is signed in again.
    expect(create).toHaveBeenCalledTimes(1);
    live.close();
    socket.fire(RESYNC);
    expect(onReconnected).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['NotAuthenticated', notAuthenticated],
    ['NotFound', notFound],
  ])('a sign-in refused with %s logs the member out', async (_name, error) => {
    const { live, onLoggedOut } = setup({ authentication: { create: () => Promise.reject(error()) } });
    await expect(live.authenticate()).rejects.toMatchObject({ code: error().code });
    expect(onLoggedOut).toHaveBeenCalledExactlyOnceWith('ended');
  });

  it('a page without a session (no ticket) logs the member out', async () => {
    const create = vi.fn(signedIn);
    const { live, onLoggedOut } = setup(
      { authentication: { create } },
      { getTicket: () => Promise.reject(notAuthenticated()) },
    );
    await expect(live.authenticate()).rejects.toMatchObject({ name: 'NotAuthenticated' });
    expect(create).not.toHaveBeenCalled();
    expect(onLoggedOut).toHaveBeenCalledExactlyOnceWith('ended');
  });

  it('a sign-in that times out clears nothing', async () => {
    vi.useFakeTimers();
    try {
      const { live, onLoggedOut } = setup(
        { authentication: { create: () => new Promise(() => undefined) } },
        { timeoutMs: 30_000 },
      );
      const attempt = expect(live.authenticate()).rejects.toThrow(AUTH_TIMED_OUT);
      await vi.advanceTimersByTimeAsync(30_000);
      await attempt;
      expect(onLoggedOut).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('the socket’s own request timeout during sign-in is an authentication timeout too, and clears nothing', async () => {
    const { live, onLoggedOut } = setup({
      authentication: { create: () => Promise.reject(new Error('operation has timed out')) },
    });
    await expect(live.authenticate()).rejects.toThrow(AUTH_TIMED_OUT);
    expect(onLoggedOut).not.toHaveBeenCalled();
  });

  it('a failed ticket request for another reason (network, server) clears nothing', async () => {
    const { live, onLoggedOut } = setup({}, { getTicket: () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(live.authenticate()).rejects.toThrow('Failed to fetch');
    expect(onLoggedOut).not.toHaveBeenCalled();
  });

  it('a call refused as not authenticated signs in again and is sent again', async () => {
    let refusals = 1;
    const create = vi.fn(signedIn);
    const find = vi.fn(async () => {
      if (refusals > 0) {
        refusals -= 1;
        throw notAuthenticated();
      }
      return { data: ['row'] };
    });
    const { live, calls, onLoggedOut } = setup({ authentication: { create }, subscriptions: { find } });
    await expect(live.call('subscriptions', (service) => service.find({ query: {} }))).resolves.toEqual({
      data: ['row'],
    });
    expect(calls).toEqual(['subscriptions.find', 'authentication.create', 'subscriptions.find']);
    expect(find).toHaveBeenLastCalledWith({ query: {} });
    expect(onLoggedOut).not.toHaveBeenCalled();
  });

  it(`after ${MAX_RETRIES} retries it logs out with the notice and rethrows`, async () => {
    const create = vi.fn(signedIn);
    const { live, calls, onLoggedOut } = setup({
      authentication: { create },
      orders: { get: () => Promise.reject(notAuthenticated()) },
    });
    await expect(live.call('orders', (service) => service.get('o1'))).rejects.toMatchObject({
      name: 'NotAuthenticated',
    });
    expect(calls.filter((c) => c === 'orders.get')).toHaveLength(MAX_RETRIES + 1);
    expect(create).toHaveBeenCalledTimes(MAX_RETRIES);
    expect(onLoggedOut).toHaveBeenCalledExactlyOnceWith('expired');
    // Logged out: nothing signs in again.
    await expect(live.authenticate()).rejects.toMatchObject({ name: 'NotAuthenticated' });
    expect(create).toHaveBeenCalledTimes(MAX_RETRIES);
  });

  it('other errors, and errors of the authentication service itself, are not retried', async () => {
    const create = vi.fn(signedIn);
    const badRequest = Object.assign(new Error('Invalid'), { name: 'BadRequest', code: 400 });
    const { live, calls } = setup({
      authentication: { create, remove: () => Promise.reject(notAuthenticated()) },
      orders: { find: () => Promise.reject(badRequest) },
    });
    await expect(live.call('orders', (service) => service.find())).rejects.toBe(badRequest);
    await expect(live.call('authentication', (service) => service.remove(null))).rejects.toMatchObject({
      name: 'NotAuthenticated',
    });
    expect(calls).toEqual(['orders.find', 'authentication.remove']);
    expect(create).not.toHaveBeenCalled();
  });

  it('a disconnect fails the calls in flight with "Network disconnected"', async () => {
    const { live, socket } = setup({ orders: { find: () => new Promise(() => undefined) } });
    const pending = live.call('orders', (service) => service.find());
    socket.fire('disconnect');
    await expect(pending).rejects.toThrow(NETWORK_DISCONNECTED);
    // And a call made while disconnected fails at once.
    await expect(live.call('orders', (service) => service.find())).rejects.toThrow(NETWORK_DISCONNECTED);
  });

  it('a socket the server closed is opened again once a ticket shows the session alive, and signs in with that ticket', async () => {
    const create = vi.fn(signedIn);
    const { socket, onReconnected, onLoggedOut, tickets } = setup({ authentication: { create } }, { connected: false });
    socket.fire('connect');
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    socket.fire('disconnect', SERVER_DISCONNECT);
    await vi.waitFor(() => expect(socket.opened).toBe(1));
    expect(tickets()).toBe(2);
    socket.fire('connect');
    await vi.waitFor(() => expect(onReconnected).toHaveBeenCalledTimes(1));
    // The ticket asked for before opening it, not another one.
    expect(create.mock.calls.map(([data]) => data)).toEqual([
      { strategy: 'ticket', ticket: 'ticket-1' },
      { strategy: 'ticket', ticket: 'ticket-2' },
    ]);
    expect(tickets()).toBe(2);
    expect(onLoggedOut).not.toHaveBeenCalled();
  });

  it('a socket the server closed because its session ended stays closed and logs the member out', async () => {
    let alive = true;
    const create = vi.fn(signedIn);
    const { socket, onLoggedOut } = setup(
      { authentication: { create } },
      { connected: false, getTicket: async () => (alive ? 'ticket' : Promise.reject(notAuthenticated())) },
    );
    socket.fire('connect');
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    alive = false;
    socket.fire('disconnect', SERVER_DISCONNECT);
    await vi.waitFor(() => expect(onLoggedOut).toHaveBeenCalledExactlyOnceWith('ended'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(socket.opened).toBe(0);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('a socket the server closed while the network fails is opened again once a ticket can be had', async () => {
    vi.useFakeTimers();
    try {
      let failures = 2;
      const getTicket = vi.fn(async () => {
        if (failures > 0) {
          failures -= 1;
          throw new TypeError('Failed to fetch');
        }
        return 'ticket';
      });
      const { socket, onLoggedOut } = setup({ authentication: { create: signedIn } }, { getTicket });
      socket.fire('disconnect', SERVER_DISCONNECT);
      await vi.advanceTimersByTimeAsync(0);
      expect(socket.opened).toBe(0);
      await vi.advanceTimersByTimeAsync(3_000);
      expect(getTicket).toHaveBeenCalledTimes(3);
      expect(socket.opened).toBe(1);
      expect(onLoggedOut).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a socket lost by the network is left to socket.io to reconnect; a closed connection is never opened again', async () => {
    const getTicket = vi.fn(async () => 'ticket');
    const { live, socket } = setup({}, { getTicket });
    socket.fire('disconnect', 'transport close');
    live.close();
    socket.fire('disconnect', SERVER_DISCONNECT);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(socket.opened).toBe(0);
    expect(getTicket).not.toHaveBeenCalled();
  });

  it('logs out through the authentication service and does not sign in again', async () => {
    const create = vi.fn(signedIn);
    const remove = vi.fn(async () => ({}));
    const { live, socket } = setup({ authentication: { create, remove } });
    await live.logout();
    expect(remove).toHaveBeenCalledWith(null);
    socket.fire('disconnect');
    socket.fire('connect');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(create).not.toHaveBeenCalled();
  });

  it('once closed (the page left the portal), a refused ticket sends the member nowhere', async () => {
    let refuse: (error: Error) => void = () => undefined;
    const ticket = new Promise<string>((_resolve, reject) => {
      refuse = reject;
    });
    const { live, onLoggedOut } = setup({}, { getTicket: () => ticket });
    const attempt = live.authenticate();
    live.close();
    refuse(notAuthenticated());
    await expect(attempt).rejects.toMatchObject({ name: 'NotAuthenticated' });
    expect(onLoggedOut).not.toHaveBeenCalled();
  });

  it('says when it is up: connected and signed in, until the socket drops or the member logs out', async () => {
    const { live, socket } = setup({ authentication: { create: signedIn } }, { connected: false });
    const heard: boolean[] = [];
    const stop = live.onUp((up) => heard.push(up));
    expect(live.up).toBe(false);
    socket.fire('connect');
    await vi.waitFor(() => expect(live.up).toBe(true));
    socket.fire('disconnect');
    expect(live.up).toBe(false);
    socket.fire('connect');
    await vi.waitFor(() => expect(live.up).toBe(true));
    await live.logout();
    expect(live.up).toBe(false);
    expect(heard).toEqual([true, false, true, false]);
    stop();
  });

  it('is not up while its socket never connects, whatever is asked of it', async () => {
    const { live } = setup({ authentication: { create: signedIn } }, { connected: false });
    await expect(live.authenticate()).rejects.toThrow(NETWORK_DISCONNECTED);
    expect(live.up).toBe(false);
  });

  it('passes service events on, and stops when asked', () => {
    const { live, emit } = setup({});
    const heard: unknown[] = [];
    const stop = live.on('subscriptions', 'patched', (data) => heard.push(data));
    emit('subscriptions', 'patched', { _id: 's1' });
    stop();
    emit('subscriptions', 'patched', { _id: 's2' });
    expect(heard).toEqual([{ _id: 's1' }]);
  });
});
