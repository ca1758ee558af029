import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { MAX_CONDITIONS, MAX_LISTED_VALUES } from '../../server/services/entity/query.ts';
import {
  asRest,
  createTestApp,
  type Page,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  type SocketClient,
  startTestServer,
  type TestApp,
  untypedService,
} from './harness.ts';

/** Filters: `$or` searches, `$and`, comparisons, REST coercion, and what is refused before any SQL. */

type I18n = { en: string; 'zh-hk'?: string; 'zh-cn'?: string };
type Industry = {
  _id: string;
  key: string | null;
  name: I18n;
  order: number;
  major: boolean;
  createdAt: Date;
};
type User = {
  _id: string;
  email: string;
  name: string | null;
  role: string;
};
type Caller = { _id: string; role: string };

/** Params of an outside (REST) call, by a signed-in user or anonymous. */
const rest = asRest;

const rejection = rejectionOf;

/** Runs a call and counts the SQL statements it sent. */
async function countingQueries<T>(knex: Knex, action: () => Promise<T>): Promise<{ result: T; queries: number }> {
  let queries = 0;
  const onQuery = () => {
    queries += 1;
  };
  knex.on('query', onQuery);
  try {
    return { result: await action(), queries };
  } finally {
    knex.off('query', onQuery);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skipReason)('query operators', () => {
  let app: TestApp;
  let admin: Caller;
  const made: Record<string, Industry> = {};
  const KEYS = ['qo-alpha', 'qo-beta', 'qo-gamma', 'qo-lit', 'qo-resto', 'qo-nokey'] as const;
  const mine = { key: { $in: KEYS.filter((k) => k !== 'qo-nokey') } };

  const industries = () => untypedService(app.api, 'industries');
  /** An anonymous outside call: access rules and output cleaning apply. */
  const findIndustries = async (query: Record<string, unknown>, user?: Caller) =>
    (await industries().find(rest(user, { $limit: 100, ...query }))) as Page<Industry>;
  const keysOf = (page: Page<Industry>) => page.data.map((r) => r.key).sort();

  beforeAll(async () => {
    app = await createTestApp();
    const users = (await app.api
      .service('users')
      .find({ query: { email: 'admin@tillpoint.test' }, paginate: false })) as Caller[];
    admin = users[0] as Caller;
    const records: [string, Record<string, unknown>][] = [
      [
        'qo-alpha',
        { name: { en: 'Qo Alpha Noodles', 'zh-hk': '阿爾法麵家', 'zh-cn': '阿尔法面家' }, order: 101, major: true },
      ],
      ['qo-beta', { name: { en: 'Qo Beta Bakery', 'zh-hk': '貝塔餅店' }, order: 102, major: false }],
      [
        'qo-gamma',
        { name: { en: 'Qo axb Gamma' }, description: { en: 'Nothing special here' }, order: 103, major: false },
      ],
      ['qo-lit', { name: { en: 'Qo literal .* 100% a_b' }, order: 104, major: true }],
      ['qo-resto', { name: { en: 'Resto Qo', 'zh-hk': '餐館 Qo' }, order: 105, major: false }],
    ];
    for (const [key, data] of records) {
      // Apart in time, so comparisons on createdAt have distinct milliseconds to work with.
      await sleep(3);
      made[key] = (await industries().create({ key, ...data }, rest(admin))) as Industry;
    }
    made['qo-nokey'] = (await industries().create(
      { name: { en: 'Qo Without Key' }, order: 106 },
      rest(admin),
    )) as Industry;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('$or of case-insensitive $regex over translated fields matches English and zh-hk text', async () => {
    const english = await findIndustries({
      ...mine,
      $or: [{ name: { $regex: 'ALPHA noodles', $options: 'i' } }, { description: { $regex: 'ALPHA', $options: 'i' } }],
    });
    expect(keysOf(english)).toEqual(['qo-alpha']);

    const chinese = await findIndustries({
      ...mine,
      $or: [{ name: { $regex: '餅店', $options: 'i' } }, { description: { $regex: '餅店', $options: 'i' } }],
    });
    expect(keysOf(chinese)).toEqual(['qo-beta']);

    // Simplified Chinese is searched too.
    const simplified = await findIndustries({ ...mine, $or: [{ name: { $regex: '面家', $options: 'i' } }] });
    expect(keysOf(simplified)).toEqual(['qo-alpha']);

    // Several branches: either one matching is enough.
    const either = await findIndustries({
      ...mine,
      $or: [{ name: { $regex: 'beta', $options: 'i' } }, { description: { $regex: 'nothing SPECIAL', $options: 'i' } }],
    });
    expect(keysOf(either)).toEqual(['qo-beta', 'qo-gamma']);
  });

  it('$regex without the i option is case-sensitive', async () => {
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: 'Alpha' } }))).toEqual(['qo-alpha']);
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: 'alpha' } }))).toEqual([]);
  });

  it('$or of $regex works case-insensitively over plain string fields (users email and name)', async () => {
    const page = (await app.api.service('users').find(
      rest(admin, {
        $or: [
          { email: { $regex: 'EDITOR@TILLPOINT', $options: 'i' } },
          { name: { $regex: 'mei CHAN', $options: 'i' } },
        ],
        $sort: { email: 1 },
      }),
    )) as Page<User>;
    expect(page.data.map((u) => u.email)).toEqual(['editor@tillpoint.test', 'owner@tillpoint.test']);
    expect(page.total).toBe(2);
    for (const user of page.data) expect(user).not.toHaveProperty('password');
  });

  it('regex metacharacters are matched literally, never as a pattern or a LIKE wildcard', async () => {
    // `.*` as a regex would match everything; as text only the record that contains it.
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: '.*', $options: 'i' } }))).toEqual(['qo-lit']);
    // `%` and `_` are LIKE wildcards in SQL: they must not act as such.
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: '%', $options: 'i' } }))).toEqual(['qo-lit']);
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: 'a_b', $options: 'i' } }))).toEqual(['qo-lit']);
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: 'x_b', $options: 'i' } }))).toEqual([]);
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: 'Qo.Alpha', $options: 'i' } }))).toEqual([]);
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: '(Alpha|Beta)', $options: 'i' } }))).toEqual([]);
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: '[ab]', $options: 'i' } }))).toEqual([]);
    // Escaped metacharacters (what clients send after escaping user input) mean themselves.
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: '\\.\\*', $options: 'i' } }))).toEqual(['qo-lit']);
    // A backslash is text too, and finds nothing here.
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: 'a\\\\b', $options: 'i' } }))).toEqual([]);
  });

  it('^ and $ anchor the match at the start and end of the text', async () => {
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: '^Res', $options: 'i' } }))).toEqual(['qo-resto']);
    // Without the anchor, "Res" inside another name would match; there is none, but "qo" is everywhere.
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: '^qo', $options: 'i' } }))).toEqual([
      'qo-alpha',
      'qo-beta',
      'qo-gamma',
      'qo-lit',
    ]);
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: 'qo$', $options: 'i' } }))).toEqual(['qo-resto']);
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: '^Qo Beta Bakery$' } }))).toEqual(['qo-beta']);
    expect(keysOf(await findIndustries({ ...mine, name: { $regex: '^Beta' } }))).toEqual([]);
  });

  it('$regex is refused on fields that are not searchable, and with other options', async () => {
    for (const query of [
      { key: { $regex: 'qo' } },
      { order: { $regex: '1' } },
      { name: { $regex: 'qo', $options: 'g' } },
      { name: { $regex: 'qo', $options: 'is' } },
      { name: { $regex: 42 } },
      { name: { $regex: 'x'.repeat(201) } },
      { name: { $options: 'i' } },
    ]) {
      const error = await rejection(findIndustries(query));
      expect(error.code, JSON.stringify(query)).toBe(400);
    }
  });

  it('$and requires every branch', async () => {
    const both = await findIndustries({ ...mine, $and: [{ name: { $regex: 'qo', $options: 'i' } }, { major: true }] });
    expect(keysOf(both)).toEqual(['qo-alpha', 'qo-lit']);
    const none = await findIndustries({
      ...mine,
      $and: [{ name: { $regex: 'alpha', $options: 'i' } }, { major: false }],
    });
    expect(none.data).toEqual([]);
    // $or nested in $and.
    const nested = await findIndustries({
      ...mine,
      $and: [{ $or: [{ order: 101 }, { order: 102 }, { order: 104 }] }, { $or: [{ major: true }, { order: 102 }] }],
    });
    expect(keysOf(nested)).toEqual(['qo-alpha', 'qo-beta', 'qo-lit']);
    // The REST form of a list: an object with index keys.
    const indexed = await findIndustries({ ...mine, $and: { '0': { major: false }, '1': { order: { $gte: 103 } } } });
    expect(keysOf(indexed)).toEqual(['qo-gamma', 'qo-resto']);
  });

  it('$in and $nin accept arrays, REST index objects, and comma lists', async () => {
    expect(keysOf(await findIndustries({ key: { $in: ['qo-alpha', 'qo-beta'] } }))).toEqual(['qo-alpha', 'qo-beta']);
    expect(keysOf(await findIndustries({ key: { $in: { '0': 'qo-alpha', '1': 'qo-gamma' } } }))).toEqual([
      'qo-alpha',
      'qo-gamma',
    ]);
    expect(keysOf(await findIndustries({ key: { $in: 'qo-beta,qo-lit' } }))).toEqual(['qo-beta', 'qo-lit']);
    expect(keysOf(await findIndustries({ order: { $in: ['101', '105'] } }))).toEqual(['qo-alpha', 'qo-resto']);
    expect((await findIndustries({ key: { $in: [] } })).data).toEqual([]);

    expect(keysOf(await findIndustries({ ...mine, key: { $in: KEYS, $nin: ['qo-alpha', 'qo-beta'] } }))).toEqual([
      'qo-gamma',
      'qo-lit',
      'qo-resto',
    ]);
    expect(keysOf(await findIndustries({ ...mine, order: { $nin: { '0': '101', '1': 102, '2': '103' } } }))).toEqual([
      'qo-lit',
      'qo-resto',
    ]);
  });

  it('$ne and $nin keep records whose field is empty, as Mongo-style clients expect', async () => {
    const all = await findIndustries({ order: { $gte: 101, $lte: 106 }, key: { $ne: 'qo-alpha' } });
    expect(all.data.map((r) => r._id).sort()).toEqual(
      ['qo-beta', 'qo-gamma', 'qo-lit', 'qo-resto', 'qo-nokey'].map((k) => (made[k] as Industry)._id).sort(),
    );
    const nin = await findIndustries({
      order: { $gte: 101, $lte: 106 },
      key: { $nin: ['qo-alpha', 'qo-beta', 'qo-gamma', 'qo-lit'] },
    });
    expect(nin.data.map((r) => r._id).sort()).toEqual(
      [(made['qo-resto'] as Industry)._id, (made['qo-nokey'] as Industry)._id].sort(),
    );
    const isNull = await findIndustries({ order: { $gte: 101 }, key: null });
    expect(isNull.data.map((r) => r._id)).toEqual([(made['qo-nokey'] as Industry)._id]);
    const notNull = await findIndustries({ order: { $gte: 101 }, key: { $ne: null } });
    expect(keysOf(notNull)).toEqual(['qo-alpha', 'qo-beta', 'qo-gamma', 'qo-lit', 'qo-resto']);
    const inWithNull = await findIndustries({ order: { $gte: 101 }, key: { $in: ['qo-beta', null] } });
    expect(inWithNull.data.map((r) => r._id).sort()).toEqual(
      [(made['qo-beta'] as Industry)._id, (made['qo-nokey'] as Industry)._id].sort(),
    );
    // Listing null in $nin leaves the empty ones out too.
    const ninWithNull = await findIndustries({ order: { $gte: 101 }, key: { $nin: ['qo-alpha', null] } });
    expect(keysOf(ninWithNull)).toEqual(['qo-beta', 'qo-gamma', 'qo-lit', 'qo-resto']);
  });

  it('$ne, $gt, $gte, $lt, $lte compare integers', async () => {
    expect(keysOf(await findIndustries({ ...mine, order: { $ne: 103 } }))).toEqual([
      'qo-alpha',
      'qo-beta',
      'qo-lit',
      'qo-resto',
    ]);
    expect(keysOf(await findIndustries({ ...mine, order: { $gt: 103 } }))).toEqual(['qo-lit', 'qo-resto']);
    expect(keysOf(await findIndustries({ ...mine, order: { $gte: 103 } }))).toEqual(['qo-gamma', 'qo-lit', 'qo-resto']);
    expect(keysOf(await findIndustries({ ...mine, order: { $lt: 103 } }))).toEqual(['qo-alpha', 'qo-beta']);
    expect(keysOf(await findIndustries({ ...mine, order: { $lte: 103 } }))).toEqual([
      'qo-alpha',
      'qo-beta',
      'qo-gamma',
    ]);
    expect(keysOf(await findIndustries({ ...mine, order: { $gt: 101, $lt: 105 } }))).toEqual([
      'qo-beta',
      'qo-gamma',
      'qo-lit',
    ]);
    expect(keysOf(await findIndustries({ ...mine, order: 104 }))).toEqual(['qo-lit']);
  });

  it('$ne, $gt, $gte, $lt, $lte and equality compare dates at the millisecond clients see', async () => {
    const beta = made['qo-beta'] as Industry;
    const lit = made['qo-lit'] as Industry;
    expect(beta.createdAt).toBeInstanceOf(Date);
    const at = (r: Industry) => r.createdAt.toISOString();
    // The stored time has microseconds; a record's own createdAt, as the client got it, still finds it.
    expect(keysOf(await findIndustries({ ...mine, createdAt: beta.createdAt }))).toEqual(['qo-beta']);
    expect(keysOf(await findIndustries({ ...mine, createdAt: at(beta) }))).toEqual(['qo-beta']);
    expect(keysOf(await findIndustries({ ...mine, createdAt: { $ne: at(beta) } }))).toEqual([
      'qo-alpha',
      'qo-gamma',
      'qo-lit',
      'qo-resto',
    ]);
    expect(keysOf(await findIndustries({ ...mine, createdAt: { $gt: at(beta) } }))).toEqual([
      'qo-gamma',
      'qo-lit',
      'qo-resto',
    ]);
    expect(keysOf(await findIndustries({ ...mine, createdAt: { $gte: at(beta) } }))).toEqual([
      'qo-beta',
      'qo-gamma',
      'qo-lit',
      'qo-resto',
    ]);
    expect(keysOf(await findIndustries({ ...mine, createdAt: { $lt: beta.createdAt } }))).toEqual(['qo-alpha']);
    expect(keysOf(await findIndustries({ ...mine, createdAt: { $lte: at(beta) } }))).toEqual(['qo-alpha', 'qo-beta']);
    expect(keysOf(await findIndustries({ ...mine, createdAt: { $gt: at(beta), $lte: at(lit) } }))).toEqual([
      'qo-gamma',
      'qo-lit',
    ]);
    expect(keysOf(await findIndustries({ ...mine, createdAt: { $in: [at(beta), at(lit)] } }))).toEqual([
      'qo-beta',
      'qo-lit',
    ]);
    expect(keysOf(await findIndustries({ ...mine, createdAt: { $nin: [at(beta), at(lit)] } }))).toEqual([
      'qo-alpha',
      'qo-gamma',
      'qo-resto',
    ]);
    // Epoch milliseconds are dates too.
    expect(
      keysOf(
        await findIndustries({
          ...mine,
          createdAt: { $gte: beta.createdAt.getTime(), $lte: beta.createdAt.getTime() },
        }),
      ),
    ).toEqual(['qo-beta']);
    expect((await findIndustries({ ...mine, createdAt: { $lt: '2000-01-01' } })).data).toEqual([]);
    // Old and far dates are still dates.
    expect((await findIndustries({ ...mine, createdAt: { $lt: '1800-01-01T00:00:00Z' } })).data).toEqual([]);
    expect(
      (await findIndustries({ ...mine, createdAt: { $gt: '0050-06-01T00:00:00Z', $lt: '9000-01-01' } })).total,
    ).toBe(5);
  });

  it('REST strings are coerced to the field type', async () => {
    expect(keysOf(await findIndustries({ ...mine, major: 'true' }))).toEqual(['qo-alpha', 'qo-lit']);
    expect(keysOf(await findIndustries({ ...mine, major: 'false' }))).toEqual(['qo-beta', 'qo-gamma', 'qo-resto']);
    expect(keysOf(await findIndustries({ ...mine, order: '103' }))).toEqual(['qo-gamma']);
    expect(keysOf(await findIndustries({ ...mine, order: { $gt: '103' } }))).toEqual(['qo-lit', 'qo-resto']);
    const page = await findIndustries({ ...mine, $limit: '2', $skip: '1', $sort: { order: '-1' } });
    expect(page.data.map((r) => r.key)).toEqual(['qo-lit', 'qo-gamma']);
  });

  it('values that are not of the field type are a BadRequest, never a database error', async () => {
    for (const query of [
      { major: 'yes' },
      { order: 'abc' },
      { order: '1.5' },
      { order: { $gt: 1.5 } },
      // Beyond a PostgreSQL integer: must not reach the database as an out-of-range error.
      { order: '99999999999' },
      { order: { $lt: 1e12 } },
      { createdAt: 'not a date' },
      { createdAt: { $gt: -8.64e15 } },
      { createdAt: { $gt: '+275760-09-13T00:00:00Z' } },
      // A NUL character cannot be sent to PostgreSQL in text.
      { key: 'qo\u0000alpha' },
      { name: { $regex: 'qo\u0000' } },
      { key: { $in: ['a', { $gt: '' }] } },
      { order: { $gt: null } },
    ]) {
      const error = await rejection(findIndustries(query));
      expect(error.code, JSON.stringify(query)).toBe(400);
      expect(error.name).toBe('BadRequest');
    }
  });

  it('unknown operators, unknown or hidden fields and object-valued equality are refused before any SQL', async () => {
    const knex = app.database.knex;
    // The counter sees the statements of an accepted query (else a zero below would prove nothing).
    expect((await countingQueries(knex, () => findIndustries({ key: 'qo-alpha' }))).queries).toBeGreaterThan(0);
    const cases: [string, () => Promise<unknown>][] = [
      ['$where', () => findIndustries({ $where: '1 = 1' })],
      ['$exists', () => findIndustries({ key: { $exists: true } })],
      ['$elemMatch', () => findIndustries({ items: { $elemMatch: { name: 'x' } } })],
      ['unknown control', () => findIndustries({ $search: 'x' })],
      ['unknown field', () => findIndustries({ colour: 'red' })],
      ['unknown field in $or', () => findIndustries({ $or: [{ colour: { $regex: 'red' } }] })],
      ['unknown field in $sort', () => findIndustries({ $sort: { colour: 1 } })],
      ['unknown field in $select', () => findIndustries({ $select: ['colour'] })],
      ['column name instead of field', () => findIndustries({ display_order: 1 })],
      ['SQL in a field name', () => findIndustries({ 'name"; drop table industries; --': 1 })],
      ['object equality', () => findIndustries({ name: { en: 'Qo Alpha Noodles' } })],
      ['object equality on a scalar field', () => findIndustries({ key: { toString: 'x' } })],
      ['array equality', () => findIndustries({ key: ['qo-alpha'] })],
      ['list field', () => findIndustries({ items: 'x' })],
      ['translated field equality', () => findIndustries({ name: 'Qo Alpha Noodles' })],
      ['$or not a list', () => findIndustries({ $or: 'x' })],
      ['$or branch not an object', () => findIndustries({ $or: ['x'] })],
      [
        'too deep',
        () => findIndustries({ $or: [{ $or: [{ $or: [{ $or: [{ $or: [{ $or: [{ order: 1 }] }] }] }] }] }] }),
      ],
      ['hidden password filter', () => untypedService(app.api, 'users').find(rest(admin, { password: 'x' }))],
      [
        'hidden password regex',
        () => untypedService(app.api, 'users').find(rest(admin, { $or: [{ password: { $regex: '^\\$argon' } }] })),
      ],
      [
        'hidden password select',
        () => untypedService(app.api, 'users').find(rest(admin, { $select: ['email', 'password'] })),
      ],
      ['hidden password sort', () => untypedService(app.api, 'users').find(rest(admin, { $sort: { password: 1 } }))],
      [
        'hidden password in get',
        () => untypedService(app.api, 'users').get(admin._id, rest(admin, { $select: ['password'] })),
      ],
    ];
    for (const [label, call] of cases) {
      const { result: error, queries } = await countingQueries(knex, () => rejection(call()));
      expect(error.code, label).toBe(400);
      expect(error.name, label).toBe('BadRequest');
      expect(queries, label).toBe(0);
    }
    // The table is still there and untouched.
    expect((await findIndustries({ ...mine })).total).toBe(5);
  });
});

