import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKnex } from '../../server/db/knex.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { ADMIN, createEmptySchema, skipReason, testConfig } from './harness.ts';

/**
 * Start-up of several instances (decision 032). Two whole servers start at the same moment on one
 * fresh PostgreSQL schema, as a deployment's replicas do: both start, and the migrations and the
 * seed ran once (under the advisory lock of server/db/prepare.ts). PGlite serves one process alone
 * (its connections share one session, so a lock cannot keep two of them apart), which the server
 * enforces: with REDIS_URL (several instances) it refuses to start on the embedded database.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

describe.skipIf(skipReason)('two instances starting at once on a fresh database', () => {
  const servers: RunningServer[] = [];
  let dropSchemas: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const server of servers) await server.close();
    await dropSchemas?.();
  });

  it('both start; the migrations and the seed ran once', async () => {
    const { url, schema } = await createEmptySchema();
    // The schema through the connection itself, as an operator would point a deployment at one.
    const databaseUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const knex = createKnex(url, { searchPath: schema, poolMax: 1 });
    dropSchemas = async () => {
      await knex.raw('drop schema if exists ?? cascade', [schema]);
      await knex.raw('drop schema if exists pgboss cascade');
      await knex.destroy();
    };

    const starts = await Promise.allSettled(
      ['a', 'b'].map((name) =>
        startServer(testConfig({ databaseUrl, instanceName: `start-${name}` }), { pages: false }),
      ),
    );
    for (const start of starts) if (start.status === 'fulfilled') servers.push(start.value);
    expect(starts.map((start) => (start.status === 'rejected' ? String(start.reason) : 'started'))).toEqual([
      'started',
      'started',
    ]);

    const names = ((await knex('knex_migrations').select('name')) as { name: string }[]).map((row) => row.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    const [{ count: admins } = { count: 0 }] = await knex('users')
      .where({ email: ADMIN.email })
      .count<{ count: number }[]>({ count: '*' });
    expect(admins).toBe(1);
    const [{ count: industries } = { count: 0 }] = await knex('industries').count<{ count: number }[]>({ count: '*' });
    const [{ distinct } = { distinct: -1 }] = await knex('industries').countDistinct<{ distinct: number }[]>({
      distinct: 'key',
    });
    expect(industries).toBeGreaterThan(0);
    expect(distinct).toBe(industries);

    // Both serve, each under its own name.
    for (const [index, server] of servers.entries()) {
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
      expect(health.headers.get('x-instance')).toBe(`start-${index === 0 ? 'a' : 'b'}`);
      expect(await health.json()).toMatchObject({ status: 'ok', instance: `start-${index === 0 ? 'a' : 'b'}` });
    }
  });
});

describe('several instances on the embedded database', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-refused-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('are refused: with REDIS_URL and no DATABASE_URL the server does not start, and says why in one line', async () => {
    const { DATABASE_URL: _database, ...environment } = process.env;
    const child = spawn(process.execPath, ['server/index.ts'], {
      cwd: ROOT,
      env: {
        ...environment,
        NODE_ENV: 'test',
        REDIS_URL: 'redis://127.0.0.1:6379',
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Refusing to start: REDIS_URL is set \(several instances\) but DATABASE_URL is not, and the embedded database serves one instance only/,
    );
  });
});
