import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { skipReason, startTestServer } from './harness.ts';

/** The query language as it arrives over HTTP: query strings parsed into strings, arrays and index objects. */

interface Page {
  total: number;
  limit: number;
  skip: number;
  data: Record<string, unknown>[];
  sortBy: string[];
  sortDesc: boolean[];
  cursors: { previous: string | null; next: string | null };
}

describe.skipIf(skipReason)('query language over REST', () => {
  let server: RunningServer;

  const get = async (path: string) => {
    const response = await fetch(`${server.url}/api/${path}`, { headers: { accept: 'application/json' } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const page = async (path: string) => {
    const { status, body } = await get(path);
    expect(status, JSON.stringify(body)).toBe(200);
    return body as unknown as Page;
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a paginated find with exactly the spec fields', async () => {
    const body = await page('appTemplates?$limit=3&$sort[monthPrice]=-1');
    expect(Object.keys(body).sort()).toEqual(['cursors', 'data', 'limit', 'skip', 'sortBy', 'sortDesc', 'total']);
    expect(body).toMatchObject({
      total: 21,
      limit: 3,
      skip: 0,
      sortBy: ['monthPrice', '_id'],
      sortDesc: [true, false],
    });
    const prices = body.data.map((t) => t.monthPrice as number);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(body.cursors.previous).toBeNull();
    expect(typeof body.cursors.next).toBe('string');
  });

  it('takes $limit, $skip, $sort, $select and filters from the query string', async () => {
    const all = await page('modules?$limit=100&$sort[order]=1&$sort[_id]=1');
    expect(all.total).toBe(9);
    const slice = await page('modules?$limit=2&$skip=3&$sort[order]=1&$select[]=name&$select[]=order');
    expect(slice.data.map((m) => m._id)).toEqual(all.data.slice(3, 5).map((m) => m._id));
    for (const record of slice.data) expect(Object.keys(record).sort()).toEqual(['_id', 'name', 'order']);

    const ids = all.data.slice(0, 2).map((m) => m._id as string);
    const inList = await page(`modules?_id[$in][0]=${ids[0]}&_id[$in][1]=${ids[1]}`);
    expect(inList.data.map((m) => m._id).sort()).toEqual([...ids].sort());
    const ninList = await page(`modules?_id[$nin][]=${ids[0]}&$limit=100`);
    expect(ninList.total).toBe(8);

    const homePlans = await page('appTemplates?showOnHome=true&$limit=0');
    expect(homePlans.total).toBe(7);
    const cheap = await page('appTemplates?monthPrice[$lte]=0&$limit=100');
    expect(cheap.data.every((t) => (t.monthPrice as number) <= 0)).toBe(true);
  });

  it('takes $or of case-insensitive $regex searches and $populate', async () => {
    const found = await page(
      'industries?$or[0][name][$regex]=RESTAUR&$or[0][name][$options]=i&$or[1][description][$regex]=RESTAUR&$or[1][description][$options]=i',
    );
    expect(found.total).toBeGreaterThanOrEqual(1);
    expect(found.data.some((i) => i.key === 'restaurant')).toBe(true);
    const literal = await page(`industries?name[$regex]=${encodeURIComponent('.*')}&name[$options]=i`);
    expect(literal.total).toBe(0);

    const populated = await page('appTemplates?showOnHome=true&$populate=modules.id&$populate=industry&$limit=1');
    const plan = populated.data[0] as { industry: { _id: string }; modules: { id: { name: { en: string } } }[] };
    expect(typeof plan.industry._id).toBe('string');
    for (const item of plan.modules) expect(typeof item.id.name.en).toBe('string');
  });

  it('walks $cursor pages from an empty cursor', async () => {
    const seen: string[] = [];
    let body = await page('appTemplates?$cursor=&$limit=8&$sort[monthPrice]=1');
    seen.push(...body.data.map((t) => t._id as string));
    while (body.cursors.next) {
      body = await page(`appTemplates?$limit=8&$sort[monthPrice]=1&$cursor=${encodeURIComponent(body.cursors.next)}`);
      seen.push(...body.data.map((t) => t._id as string));
    }
    expect(seen).toHaveLength(21);
    expect(new Set(seen).size).toBe(21);
  });

  it('answers refused queries with a 400 Feathers error', async () => {
    for (const path of [
      'appTemplates?$limit=101',
      'appTemplates?$sort[description]=1',
      'appTemplates?colour=red',
      'appTemplates?$where=1',
      'appTemplates?key[$exists]=true',
      'appTemplates?$populate=nope',
      'appTemplates?$cursor=garbage&$limit=2',
      'users?password=x',
    ]) {
      const { status, body } = await get(path);
      // users needs a sign-in first; every other refusal is a BadRequest.
      if (path.startsWith('users')) {
        expect(status, path).toBe(401);
        continue;
      }
      expect(status, path).toBe(400);
      expect(body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request' });
    }
    const missing = await get('appTemplates/000000000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ name: 'NotFound', code: 404 });
  });
});
