import type { Application } from '@feathersjs/feathers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { ADMIN, restClient, skipReason, socketClient, startTestServer, type SocketClient } from './harness.ts';

/** Events about draft articles reach staff sockets only; published ones reach everyone. */

type Event = { event: string; slug: string };
const QUIET_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe.skipIf(skipReason)('blogs realtime events', () => {
  let server: RunningServer;
  let admin: Application;
  const sockets: SocketClient[] = [];
  const received: Record<'anonymous' | 'editor', Event[]> = { anonymous: [], editor: [] };

  async function watcher(name: 'anonymous' | 'editor'): Promise<void> {
    const s = socketClient(server.url);
    sockets.push(s);
    for (const event of ['created', 'patched', 'removed']) {
      s.client.service('blogs').on(event, (data: { slug: string }) => received[name].push({ event, slug: data.slug }));
    }
    if (name === 'editor')
      await s.client.authenticate({ strategy: 'local', email: 'editor@tillpoint.test', password: 'Editor12345' });
    else
      await new Promise<void>((resolve) =>
        s.socket.connected ? resolve() : s.socket.once('connect', () => resolve()),
      );
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = restClient(server.url);
    await admin.authenticate({ strategy: 'local', ...ADMIN });
    await Promise.all([watcher('anonymous'), watcher('editor')]);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  it('tells only staff about a draft, and everyone once it is published', async () => {
    const article = {
      title: { en: 'Realtime' },
      summary: { en: 'S' },
      body: { en: '<p>B</p>' },
      category: 'product-news',
    };
    const draft = (await admin.service('blogs').create({ ...article, slug: 'realtime-draft' })) as { _id: string };
    await until(
      () => received.editor.some((e) => e.event === 'created' && e.slug === 'realtime-draft'),
      'the editor to hear of the draft',
    );
    await sleep(QUIET_MS);
    expect(received.anonymous).toEqual([]);

    await admin.service('blogs').patch(draft._id, { status: 'published' });
    await until(
      () => received.anonymous.some((e) => e.event === 'patched' && e.slug === 'realtime-draft'),
      'visitors to hear of the published article',
    );
    expect(received.editor.some((e) => e.event === 'patched')).toBe(true);
  });
});
