import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drainOnClose } from './drain.ts';

/*
 * A server that keeps connections alive for a minute (as server.ts does), closed while its clients
 * are at each stage of a request. The close must end within the test's timeout, far under the
 * minute, and every client must get its whole answer.
 */

interface Held {
  url: string;
  server: http.Server;
  beginDrain: () => void;
  /** Answers the request waiting at `/held`, in two parts: its head now, its body when told. */
  held: Promise<{ finish: () => void }>;
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

async function serve(): Promise<Held> {
  let headSent!: (control: { finish: () => void }) => void;
  const held = new Promise<{ finish: () => void }>((resolve) => (headSent = resolve));
  const unanswered: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/held') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('part one, ');
      headSent({ finish: () => res.end('part two') });
    } else if (req.url === '/waiting') {
      unanswered.push(res);
    } else res.end('ok');
  });
  server.keepAliveTimeout = 60_000;
  const beginDrain = drainOnClose(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  Object.assign(server, { unanswered });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, beginDrain, held };
}

/** Sends raw bytes on one connection and collects what comes back until the server ends it. */
function rawClient(url: string) {
  const { port } = new URL(url);
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  const ended = new Promise<string>((resolve, reject) => {
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
  return {
    socket,
    received: () => received,
    ended,
    connected: new Promise<void>((resolve) => socket.once('connect', () => resolve())),
  };
}

async function until(check: () => boolean) {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const closeOf = (server: http.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('closing a server that keeps connections alive', () => {
  it(
    'lets an answer begun before the close finish whole, then ends its connection at once',
    { timeout: 15_000 },
    async () => {
      const { url, server, beginDrain, held } = await serve();
      const client = rawClient(url);
      await client.connected;
      client.socket.write('GET /held HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n');
      const control = await held;
      await until(() => client.received().includes('part one'));

      beginDrain();
      const closed = closeOf(server);
      control.finish();
      const answer = await client.ended;
      // The whole answer came, kept alive as it began, and the close ended with its connection.
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(answer.toLowerCase()).toContain('connection: keep-alive');
      expect(answer).toMatch(/part one, .*part two/s);
      await closed;
    },
  );

  it(
    'tells a request received but not yet answered to close its connection, and closes it after the answer',
    { timeout: 15_000 },
    async () => {
      const { url, server, beginDrain } = await serve();
      const client = rawClient(url);
      await client.connected;
      client.socket.write('GET /waiting HTTP/1.1\r\nHost: test\r\n\r\n');
      const unanswered = (server as unknown as { unanswered: http.ServerResponse[] }).unanswered;
      await until(() => unanswered.length === 1);

      beginDrain();
      const closed = closeOf(server);
      unanswered[0]?.end('late');
      const answer = await client.ended;
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(answer).toMatch(/late$/);
      await closed;
    },
  );

  it(
    'answers a request whose head was arriving as the close began, telling its client to close',
    { timeout: 15_000 },
    async () => {
      const { url, server, beginDrain } = await serve();
      const client = rawClient(url);
      await client.connected;
      // The first request answered: the connection is kept alive, and idle...
      client.socket.write('GET /first HTTP/1.1\r\nHost: test\r\n\r\n');
      await until(() => client.received().endsWith('ok'));
      // ...until the next one begins.
      client.socket.write('GET /second HTTP/1.1\r\nHo');
      await new Promise((resolve) => setTimeout(resolve, 50));

      beginDrain();
      const closed = closeOf(server);
      client.socket.write('st: test\r\n\r\n');
      const answer = await client.ended;
      const second = answer.slice(answer.lastIndexOf('HTTP/1.1'));
      expect(second).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(second.toLowerCase()).toContain('connection: close');
      await closed;
    },
  );

  it('closes an idle kept-alive connection at once', { timeout: 15_000 }, async () => {
    const { url, server, beginDrain } = await serve();
    const agent = new http.Agent({ keepAlive: true });
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get(`${url}/`, { agent }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    expect(body).toBe('ok');
    beginDrain();
    await closeOf(server);
    agent.destroy();
  });
});