describe.skipIf(skipReason)('the size of a query, over REST and socket.io', () => {
  let server: RunningServer;
  let socket: SocketClient;
  /** A find as each transport's official client sends it: REST as a query string, the socket as JSON. */
  const transports = {
    rest: (query: Record<string, unknown>) =>
      restClient(server.url)
        .service('industries')
        .find({ query: { $limit: 1, ...query } }) as Promise<Page<Industry>>,
    socket: (query: Record<string, unknown>) =>
      socket.client.service('industries').find({ query: { $limit: 1, ...query } }) as Promise<Page<Industry>>,
  };

  /**
   * Conditions spread over three levels, within what a REST query string carries (five brackets
   * deep): `$or` (1) of `branches` branches, each an `$and` (1) of `leaves` comparisons (1 each),
   * beside `top` comparisons at the top. `{ $gte: 0 }` keeps every industry.
   */
  const spread = (branches: number, leaves: number, top: Record<string, unknown> = {}) => ({
    ...top,
    $or: Array.from({ length: branches }, () => ({
      $and: Array.from({ length: leaves }, () => ({ order: { $gte: 0 } })),
    })),
  });
  // 1 + 11 × (1 + 17) = 199 conditions, and one or two more at the top.
  const atTheCap = spread(11, 17, { key: { $ne: 'qs-none' } });
  const overTheCap = spread(11, 17, { key: { $ne: 'qs-none', $nin: ['qs-none'] } });
  const values = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

  beforeAll(async () => {
    server = await startTestServer();
    socket = socketClient(server.url);
  });
  afterAll(async () => {
    socket?.close();
    await server?.close();
  });

  it('caps a query at 200 conditions and 1 000 listed values in all', () => {
    expect(MAX_CONDITIONS).toBe(200);
    expect(MAX_LISTED_VALUES).toBe(1000);
  });

  it.each(['rest', 'socket'] as const)(
    'over %s, takes a query of 200 conditions spread over its levels and refuses 201, before any SQL',
    async (transport) => {
      const find = transports[transport];
      expect((await find(atTheCap)).total).toBeGreaterThanOrEqual(7);
      const { result: error, queries } = await countingQueries(server.database.knex, () => rejection(find(overTheCap)));
      expect(error).toMatchObject({
        name: 'BadRequest',
        code: 400,
        message: 'This query is too large: it has too many conditions or listed values. Please narrow it down.',
        data: { maxConditions: 200, maxListedValues: 1000 },
      });
      expect(queries).toBe(0);
    },
  );

  it.each(['rest', 'socket'] as const)(
    'over %s, counts a condition alike at the top and in a branch of its own',
    async (transport) => {
      const find = transports[transport];
      // 1 + 11 × 18 = 199, plus one more anywhere: an equality at the top...
      expect((await rejection(find(spread(11, 17, { key: 'qs-none', major: true })))).code).toBe(400);
      // ...or a twelfth branch of a single comparison (1 + 11 × 18 + 2 = 201).
      const deeper = spread(11, 17);
      deeper.$or.push({ $and: [{ order: { $gte: 0 } }] });
      expect((await rejection(find(deeper))).code).toBe(400);
      deeper.$or.pop();
      expect((await find(deeper)).total).toBeGreaterThanOrEqual(7);
    },
  );

  it('refuses an $or of 50 branches, each an $and of 50 $or, over the socket before any SQL', async () => {
    // 10 000 comparisons in about 200 KB, within the socket's 1 MB message limit.
    const leaf = { order: { $gte: 0 } };
    const huge = {
      $or: Array.from({ length: 50 }, () => ({
        $and: Array.from({ length: 50 }, () => ({ $or: [leaf, leaf, leaf, leaf] })),
      })),
    };
    const { result: error, queries } = await countingQueries(server.database.knex, () =>
      rejection(transports.socket(huge)),
    );
    expect(error).toMatchObject({ name: 'BadRequest', code: 400, data: { maxConditions: 200 } });
    expect(queries).toBe(0);
  });

  it.each(['rest', 'socket'] as const)(
    'over %s, takes two full $in/$nin lists and refuses a value more, however they are split',
    async (transport) => {
      const find = transports[transport];
      // REST sends a comma list (one parameter), as a query string of a thousand `$in[]=` would be cut short.
      const list = (items: string[]) => (transport === 'rest' ? items.join(',') : items);
      const full = { key: { $nin: list(values(500, 'qs-a')) }, _id: { $nin: list(values(500, 'qs-b')) } };
      expect((await find(full)).total).toBeGreaterThanOrEqual(7);
      const oneMore = { ...full, $or: [{ key: { $nin: list(['qs-c']) } }] };
      const { result: error, queries } = await countingQueries(server.database.knex, () => rejection(find(oneMore)));
      expect(error).toMatchObject({ name: 'BadRequest', code: 400, data: { maxListedValues: 1000 } });
      expect(queries).toBe(0);
    },
  );
});
