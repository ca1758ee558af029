import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { listOverRest } from './guide/rest.ts';
import { listenOverSocket } from './guide/socket.ts';
import { ADMIN, accessTokenOf, createAccount, skipReason, startTestServer } from './harness.ts';

/*
 * The API guide's examples (docs/api-guide.md) stay true: each is a file here that the guide
 * includes verbatim, checked to match, and run against a server (decision 058).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('the API guide', () => {
  it('includes each example verbatim', () => {
    const guide = read('docs/api-guide.md');
    const includes = [...guide.matchAll(/<!-- example: (\S+) -->\n```\w+\n([\s\S]*?)```/g)];
    expect(includes.map(([, file]) => file)).toEqual([
      'tests/integration/guide/rest.ts',
      'tests/integration/guide/socket.ts',
      'tests/integration/guide/curl.sh',
    ]);
    for (const [, file, block] of includes) expect(block, file).toBe(read(file ?? ''));
  });
});

describe.skipIf(skipReason)('the API guide’s examples, run', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('signs in and lists over REST with the official client', async () => {
    const answer = await listOverRest(server.url, ADMIN.email, ADMIN.password);
    expect(answer.role).toBe('admin');
    expect(answer.total).toBeGreaterThanOrEqual(3);
    expect(answer.keys).toHaveLength(3);
    expect(answer.keys[0]).toBe('restaurant');
  });

  it('signs a socket in with a token and hears a record created', async () => {
    const editor = await createAccount(server.database.knex, { role: 'editor', label: 'guide-editor' });
    const token = await accessTokenOf(server.url, editor);
    const { socket, total, created } = await listenOverSocket(server.url, token);
    try {
      expect(total).toBeGreaterThan(0);
      const response = await fetch(`${server.url}/api/industries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ key: 'guide-example', name: { en: 'Guide example' }, order: 90 }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      await expect(created).resolves.toMatchObject({ key: 'guide-example' });
    } finally {
      socket.disconnect();
    }
  });

  it('signs in and lists with curl', async () => {
    // Not spawnSync: the server answering curl runs in this process.
    const run = await promisify(execFile)('bash', [path.join(ROOT, 'tests/integration/guide/curl.sh')], {
      env: { ...process.env, ORIGIN: server.url, EMAIL: ADMIN.email, PASSWORD: ADMIN.password },
      timeout: 20_000,
    });
    const page = JSON.parse(run.stdout) as { limit: number; data: { _id: string; key: string }[] };
    expect(page.limit).toBe(2);
    expect(page.data.map((industry) => Object.keys(industry).sort())).toEqual([
      ['_id', 'key'],
      ['_id', 'key'],
    ]);
    expect(page.data[0]?.key).toBe('restaurant');
  });
});
