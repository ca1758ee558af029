import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SCREENS } from '../../domain/admin/screens.ts';
import type { appTemplates } from '../../domain/entities/app-templates.ts';
import type { RecordOf } from '../../domain/entities/types.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  ADMIN,
  asRest,
  type Page,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  startTestServer,
  typedService,
  untypedService,
} from './harness.ts';

/*
 * `$countUpTo` (decision 045): the total counted to a cap and no further. Exact at or below the
 * cap, `totalCapped` above it with the cap as the total, the pages past the cap still reached and
 * the last one exact; the same rows and the same counts as an exact count for every operator of
 * the query language; the same on REST and socket.io; absent from answers that did not ask.
 */

type AppTemplate = RecordOf<typeof appTemplates>;
type Query = Record<string, unknown>;

const PLANS = 12;
const TYPES = ['lite', 'flexi', 'enterprise'] as const;

describe.skipIf(skipReason)('a total counted up to a cap', () => {
  let server: RunningServer;
  let plans: AppTemplate[];
  let keys: string[];

  const find = (query: Query): Promise<Page<AppTemplate>> =>
    server.api.service('appTemplates').find(asRest(undefined, query));
  /** Only this file's plans, whatever the seed holds. */
  const ours = (query: Query): Query => ({ key: { $in: keys }, ...query });

  beforeAll(async () => {
    server = await startTestServer();
    const templates = typedService(server.api, 'appTemplates');
    const industry = (await typedService(server.api, 'industries').find(asRest(undefined, { $limit: 1 }))).data[0];
    if (!industry) throw new Error('the seed has no industry');
    plans = [];
    for (let n = 1; n <= PLANS; n += 1) {
      plans.push(
        await templates.create({
          key: `count-cap-${n}`,
          name: { en: n % 2 === 0 ? `Harbour Counted ${n}` : `Lotus Counted ${n}`, 'zh-hk': `計數方案 ${n}` },
          type: TYPES[n % 3] as (typeof TYPES)[number],
          monthPrice: n * 100,
          showOnHome: n % 4 === 0,
          industry: industry._id,
        }),
      );
    }
    keys = plans.map((plan) => plan.key as string);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the exact total below and at the cap, and no flag to a query that did not ask', async () => {
    const exact = await find(ours({ $limit: 5 }));
    expect(exact.total).toBe(PLANS);
    expect(exact).not.toHaveProperty('totalCapped');

    for (const cap of [PLANS, PLANS + 1, 1000]) {
      const page = await find(ours({ $limit: 5, $countUpTo: cap }));
      expect(page, `cap ${cap}`).toMatchObject({ total: PLANS, totalCapped: false, limit: 5, skip: 0 });
      expect(page.data.map((plan) => plan._id)).toEqual(exact.data.map((plan) => plan._id));
      expect(page.cursors.next).not.toBeNull();
    }
    // The last page of an exact count has no next page.
    const last = await find(ours({ $limit: 5, $skip: 10, $countUpTo: 20 }));
    expect(last).toMatchObject({ total: PLANS, totalCapped: false });
    expect(last.data).toHaveLength(2);
    expect(last.cursors.next).toBeNull();
  });

  it('answers the cap and totalCapped above it, and still reaches every page past it', async () => {
    const byPrice = { $sort: { monthPrice: 1 } };
    const first = await find(ours({ ...byPrice, $limit: 3, $countUpTo: 4 }));
    expect(first).toMatchObject({ total: 4, totalCapped: true, limit: 3, skip: 0 });
    expect(first.data.map((plan) => plan.monthPrice)).toEqual([100, 200, 300]);
    expect(first.cursors.next).not.toBeNull();

    // Past the cap, as many as are known to match: this page's end, and more after it.
    const third = await find(ours({ ...byPrice, $limit: 3, $skip: 6, $countUpTo: 4 }));
    expect(third).toMatchObject({ total: 9, totalCapped: true, skip: 6 });
    expect(third.data.map((plan) => plan.monthPrice)).toEqual([700, 800, 900]);
    expect(third.cursors.next).not.toBeNull();

    // The last page knows the exact total.
    const last = await find(ours({ ...byPrice, $limit: 3, $skip: 9, $countUpTo: 4 }));
    expect(last).toMatchObject({ total: PLANS, totalCapped: false });
    expect(last.data.map((plan) => plan.monthPrice)).toEqual([1000, 1100, 1200]);
    expect(last.cursors.next).toBeNull();

    // A page that ends exactly at the last row is the last page too.
    const exactEnd = await find(ours({ ...byPrice, $limit: 4, $skip: 8, $countUpTo: 2 }));
    expect(exactEnd).toMatchObject({ total: PLANS, totalCapped: false });
    expect(exactEnd.cursors.next).toBeNull();

    // Past the end, or no rows asked for: the cap is all that is known.
    expect(await find(ours({ $limit: 3, $skip: 30, $countUpTo: 4 }))).toMatchObject({
      total: 4,
      totalCapped: true,
      data: [],
    });
    expect(await find(ours({ $limit: 0, $countUpTo: 4 }))).toMatchObject({ total: 4, totalCapped: true, data: [] });
  });

  it('counts what every operator of the query language matches, exactly below the cap and capped above it', async () => {
    const matches = (test: (plan: AppTemplate) => boolean) => plans.filter(test).length;
    const cases: [string, Query, number][] = [
      [
        'free text ($or of $regex)',
        {
          $or: [{ name: { $regex: 'harbour', $options: 'i' } }, { description: { $regex: 'harbour', $options: 'i' } }],
        },
        matches((plan) => plan.monthPrice % 200 === 0),
      ],
      ['$in', { type: { $in: ['lite', 'flexi'] } }, matches((plan) => plan.type !== 'enterprise')],
      ['$nin', { type: { $nin: ['lite'] } }, matches((plan) => plan.type !== 'lite')],
      ['$ne', { type: { $ne: 'flexi' } }, matches((plan) => plan.type !== 'flexi')],
      [
        '$gt and $lte',
        { monthPrice: { $gt: 300, $lte: 1000 } },
        matches((plan) => plan.monthPrice > 300 && plan.monthPrice <= 1000),
      ],
      ['$gte and $lt', { monthPrice: { $gte: 500, $lt: 600 } }, 1],
      ['a yes/no value', { showOnHome: true }, matches((plan) => plan.showOnHome === true)],
      [
        '$and of $or',
        { $and: [{ $or: [{ type: 'lite' }, { type: 'enterprise' }] }, { monthPrice: { $lt: 900 } }] },
        matches((plan) => plan.type !== 'flexi' && plan.monthPrice < 900),
      ],
      [
        '$regex with $or and a range',
        { $or: [{ name: { $regex: 'lotus', $options: 'i' } }], monthPrice: { $gte: 400 } },
        matches((plan) => plan.monthPrice % 200 === 100 && plan.monthPrice >= 400),
      ],
      ['nothing matches', { monthPrice: { $gt: 1_000_000 } }, 0],
    ];
    for (const [what, condition, expected] of cases) {
      const exact = await find(ours({ ...condition, $limit: 100 }));
      expect(exact.total, what).toBe(expected);
      for (const cap of [1, 2, expected - 1, expected, expected + 1].filter((n) => n >= 1)) {
        const page = await find(ours({ ...condition, $limit: 100, $countUpTo: cap }));
        // A page of 100 holds every match, so it is always the last page and its total exact.
        expect(page, `${what}, cap ${cap}`).toMatchObject({ total: expected, totalCapped: false });
        expect(page.data.map((plan) => plan._id)).toEqual(exact.data.map((plan) => plan._id));
        const counted = await find(ours({ ...condition, $limit: 0, $countUpTo: cap }));
        expect(counted, `${what}, cap ${cap}, no rows`).toMatchObject({
          total: Math.min(expected, cap),
          totalCapped: expected > cap,
        });
      }
    }
  });

  it('counts through the access rules that narrow a query (published articles for a visitor)', async () => {
    const blogs = server.api.service('blogs');
    const everyone = await blogs.find(asRest(undefined, { $limit: 0 }));
    expect(everyone.total).toBeGreaterThan(1);
    const capped = await blogs.find(asRest(undefined, { $limit: 1, $countUpTo: 1 }));
    expect(capped).toMatchObject({ total: 1, totalCapped: true });
    expect(capped.data).toHaveLength(1);
    expect(await blogs.find(asRest(undefined, { $limit: 0, $countUpTo: everyone.total }))).toMatchObject({
      total: everyone.total,
      totalCapped: false,
    });
  });

  it('is taken by every table of the back office, as an admin reads it', async () => {
    const [admin] = await typedService(server.api, 'users').find({ query: { email: ADMIN.email }, paginate: false });
    if (!admin) throw new Error('the seed has no admin');
    for (const source of Object.keys(ADMIN_SCREENS) as (keyof typeof ADMIN_SCREENS)[]) {
      const service = untypedService(server.api, source);
      const exact = await service.find(asRest(admin, { $limit: 0 }));
      const capped = await service.find(asRest(admin, { $limit: 1, $countUpTo: 1 }));
      expect(capped, source).toMatchObject({ total: exact.total > 1 ? 1 : exact.total, totalCapped: exact.total > 1 });
    }
  });

  it('counts nothing in cursor mode, and refuses a cap that is not a whole number from 1', async () => {
    const keyset = await find(ours({ $limit: 3, $cursor: '', $countUpTo: 2 }));
    expect(keyset.total).toBe(-1);
    expect(keyset).not.toHaveProperty('totalCapped');
    for (const $countUpTo of [0, -1, 'ten', 2.5, '', { $gt: 1 }, 2_000_000_000]) {
      const error = await rejectionOf(find(ours({ $countUpTo })));
      expect(error.code, JSON.stringify($countUpTo)).toBe(400);
      expect(error.message).toContain('$countUpTo');
    }
  });

  it('in a caller’s transaction, counts exactly and answers as capped the same', async () => {
    const answer = await server.database.knex.transaction((transaction) =>
      typedService(server.api, 'appTemplates').find({
        query: { key: { $in: keys }, $limit: 2, $countUpTo: 5 },
        transaction,
      } as never),
    );
    expect(answer).toMatchObject({ total: 5, totalCapped: true });
  });

  it('travels over REST as text and over socket.io as a number', async () => {
    const restPlans = restClient(server.url).service('appTemplates');
    const overRest = (await restPlans.find({
      query: { key: { $in: keys }, $limit: 2, $countUpTo: 3 },
    })) as Page<AppTemplate>;
    expect(overRest).toMatchObject({ total: 3, totalCapped: true, limit: 2 });
    const rawAnswer = await fetch(
      `${server.url}/api/appTemplates?key[$in][]=${keys[0]}&key[$in][]=${keys[1]}&$limit=1&$countUpTo=5`,
    );
    expect(await rawAnswer.json()).toMatchObject({ total: 2, totalCapped: false });
    const badRest = await fetch(`${server.url}/api/appTemplates?$countUpTo=none`);
    expect(badRest.status).toBe(400);
    expect(await badRest.json()).toMatchObject({
      name: 'BadRequest',
      message: '$countUpTo must be a whole number from 1 to 1000000000.',
    });
    const inChinese = await fetch(`${server.url}/api/appTemplates?$countUpTo=0`, { headers: { 'x-locale': 'zh-hk' } });
    expect(inChinese.status).toBe(400);
    expect(((await inChinese.json()) as { message: string }).message).toBe(
      '$countUpTo 必須是 1 至 1000000000 之間的整數。',
    );
    // The largest cap is taken as text too.
    expect((await fetch(`${server.url}/api/appTemplates?$limit=0&$countUpTo=1000000000`)).status).toBe(200);

    const socket = socketClient(server.url);
    try {
      const overSocket = (await socket.client
        .service('appTemplates')
        .find({ query: { key: { $in: keys }, $limit: 2, $countUpTo: 3 } })) as Page<AppTemplate>;
      expect(overSocket).toMatchObject({ total: 3, totalCapped: true });
      const error = await rejectionOf(socket.client.service('appTemplates').find({ query: { $countUpTo: 0 } }));
      expect(error.code).toBe(400);
    } finally {
      socket.close();
    }
  });
});
