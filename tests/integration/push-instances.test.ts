import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/db/ids.ts';
import type { RunningServer } from '../../server/server.ts';
import { hashInstallationSecret } from '../../server/services/app-devices/installations.ts';
import {
  accessTokenOf,
  createAccount,
  redisSkipReason,
  restCall,
  socketClient,
  startTestServers,
  TEST_REDIS_URL,
  type SocketClient,
} from './harness.ts';

/**
 * A push message's statistics across two instances on one database and one Redis (decision 055):
 * a message sent from one, its devices reporting to either, and the figures staff watch on each
 * instance's live connection end where the database says, with none of the reports lost to the
 * instance that did not receive them.
 */

const redisReason = await redisSkipReason();

type Message = { _id: string; status: string; targeted: number; sent: number; received: number; opened: number };

describe.skipIf(redisReason)('a push message’s statistics on several instances', () => {
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  let a: RunningServer;
  let b: RunningServer;
  let token: string;
  const sockets: SocketClient[] = [];
  let nextAddress = 1;
  const address = () => `10.56.0.${nextAddress++}`;

  beforeAll(async () => {
    [a, b] = (await startTestServers(2, {
      redisUrl: TEST_REDIS_URL,
      redisPrefix: prefix,
      trustProxy: 'loopback',
    })) as [RunningServer, RunningServer];
    const editor = await createAccount(a.database.knex, { role: 'editor', label: 'push-instances' });
    token = await accessTokenOf(a.url, editor, address());
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all([a?.close(), b?.close()]);
  });

  async function watch(server: RunningServer, id: string): Promise<Message[]> {
    const socket = socketClient(server.url, { 'x-forwarded-for': address() });
    sockets.push(socket);
    await socket.client.authenticate({ strategy: 'jwt', accessToken: token });
    const heard: Message[] = [];
    socket.client.service('pushMessages').on('patched', (record: Message) => {
      if (record._id === id) heard.push(record);
    });
    return heard;
  }

  async function until<T>(read: () => Promise<T | false> | T | false, what: string, ms = 20_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (value !== false) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('end where the database says on both instances, whichever received each report', async () => {
    const knex = a.database.knex;
    // A region of its own (letters only, as region codes are), so no other device is in the audience.
    const region = `i${[...randomBytes(5)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('')}`;
    const devices = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const id = newId();
        const secret = `secret-${id}`;
        await knex('app_devices').insert({
          id,
          device_id: `instance-${id}`,
          platform: 'ios',
          region,
          push_token: `token-${id}`,
          secret_hash: hashInstallationSecret(secret),
        });
        return { deviceId: `instance-${id}`, secret };
      }),
    );
    const created = await restCall(a.url, 'POST', 'pushMessages', {
      token,
      address: address(),
      // Urgent: quiet hours on the devices' clock are not this test's subject, whatever the hour it runs at.
      body: {
        title: { en: 'Two instances' },
        body: { en: 'One message' },
        audience: 'region',
        audienceRegion: region,
        urgent: true,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body._id as string;
    const onA = await watch(a, id);
    const onB = await watch(b, id);

    const sent = await restCall(a.url, 'POST', 'pushSends', {
      token,
      address: address(),
      body: { message: id, action: 'now' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    await until(async () => {
      const row = (await knex('push_messages').where('id', id).first('status')) as { status: string } | undefined;
      return row?.status === 'sent' && row;
    }, 'the message to be sent');

    // Half the devices report to each instance; every third one opens it.
    await Promise.all(
      devices.map((device, index) =>
        restCall(index % 2 === 0 ? a.url : b.url, 'POST', 'pushReceipts', {
          address: address(),
          body: { message: id, ...device, event: index % 3 === 0 ? 'opened' : 'received' },
        }),
      ),
    );
    const final = { targeted: 12, sent: 12, received: 12, opened: 4 };
    for (const [name, heard] of [
      ['a', onA],
      ['b', onB],
    ] as const) {
      await until(() => heard.at(-1)?.received === 12 && heard.at(-1)?.opened === 4, `instance ${name} to hear it all`);
      expect(heard.at(-1), name).toMatchObject(final);
    }
    const stored = await b.api.service('pushMessages').get(id);
    expect(stored).toMatchObject(final);
  });
});
