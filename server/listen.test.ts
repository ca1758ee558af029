import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config.ts';
import { listen } from './listen.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function server(): http.Server {
  const s = http.createServer((_req, res) => res.end('ok'));
  servers.push(s);
  return s;
}

describe('listen', () => {
  it('listens on a free port', async () => {
    const s = server();
    await listen(s, { port: 0, host: '127.0.0.1', setting: 'PORT' });
    expect((s.address() as AddressInfo).port).toBeGreaterThan(0);
  });

  it('refuses a port in use in one line naming the setting to change', async () => {
    const taken = server();
    await listen(taken, { port: 0, host: '127.0.0.1', setting: 'PORT' });
    const { port } = taken.address() as AddressInfo;
    const error = await listen(server(), {
      port,
      host: '127.0.0.1',
      setting: 'PAYMENT_SANDBOX_PORT',
      hint: "the payment sandbox's, PORT+1 unless set",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `Cannot start: port ${port} on 127.0.0.1 (the payment sandbox's, PORT+1 unless set) is already in use. Set PAYMENT_SANDBOX_PORT to a free port, or 0 for any.`,
    );
    expect((error as Error).message).not.toContain('\n');
  });
});
