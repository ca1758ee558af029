/**
 * Instances that start at the same moment on one fresh database (a deployment's replicas) take
 * turns migrating and seeding: none crashes, and nothing is made twice. PGlite serves one process
 * alone, so there the two starts can only follow each other; PostgreSQL runs them at once.
 */
import type { Knex } from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { createKnex } from '../../server/db/knex.ts';
import { prepareDatabase } from '../../server/db/prepare.ts';
import { ADMIN, createEmptySchema, databaseKind, skipReason } from './harness.ts';

describe.skipIf(skipReason)('starting several instances on one fresh database', () => {
  const opened: Knex[] = [];
  let dropSchema: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await dropSchema?.();
    for (const knex of opened) await knex.destroy();
  });

  it('migrates and seeds once, whichever instance gets there first, and both start', async () => {
    const { url, schema } = await createEmptySchema();
    const instance = () => {
      const knex = createKnex(url, { searchPath: schema, poolMax: 4 });
      opened.push(knex);
      return knex;
    };
    const [first, second] = [instance(), instance()];
    dropSchema = async () => {
      await first.raw('drop schema ?? cascade', [schema]);
    };
    const kind = databaseKind === 'pglite' ? 'embedded' : 'postgres';
    const options = { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true };
    const starts =
      kind === 'postgres'
        ? await Promise.allSettled([prepareDatabase(first, kind, options), prepareDatabase(second, kind, options)])
        : [
            await prepareDatabase(first, kind, options).then(ok, ko),
            await prepareDatabase(second, kind, options).then(ok, ko),
          ];
    expect(starts.map((start) => start.status)).toEqual(['fulfilled', 'fulfilled']);

    const migrations = await first('knex_migrations').select('name');
    const names = migrations.map((row: { name: string }) => row.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    const admins = await first('users').where({ email: ADMIN.email }).count<{ count: number }[]>({ count: '*' });
    expect(admins[0]?.count).toBe(1);
    const [{ count: industries } = { count: 0 }] = await first('industries').count<{ count: number }[]>({ count: '*' });
    const [{ distinct } = { distinct: -1 }] = await first('industries').countDistinct<{ distinct: number }[]>({
      distinct: 'key',
    });
    expect(industries).toBeGreaterThan(0);
    expect(distinct).toBe(industries);
  });
});

const ok = (value: unknown) => ({ status: 'fulfilled' as const, value });
const ko = (reason: unknown) => ({ status: 'rejected' as const, reason });
