import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { appTemplates } from '../../domain/entities/app-templates.ts';
import type { industries } from '../../domain/entities/industries.ts';
import type { modules } from '../../domain/entities/modules.ts';
import type { RecordOf } from '../../domain/entities/types.ts';
import type { users } from '../../domain/entities/users.ts';
import {
  asRest,
  createTestApp,
  type Page,
  rejectionOf,
  skipReason,
  type TestApp,
  typedService,
  untypedService,
} from './harness.ts';

/** `$limit`, `$skip`, `$sort`, `$select`, `$populate`, the page's shape, and `get`. */

type AppTemplate = RecordOf<typeof appTemplates>;
type IndustryRecord = RecordOf<typeof industries>;
type ModuleRecord = RecordOf<typeof modules>;
type Caller = RecordOf<typeof users>;

const rest = asRest;

const rejection = rejectionOf;

/** JavaScript's order for the ASCII lower-case text and numbers compared here; ids break ties. */
function compareBy(keys: ['type' | 'monthPrice', 1 | -1][]) {
  return (a: AppTemplate, b: AppTemplate): number => {
    for (const [key, direction] of keys) {
      const x = a[key];
      const y = b[key];
      if (x < y) return -direction;
      if (x > y) return direction;
    }
    return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
  };
}

describe.skipIf(skipReason)('query paging, sorting, selecting and populating', () => {
  let app: TestApp;
  let editor: Caller;
  let all: AppTemplate[];
  let industry: IndustryRecord;
  let moduleA: ModuleRecord;
  let moduleB: ModuleRecord;
  let populated: AppTemplate;

  const templates = () => typedService(app.api, 'appTemplates');
  /** A query as REST sends it (numbers as text, anything at all): the answers are still the definition's records. */
  const find = (query: Record<string, unknown>): Promise<Page<AppTemplate>> =>
    app.api.service('appTemplates').find(rest(undefined, query));

  beforeAll(async () => {
    app = await createTestApp();
    const first = <T>(records: T[], what: string): T => {
      if (!records[0]) throw new Error(`The seed has no ${what}`);
      return records[0];
    };
    const editors = await typedService(app.api, 'users').find({
      query: { email: 'editor@tillpoint.test' },
      paginate: false,
    });
    editor = first(editors, 'editor');
    const industries = await typedService(app.api, 'industries').find(
      rest(undefined, { $limit: 1, $sort: { order: 1 } }),
    );
    industry = first(industries.data, 'industry');
    const catalogue = (await typedService(app.api, 'modules').find(rest(undefined, { $limit: 2, $sort: { order: 1 } })))
      .data;
    [moduleA, moduleB] = [first(catalogue, 'module'), first(catalogue.slice(1), 'second module')];
    populated = await templates().create(
      {
        key: 'qp-populated',
        name: { en: 'Qp Populated Plan' },
        type: 'flexi',
        monthPrice: 1234,
        industry: industry._id,
        modules: [
          { id: moduleA._id, monthPrice: 11, count: 2 },
          { id: moduleB._id, monthPrice: 22, count: 3 },
        ],
      },
      rest(editor),
    );
    all = (await templates().find(rest(undefined, { $limit: 100 }))).data;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a paginated find answers exactly total, limit, skip, data, sortBy, sortDesc and cursors', async () => {
    const page = await find({ $sort: { monthPrice: -1 } });
    expect(Object.keys(page).sort()).toEqual(['cursors', 'data', 'limit', 'skip', 'sortBy', 'sortDesc', 'total']);
    expect(Object.keys(page.cursors).sort()).toEqual(['next', 'previous']);
    expect(page.total).toBe(22);
    expect(page.limit).toBe(10);
    expect(page.skip).toBe(0);
    expect(page.sortBy).toEqual(['monthPrice', '_id']);
    expect(page.sortDesc).toEqual([true, false]);
    expect(page.cursors.previous).toBeNull();
    expect(typeof page.cursors.next).toBe('string');
  });

  it('$limit defaults to 10, accepts up to 100 and 0, and refuses more or nonsense', async () => {
    expect(all).toHaveLength(22);
    const defaultPage = await find({});
    expect(defaultPage.data).toHaveLength(10);
    expect(defaultPage.limit).toBe(10);
    const three = await find({ $limit: 3 });
    expect(three.data.map((t) => t._id)).toEqual(all.slice(0, 3).map((t) => t._id));
    expect((await find({ $limit: '100' })).data).toHaveLength(22);

    const zero = await find({ $limit: 0 });
    expect(zero.data).toEqual([]);
    expect(zero.total).toBe(22);
    expect(zero.limit).toBe(0);

    for (const $limit of [101, '101', 1000, -1, 'ten', 2.5, { $gt: 1 }]) {
      const error = await rejection(find({ $limit }));
      expect(error.code, String($limit)).toBe(400);
      expect(error.name).toBe('BadRequest');
    }
  });

  it('$skip offsets the page and keeps the total', async () => {
    const page = await find({ $skip: 5, $limit: 4 });
    expect(page.data.map((t) => t._id)).toEqual(all.slice(5, 9).map((t) => t._id));
    expect(page.skip).toBe(5);
    expect(page.total).toBe(22);
    expect(page.cursors.previous).not.toBeNull();

    const last = await find({ $skip: '20', $limit: 10 });
    expect(last.data.map((t) => t._id)).toEqual(all.slice(20).map((t) => t._id));
    expect(last.cursors.next).toBeNull();
    expect((await find({ $skip: 40 })).data).toEqual([]);
    expect((await rejection(find({ $skip: -1 }))).code).toBe(400);
  });

  it('$sort orders by one field, ascending and descending, with ids breaking ties', async () => {
    const ascending = (await find({ $sort: { monthPrice: 1 }, $limit: 100 })).data;
    expect(ascending.map((t) => t._id)).toEqual([...all].sort(compareBy([['monthPrice', 1]])).map((t) => t._id));
    const descending = (await find({ $sort: { monthPrice: -1 }, $limit: 100 })).data;
    expect(descending.map((t) => t._id)).toEqual([...all].sort(compareBy([['monthPrice', -1]])).map((t) => t._id));
    // The order really changed: the most expensive plan first.
    expect(descending[0]?.monthPrice).toBe(Math.max(...all.map((t) => t.monthPrice)));
    expect(descending.map((t) => t.monthPrice)).not.toEqual(ascending.map((t) => t.monthPrice));
    // Ids alone, descending.
    const byId = (await find({ $sort: { _id: -1 }, $limit: 100 })).data.map((t) => t._id);
    expect(byId).toEqual(
      all
        .map((t) => t._id)
        .sort()
        .reverse(),
    );
  });

  it('$sort orders by several fields, in the order given', async () => {
    const page = await find({ $sort: { type: 1, monthPrice: -1 }, $limit: 100 });
    expect(page.data.map((t) => t._id)).toEqual(
      [...all]
        .sort(
          compareBy([
            ['type', 1],
            ['monthPrice', -1],
          ]),
        )
        .map((t) => t._id),
    );
    expect(page.sortBy).toEqual(['type', 'monthPrice', '_id']);
    expect(page.sortDesc).toEqual([false, true, false]);
    const swapped = await find({ $sort: { monthPrice: 1, type: -1 }, $limit: 100 });
    expect(swapped.data.map((t) => t._id)).toEqual(
      [...all]
        .sort(
          compareBy([
            ['monthPrice', 1],
            ['type', -1],
          ]),
        )
        .map((t) => t._id),
    );
  });

  it('$sort takes REST string directions', async () => {
    const page = await find({ $sort: { type: '-1', monthPrice: '1' }, $limit: '100' });
    expect(page.data.map((t) => t._id)).toEqual(
      [...all]
        .sort(
          compareBy([
            ['type', -1],
            ['monthPrice', 1],
          ]),
        )
        .map((t) => t._id),
    );
    expect(page.sortDesc).toEqual([true, false, false]);
  });

  it('$sort refuses unsortable and unknown fields and other directions', async () => {
    for (const $sort of [
      { description: 1 },
      { modules: 1 },
      { key: 1 },
      { industry: -1 },
      { nope: 1 },
      { monthPrice: 2 },
      { monthPrice: 'asc' },
      'monthPrice',
    ]) {
      const error = await rejection(find({ $sort }));
      expect(error.code, JSON.stringify($sort)).toBe(400);
    }
  });

  it('$select answers only the fields asked for, plus _id', async () => {
    const page = await find({ $select: ['name', 'monthPrice'], $limit: 100 });
    expect(page.data).toHaveLength(22);
    for (const record of page.data) expect(Object.keys(record).sort()).toEqual(['_id', 'monthPrice', 'name']);
    expect(page.data.map((t) => t.monthPrice)).toEqual(all.map((t) => t.monthPrice));
    // The REST form of a list.
    const indexed = await find({ $select: { '0': 'type' }, $limit: 1 });
    expect(Object.keys(indexed.data[0] as object).sort()).toEqual(['_id', 'type']);
    expect((await rejection(find({ $select: ['name', 'colour'] }))).code).toBe(400);
  });

  it('$populate replaces the industry id and the modules ids with their records, keeping price and count', async () => {
    const page = await templates().find(
      rest(undefined, { key: 'qp-populated', $populate: ['industry', 'modules.id'] }),
    );
    expect(page.total).toBe(1);
    const record = page.data[0];
    expect(record?.industry).toEqual(
      expect.objectContaining({ _id: industry._id, key: industry.key, name: industry.name }),
    );
    expect(record?.modules).toHaveLength(2);
    const [first, second] = record?.modules ?? [];
    expect(first?.monthPrice).toBe(11);
    expect(first?.count).toBe(2);
    expect(second).toMatchObject({ monthPrice: 22, count: 3 });
    for (const [item, source] of [
      [first, moduleA],
      [second, moduleB],
    ] as const) {
      expect(item?.id).toMatchObject({
        _id: source._id,
        name: source.name,
        shortDesc: source.shortDesc,
        counter: source.counter,
      });
    }
    // Without $populate the ids stay ids.
    const plain = (await templates().find(rest(undefined, { key: 'qp-populated' }))).data[0];
    expect(plain?.industry).toBe(industry._id);
    expect(plain?.modules.map((m) => m.id)).toEqual([moduleA._id, moduleB._id]);
  });

  it('$populate takes one path as a string, the way the home page asks for its plans', async () => {
    const page = await templates().find(rest(undefined, { showOnHome: true, $populate: 'modules.id', $limit: 100 }));
    expect(page.total).toBe(7);
    // REST sends the flag as text.
    expect((await find({ showOnHome: 'true', $populate: 'modules.id', $limit: 100 })).total).toBe(7);
    for (const record of page.data) {
      expect(typeof record.industry).toBe('string');
      for (const item of record.modules) {
        expect(typeof item.id).toBe('object');
        expect(item.id).toMatchObject({ name: { en: expect.any(String) } });
        expect(typeof item.monthPrice).toBe('number');
      }
    }
    const byIndustry = await templates().find(rest(undefined, { key: 'qp-populated', $populate: 'industry' }));
    expect(byIndustry.data[0]?.industry).toMatchObject({ _id: industry._id });
    expect(typeof byIndustry.data[0]?.modules[0]?.id).toBe('string');
  });

  it('$populate refuses unknown paths, and services without references', async () => {
    for (const $populate of ['modules', 'name', 'toString', 'constructor', ['industry', 'users'], { $gt: '' }]) {
      const error = await rejection(find({ $populate }));
      expect(error.code, JSON.stringify($populate)).toBe(400);
    }
    const error = await rejection(
      untypedService(app.api, 'industries').find(rest(undefined, { $populate: 'industry' })),
    );
    expect(error.code).toBe(400);
  });

  it('get answers one record, with $select and $populate', async () => {
    const whole = await templates().get(populated._id, rest());
    expect(whole).toMatchObject({ _id: populated._id, key: 'qp-populated', monthPrice: 1234, industry: industry._id });

    const some = await templates().get(
      populated._id,
      rest(undefined, { $select: ['name', 'industry'], $populate: 'industry' }),
    );
    expect(Object.keys(some).sort()).toEqual(['_id', 'industry', 'name']);
    expect(some.industry).toMatchObject({ _id: industry._id, name: industry.name });

    const withModules = await templates().get(populated._id, rest(undefined, { $populate: ['modules.id'] }));
    expect(withModules.modules[1]?.id).toMatchObject({ name: moduleB.name });
    expect(withModules.industry).toBe(industry._id);

    const untyped = untypedService(app.api, 'appTemplates');
    expect((await rejection(untyped.get(populated._id, rest(undefined, { $select: ['nope'] })))).code).toBe(400);
    expect((await rejection(untyped.get(populated._id, rest(undefined, { $populate: 'nope' })))).code).toBe(400);
  });

  it('get of a missing id is a NotFound', async () => {
    for (const id of ['000000000000000000000000', 'missing', "x' or '1'='1"]) {
      const error = await rejection(templates().get(id, rest()));
      expect(error.code).toBe(404);
      expect(error.name).toBe('NotFound');
    }
  });
});
