import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRest, createTestApp, type Page, rejectionOf, skipReason, type TestApp } from './harness.ts';

/** `$cursor`: keyset pages forwards and backwards, and cursors that must be refused. */

interface ModuleRecord {
  _id: string;
  key: string;
  name: { en: string };
  monthPrice: number;
  createdAt: Date;
}
type Caller = { _id: string; role: string };

const rest = asRest;

const rejection = rejectionOf;

const encode = (token: unknown) => Buffer.from(JSON.stringify(token)).toString('base64url');
const decode = (cursor: string) =>
  JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s: string; d: string; k: unknown[] };

describe.skipIf(skipReason)('query cursors', () => {
  let app: TestApp;
  let admin: Caller;
  const COUNT = 25;
  const keys = Array.from({ length: COUNT }, (_, i) => `qc-${String(i).padStart(2, '0')}`);
  const quickKeys = Array.from({ length: 12 }, (_, i) => `qc-quick-${String(i).padStart(2, '0')}`);
  const sameMsKeys = Array.from({ length: 9 }, (_, i) => `qc-same-${i}`);
  /** Microseconds within one millisecond given to the sameMsKeys records (some equal). */
  const MICROS = [100, 200, 200, 300, 999, 0, 1, 1, 500];

  const modules = () => app.api.service('modules');
  const find = async (query: Record<string, unknown>) =>
    (await modules().find(rest(undefined, query))) as Page<ModuleRecord>;

  /** Every page from the first, following `cursors.next`; then back again with `cursors.previous`. */
  async function walk(query: Record<string, unknown>, limit: number) {
    const forward: Page<ModuleRecord>[] = [await find({ ...query, $limit: limit, $cursor: '' })];
    for (let last = forward[0] as Page<ModuleRecord>; last.cursors.next !== null;) {
      if (forward.length > 50) throw new Error('cursor pages do not end');
      last = await find({ ...query, $limit: limit, $cursor: last.cursors.next });
      forward.push(last);
    }
    const backward: Page<ModuleRecord>[] = [forward[forward.length - 1] as Page<ModuleRecord>];
    for (let first = backward[0] as Page<ModuleRecord>; first.cursors.previous !== null;) {
      if (backward.length > 50) throw new Error('cursor pages do not end');
      first = await find({ ...query, $limit: limit, $cursor: first.cursors.previous });
      backward.unshift(first);
    }
    return { forward, backward };
  }

  const ids = (pages: Page<ModuleRecord>[]) => pages.flatMap((p) => p.data.map((r) => r._id));

  beforeAll(async () => {
    app = await createTestApp();
    const users = (await app.api
      .service('users')
      .find({ query: { email: 'admin@tillpoint.test' }, paginate: false })) as Caller[];
    admin = users[0] as Caller;
    for (const [i, key] of keys.entries()) {
      // Prices repeat, so ties are broken by the id.
      await modules().create(
        {
          key,
          name: { en: `qc module ${String(24 - i).padStart(2, '0')}` },
          monthPrice: (i % 4) * 100,
          order: 500 + (i % 3),
        },
        rest(admin),
      );
    }
    // Created as fast as the service goes: many fall within the same millisecond.
    for (const key of quickKeys) await modules().create({ key, name: { en: key } }, rest(admin));
    await Promise.all(sameMsKeys.map((key) => modules().create({ key, name: { en: key } }, rest(admin))));
    // And some made to differ only in microseconds, or not at all, whatever the clock's resolution.
    for (const [i, key] of sameMsKeys.entries()) {
      await app.database
        .knex('modules')
        .where({ key })
        .update({ created_at: `2031-05-06 07:08:09.${String(MICROS[i]).padStart(6, '0')}+00` });
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  const SORTS: Record<string, unknown>[] = [
    { monthPrice: 1 },
    { monthPrice: -1 },
    { monthPrice: -1, name: 1 },
    { order: 1, monthPrice: -1, _id: -1 },
    { name: -1 },
    { _id: 1 },
  ];

  for (const $sort of SORTS) {
    it(`walks forwards and back through every record with $sort ${JSON.stringify($sort)}`, async () => {
      const query = { key: { $in: keys }, $sort };
      const expected = (await find({ ...query, $limit: 100 })).data.map((r) => r._id);
      expect(expected).toHaveLength(COUNT);

      const { forward, backward } = await walk(query, 7);
      expect(forward.map((p) => p.data.length)).toEqual([7, 7, 7, 4]);
      // Same records, same order, no duplicates, no gaps.
      expect(ids(forward)).toEqual(expected);
      expect(new Set(ids(forward)).size).toBe(COUNT);
      expect(forward[0]?.cursors.previous).toBeNull();
      expect(forward[forward.length - 1]?.cursors.next).toBeNull();
      for (const page of forward.slice(1)) expect(page.cursors.previous).not.toBeNull();
      for (const page of forward.slice(0, -1)) expect(page.cursors.next).not.toBeNull();

      // Going back lands on the same pages.
      expect(backward.map((p) => p.data.map((r) => r._id))).toEqual(forward.map((p) => p.data.map((r) => r._id)));
      expect(backward[0]?.cursors.previous).toBeNull();
      expect(backward[0]?.cursors.next).not.toBeNull();
    });
  }

  it('ends with a null next cursor when the last page is exactly full', async () => {
    const { forward } = await walk({ key: { $in: keys }, $sort: { monthPrice: 1 } }, 5);
    expect(forward.map((p) => p.data.length)).toEqual([5, 5, 5, 5, 5]);
    expect(forward[4]?.cursors.next).toBeNull();
    expect(new Set(ids(forward)).size).toBe(COUNT);
  });

  it('answers the usual page shape, with total -1 and skip 0 in cursor mode', async () => {
    const page = await find({ key: { $in: keys }, $limit: 3, $cursor: '', $skip: 5 });
    expect(Object.keys(page).sort()).toEqual(['cursors', 'data', 'limit', 'skip', 'sortBy', 'sortDesc', 'total']);
    expect(page.total).toBe(-1);
    expect(page.skip).toBe(0);
    expect(page.limit).toBe(3);
    expect(page.data).toHaveLength(3);
    const empty = await find({ key: 'qc-none', $cursor: '' });
    expect(empty.data).toEqual([]);
    expect(empty.cursors).toEqual({ previous: null, next: null });
  });

  it("continues an offset page's next cursor", async () => {
    const query = { key: { $in: keys }, $sort: { monthPrice: -1 } };
    const expected = (await find({ ...query, $limit: 100 })).data.map((r) => r._id);
    const offsetPage = await find({ ...query, $limit: 6, $skip: 6 });
    expect(offsetPage.data.map((r) => r._id)).toEqual(expected.slice(6, 12));
    const next = await find({ ...query, $limit: 6, $cursor: offsetPage.cursors.next });
    expect(next.data.map((r) => r._id)).toEqual(expected.slice(12, 18));
    const previous = await find({ ...query, $limit: 6, $cursor: offsetPage.cursors.previous });
    expect(previous.data.map((r) => r._id)).toEqual(expected.slice(0, 6));
  });

  it('pages over createdAt with microseconds without repeating or losing a record', async () => {
    const all = [...keys, ...quickKeys, ...sameMsKeys];
    for (const direction of [1, -1] as const) {
      const query = { key: { $in: all }, $sort: { createdAt: direction } };
      const expected = (await find({ ...query, $limit: 100 })).data.map((r) => r._id);
      expect(expected).toHaveLength(all.length);
      const { forward, backward } = await walk(query, 4);
      expect(ids(forward)).toEqual(expected);
      expect(new Set(ids(forward)).size).toBe(all.length);
      expect(ids(backward)).toEqual(expected);
    }
    // The records set apart by microseconds alone come in their stored order, ids breaking ties.
    const sameMs = (await find({ key: { $in: sameMsKeys }, $limit: 100 })).data;
    const idOf = new Map(sameMs.map((r) => [r.key, r._id]));
    const expectedOrder = sameMsKeys
      .map((key, i) => ({ key, micro: MICROS[i] as number, id: idOf.get(key) ?? '' }))
      .sort((a, b) => a.micro - b.micro || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((r) => r.key);
    const walked = await walk({ key: { $in: sameMsKeys }, $sort: { createdAt: 1 } }, 2);
    expect(walked.forward.flatMap((p) => p.data.map((r) => r.key))).toEqual(expectedOrder);
    expect(walked.backward.flatMap((p) => p.data.map((r) => r.key))).toEqual(expectedOrder);
  });

  it("walks the users' default order (createdAt down, id up) through ties in createdAt", async () => {
    // Mixed directions take the OR form of the keyset with a range on createdAt in front of it.
    const label = `qc-user-${Date.now()}`;
    const stamps = [
      '2031-01-02 03:04:05.000001+00',
      '2031-01-02 03:04:05.000002+00',
      '2031-01-02 03:04:05.000002+00',
      '2031-01-02 03:04:06+00',
    ];
    for (let i = 0; i < 14; i += 1) {
      await app.database.knex('users').insert({
        id: `${label}-${String(i).padStart(2, '0')}`,
        email: `${label}-${i}@example.test`,
        password: 'not-a-hash',
        name: label,
        role: 'member',
        created_at: stamps[i % stamps.length],
      });
    }
    const users = async (query: Record<string, unknown>) =>
      (await app.api.service('users').find(rest(admin, query))) as Page<{ _id: string }>;
    const query = { _id: { $in: Array.from({ length: 14 }, (_, i) => `${label}-${String(i).padStart(2, '0')}`) } };
    const expected = (await users({ ...query, $limit: 100 })).data.map((r) => r._id);
    expect(expected).toHaveLength(14);
    expect((await users({ ...query, $limit: 1, $cursor: '' })).sortDesc).toEqual([true, false]);

    const forward: Page<{ _id: string }>[] = [await users({ ...query, $limit: 3, $cursor: '' })];
    while (forward[forward.length - 1]!.cursors.next)
      forward.push(await users({ ...query, $limit: 3, $cursor: forward[forward.length - 1]!.cursors.next }));
    expect(forward.flatMap((p) => p.data.map((r) => r._id))).toEqual(expected);
    const backward: Page<{ _id: string }>[] = [forward[forward.length - 1]!];
    while (backward[0]!.cursors.previous)
      backward.unshift(await users({ ...query, $limit: 3, $cursor: backward[0]!.cursors.previous }));
    expect(backward.map((p) => p.data.map((r) => r._id))).toEqual(forward.map((p) => p.data.map((r) => r._id)));
    // Each cursor page is the offset page at the same place.
    for (const [i, page] of forward.entries())
      expect(page.data.map((r) => r._id)).toEqual(expected.slice(i * 3, i * 3 + 3));
  });

  it('refuses a cursor made for another $sort', async () => {
    const first = await find({ key: { $in: keys }, $sort: { monthPrice: 1 }, $limit: 5, $cursor: '' });
    const cursor = first.cursors.next;
    expect(cursor).not.toBeNull();
    for (const $sort of [{ monthPrice: -1 }, { order: 1 }, { monthPrice: 1, name: 1 }, undefined]) {
      const error = await rejection(
        find({ key: { $in: keys }, $limit: 5, $cursor: cursor, ...($sort ? { $sort } : {}) }),
      );
      expect(error.code, JSON.stringify($sort)).toBe(400);
      expect(error.name).toBe('BadRequest');
    }
  });

  it('refuses garbage and forged cursors with a BadRequest, never a database error', async () => {
    const first = await find({ $sort: { monthPrice: 1 }, $limit: 2, $cursor: '' });
    const token = decode(first.cursors.next as string);
    expect(token.s).toBe('monthPrice:1,_id:1');
    const datePage = await find({ $sort: { createdAt: -1 }, $limit: 2, $cursor: '' });
    const dateToken = decode(datePage.cursors.next as string);
    const namePage = await find({ $sort: { name: 1 }, $limit: 2, $cursor: '' });
    const nameToken = decode(namePage.cursors.next as string);

    const cases: [string, Record<string, unknown>][] = [
      ['not base64 json', { $sort: { monthPrice: 1 }, $cursor: 'garbage!!' }],
      ['json not a token', { $sort: { monthPrice: 1 }, $cursor: encode([1, 2]) }],
      ['wrong direction', { $sort: { monthPrice: 1 }, $cursor: encode({ ...token, d: 'x' }) }],
      ['too few keys', { $sort: { monthPrice: 1 }, $cursor: encode({ ...token, k: [1] }) }],
      ['object key', { $sort: { monthPrice: 1 }, $cursor: encode({ ...token, k: [{ $gt: 1 }, 'x'] }) }],
      ['text for an integer', { $sort: { monthPrice: 1 }, $cursor: encode({ ...token, k: ['abc', 'x'] }) }],
      ['fraction for an integer', { $sort: { monthPrice: 1 }, $cursor: encode({ ...token, k: [1.5, 'x'] }) }],
      ['integer out of range', { $sort: { monthPrice: 1 }, $cursor: encode({ ...token, k: [1e12, 'x'] }) }],
      ['number for an id', { $sort: { monthPrice: 1 }, $cursor: encode({ ...token, k: [1, 12] }) }],
      ['NUL in an id', { $sort: { monthPrice: 1 }, $cursor: encode({ ...token, k: [1, 'a\u0000b'] }) }],
      ['not a date', { $sort: { createdAt: -1 }, $cursor: encode({ ...dateToken, k: ['yesterday', 'x'] }) }],
      ['number for a date', { $sort: { createdAt: -1 }, $cursor: encode({ ...dateToken, k: [5, 'x'] }) }],
      ['lone surrogate in text', { $sort: { name: 1 }, $cursor: encode({ ...nameToken, k: ['\ud800', 'x'] }) }],
      ['not a string', { $sort: { monthPrice: 1 }, $cursor: { s: token.s } }],
    ];
    for (const [label, query] of cases) {
      const error = await rejection(find({ $limit: 2, ...query }));
      expect(error.code, label).toBe(400);
      expect(error.name, label).toBe('BadRequest');
    }
  });

  it('a hand-made cursor with valid keys is simply a position', async () => {
    // Clients may not forge cursors usefully, but a well-formed one must not break anything.
    const query = { key: { $in: keys }, $sort: { monthPrice: 1 }, $limit: 100 };
    const expected = (await find(query)).data.filter((r) => r.monthPrice > 100);
    const page = await find({
      ...query,
      $cursor: encode({ s: 'monthPrice:1,_id:1', d: 'n', k: [100, 'zzzzzzzzzzzzzzzzzzzzzzzz'] }),
    });
    expect(page.data.map((r) => r._id)).toEqual(expected.map((r) => r._id));
  });
});
