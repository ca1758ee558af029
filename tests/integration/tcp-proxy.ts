import net from 'node:net';

/**
 * A TCP proxy in front of a server (Redis, PostgreSQL) that a test can take away in the two ways
 * a network does, and give back, without touching the server itself (which other test runs share):
 *
 * - `cut()`: the server is gone: open connections are reset, new ones refused (ECONNREFUSED);
 * - `blackhole()`: the server is unreachable: connections are accepted (and the open ones kept),
 *   but nothing passes in either direction, so every request waits for an answer that never comes;
 * - `restore()`: connections pass again; those held in the black hole are reset, as a partition
 *   that lasted past the clients' timeouts ends.
 */
export interface TcpProxy {
  port: number;
  /** The server's URL with the proxy's host and port in its place. */
  url: string;
  cut(): Promise<void>;
  blackhole(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port);
  const sockets = new Set<net.Socket>();
  let mode: 'open' | 'blackhole' | 'cut' = 'open';

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = net.createServer((client) => {
    track(client);
    // Accepted, never answered, never passed on.
    if (mode === 'blackhole') return;
    const upstream = net.connect(targetPort, target.hostname);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const resetAll = () => {
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
  };

  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);

  return {
    port,
    url: url.toString(),
    async cut() {
      mode = 'cut';
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        resetAll();
      });
    },
    blackhole() {
      mode = 'blackhole';
      // What is on its way stays there: neither side reads the other any more.
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
      }
    },
    async restore() {
      if (mode === 'cut') await listen(port);
      else resetAll();
      mode = 'open';
    },
    async close() {
      resetAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
