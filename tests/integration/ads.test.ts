import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { FREQUENCY_CAP } from '../../server/services/ads/ads.ts';
import { pickAd, seededRandom, shares, type Candidate } from '../../server/services/ads/picking.ts';
import {
  accessTokenOf,
  createAccount,
  redisSkipReason,
  restCall,
  skipReason,
  socketClient,
  startTestServer,
  startTestServers,
  TEST_REDIS_URL,
  uniqueEmail,
  type FeathersErrorJSON,
  type SocketClient,
} from './harness.ts';

/**
 * Ads, campaigns and products (decision 057): how an ad is picked (its share held to the exact
 * chances by a chi-square test), its window's edges, views and clicks counted once per device, ad
 * and hour however often and however concurrently they are sent, `meet` at a target and back when
 * the target is raised, the status rules on every path, a discounted price never above the price,
 * who may call what, the frequency cap and campaigns; and, with Redis, an ad that meets its target
 * on one instance no longer served by another within a second.
 */

type Body = Record<string, unknown>;

let nextAddress = 1;
const address = () => `10.57.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** χ² critical value for 4 degrees of freedom at p = 0.001. */
const CHI_SQUARE_4_DF_P001 = 18.467;

function chiSquare(candidates: Candidate[], picks: number, random: () => number): number {
  const exact = shares(candidates);
  const seen = new Map<string | null, number>();
  for (let i = 0; i < picks; i += 1) {
    const id = pickAd(candidates, random)?.id ?? null;
    seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  let statistic = 0;
  for (const [id, share] of [...exact.byId.entries(), [null, exact.none] as const]) {
    const expected = share * picks;
    statistic += ((seen.get(id) ?? 0) - expected) ** 2 / expected;
  }
  return statistic;
}

describe('picking an ad by weight and probability', () => {
  const candidates: Candidate[] = [
    { id: 'a', weight: 5, probability: 80 },
    { id: 'b', weight: 3, probability: 60 },
    { id: 'c', weight: 1, probability: 90 },
    { id: 'd', weight: 2, probability: 25 },
  ];

  it('gives each ad its exact share over 100 000 seeded picks (χ², p = 0.001)', () => {
    expect(chiSquare(candidates, 100_000, seededRandom(20261129))).toBeLessThan(CHI_SQUARE_4_DF_P001);
  });

  it('is told apart from the other reading of the two numbers (w·p normalised)', () => {
    // The same ads, picked as share_i = w_i·p_i / Σ w·p: the test above must fail for that picker.
    const total = candidates.reduce((sum, c) => sum + c.weight * c.probability, 0);
    const random = seededRandom(7);
    const normalised = () => {
      let point = random() * total;
      for (const c of candidates) {
        point -= c.weight * c.probability;
        if (point < 0) return c;
      }
      return candidates[0] as Candidate;
    };
    const exact = shares(candidates);
    const seen = new Map<string | null, number>();
    for (let i = 0; i < 100_000; i += 1) {
      const id = normalised().id;
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    let statistic = 0;
    for (const [id, share] of [...exact.byId.entries(), [null, exact.none] as const])
      statistic += ((seen.get(id) ?? 0) - share * 100_000) ** 2 / (share * 100_000);
    expect(statistic).toBeGreaterThan(CHI_SQUARE_4_DF_P001);
  });

  it('shows a lone ad with its probability and nothing otherwise', () => {
    const exact = shares([{ id: 'x', weight: 7, probability: 30 }]);
    expect(exact.byId.get('x')).toBeCloseTo(0.3);
    expect(exact.none).toBeCloseTo(0.7);
  });
});

describe.skipIf(skipReason)('ads, campaigns and products through the API', () => {
  let server: RunningServer;
  const tokens = {} as Record<'editor' | 'admin' | 'member' | 'appUser', string>;
  let serial = 0;

  const rest = (method: string, path: string, options: { token?: string; body?: unknown } = {}) =>
    restCall(server.url, method, path, { address: address(), ...options });

  async function device(): Promise<{ deviceId: string; secret: string }> {
    const deviceId = `ads-test-${Date.now().toString(36)}-${serial++}`;
    const registered = await rest('POST', 'appDevices', { body: { deviceId, platform: 'android' } });
    expect(registered.status).toBe(201);
    return { deviceId, secret: registered.body.secret as string };
  }

  async function newAd(fields: Body = {}): Promise<Body> {
    const created = await rest('POST', 'ads', {
      token: tokens.editor,
      body: {
        name: { en: `Ad ${serial++}`, 'zh-hk': '廣告', 'zh-cn': '广告' },
        adType: 'video',
        status: 'published',
        targetLink: 'https://example.test/offer',
        ...fields,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  }

  const pick = (body: Body) => rest('POST', 'adPicks', { body });
  const setClock = (at: Date | null) => server.api.set('clock' as never, (at ? () => at : undefined) as never);
  /** Picks read a copy at most half a second old; direct table changes are seen after that. */
  const settle = () => sleep(600);

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    for (const role of ['editor', 'admin', 'member'] as const) {
      const account = await createAccount(server.database.knex, { role, label: `ads-${role}` });
      tokens[role] = await accessTokenOf(server.url, account, address());
    }
    const email = uniqueEmail('ads-app-user');
    await rest('POST', 'appUsers', { body: { name: 'Lee Ka Yan', email, password: 'Kowloon2026' } });
    const signedIn = await rest('POST', 'appAuthentication', {
      body: { strategy: 'local', email, password: 'Kowloon2026' },
    });
    tokens.appUser = signedIn.body.accessToken as string;
    // The seeded ads and campaigns stay out of these picks.
    await server.database.knex('ads').update({ status: 'draft' });
    await server.database.knex('campaigns').update({ status: 'draft' });
    await settle();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lets each caller do what the definitions say', async () => {
    const ad = await newAd({ adType: 'article', status: 'draft' });
    for (const path of ['ads', 'campaigns']) {
      expect((await rest('GET', path)).status).toBe(401);
      expect((await rest('GET', path, { token: tokens.member })).status).toBe(403);
      expect((await rest('GET', path, { token: tokens.appUser })).status).toBe(403);
      expect((await rest('GET', path, { token: tokens.editor })).status).toBe(200);
    }
    expect((await rest('DELETE', `ads/${ad._id as string}`, { token: tokens.editor })).status).toBe(403);
    expect((await rest('DELETE', `ads/${ad._id as string}`, { token: tokens.admin })).status).toBe(200);
    expect((await rest('GET', 'adDays?ad=x')).status).toBe(401);
    expect((await rest('GET', 'adDays?ad=x', { token: tokens.appUser })).status).toBe(403);
    expect((await rest('GET', 'adDays?ad=x', { token: tokens.editor })).status).toBe(200);
    // Anyone asks for an ad; products: anyone reads the published ones, staff every one.
    expect((await pick({ adType: 'footer' })).status).toBe(201);
    const draft = await rest('POST', 'products', {
      token: tokens.editor,
      body: { name: { en: 'Draft printer' }, price: 10000, status: 'draft' },
    });
    expect(draft.status).toBe(201);
    const published = await rest('POST', 'products', {
      token: tokens.editor,
      body: { name: { en: 'Receipt printer' }, price: 128800, dprice: 98800, currency: 'HKD', status: 'published' },
    });
    for (const token of [undefined, tokens.member, tokens.appUser]) {
      const listed = await rest('GET', 'products?$limit=100', token ? { token } : {});
      expect(listed.status).toBe(200);
      const ids = (listed.body.data as Body[]).map((p) => p._id);
      expect(ids).toContain(published.body._id);
      expect(ids).not.toContain(draft.body._id);
      expect((await rest('GET', `products/${draft.body._id as string}`, token ? { token } : {})).status).toBe(404);
    }
    expect(
      (await rest('POST', 'products', { token: tokens.appUser, body: { name: { en: 'x' }, price: 1 } })).status,
    ).toBe(403);
  });

  it('refuses a discounted price above the price, in plain data and in $set', async () => {
    const over = await rest('POST', 'products', {
      token: tokens.editor,
      body: { name: { en: 'Kitchen display' }, price: 5000, dprice: 5001 },
    });
    expect(over.status).toBe(400);
    expect((over.body.errors as Body).dprice).toBe('The discounted price cannot be above the price.');
    const product = await rest('POST', 'products', {
      token: tokens.editor,
      body: { name: { en: 'Kitchen display' }, price: 5000, dprice: 4500 },
    });
    const id = product.body._id as string;
    for (const body of [{ dprice: 6000 }, { $set: { dprice: 6000 } }, { price: 4000 }, { $set: { price: 4000 } }]) {
      const refused = await rest('PATCH', `products/${id}`, { token: tokens.editor, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const socket: SocketClient = socketClient(server.url, { 'x-forwarded-for': address() });
    try {
      await socket.client.authenticate({ strategy: 'jwt', accessToken: tokens.editor });
      const error = await socket.client
        .service('products')
        .patch(id, { $set: { dprice: 9999 } })
        .then(
          () => null,
          (e: FeathersErrorJSON) => e,
        );
      expect(error?.code).toBe(400);
    } finally {
      socket.close();
    }
    const lowered = await rest('PATCH', `products/${id}`, { token: tokens.editor, body: { price: 4500 } });
    expect(lowered.status).toBe(200);
    const stored = await server.database.knex('products').where('id', id).first('price', 'dprice');
    expect(stored).toEqual({ price: 4500, dprice: 4500 });
  });

  it('picks through the service with the same shares (100 000 in-process picks, seeded, χ² at p = 0.001)', async () => {
    const made: Candidate[] = [];
    for (const [weight, probability] of [
      [6, 70],
      [3, 95],
      [2, 40],
      [1, 90],
    ] as const) {
      const ad = await newAd({ adType: 'article', weight, probability });
      made.push({ id: ad._id as string, weight, probability });
    }
    server.api.set('adRandom' as never, seededRandom(35) as never);
    try {
      const picks = server.api.service('adPicks');
      const seen = new Map<string | null, number>();
      for (let i = 0; i < 100_000; i += 1) {
        const id = (await picks.create({ adType: 'article' })).ad?.id.split('.')[0] ?? null;
        seen.set(id, (seen.get(id) ?? 0) + 1);
      }
      const exact = shares(made);
      let statistic = 0;
      for (const [id, share] of [...exact.byId.entries(), [null, exact.none] as const])
        statistic += ((seen.get(id) ?? 0) - share * 100_000) ** 2 / (share * 100_000);
      expect(statistic).toBeLessThan(CHI_SQUARE_4_DF_P001);
    } finally {
      server.api.set('adRandom' as never, undefined as never);
      for (const ad of made) await rest('PATCH', `ads/${ad.id}`, { token: tokens.editor, body: { status: 'draft' } });
    }
  });

  it('picks only inside the window: publish ≤ now < expiry', async () => {
    const publish = new Date('2031-03-01T00:00:00.000Z');
    const expiry = new Date('2031-03-08T00:00:00.000Z');
    const ad = await newAd({ adType: 'fullscreen', publish: publish.toISOString(), expiry: expiry.toISOString() });
    try {
      const at = async (time: number) => {
        setClock(new Date(time));
        const answer = await pick({ adType: 'fullscreen' });
        expect(answer.status).toBe(201);
        return (answer.body.ad as Body | null)?.id ?? null;
      };
      expect(await at(publish.getTime() - 1)).toBeNull();
      expect(String(await at(publish.getTime()))).toMatch(new RegExp(`^${ad._id as string}\\.`));
      expect(await at(expiry.getTime() - 1)).not.toBeNull();
      expect(await at(expiry.getTime())).toBeNull();
    } finally {
      setClock(null);
      await rest('PATCH', `ads/${ad._id as string}`, { token: tokens.editor, body: { status: 'draft' } });
    }
  });

  it('answers what the app shows, and a signed id it reports with', async () => {
    const ad = await newAd({ adType: 'list' });
    const answer = await pick({ adType: 'list' });
    const shown = answer.body.ad as Body;
    expect(shown).toMatchObject({ adType: 'list', targetLink: 'https://example.test/offer', media: null });
    expect(shown.id).toMatch(new RegExp(`^${ad._id as string}\\.0\\.[A-Za-z0-9_-]{43}$`));
    const phone = await device();
    const forged = `${ad._id as string}.0.${randomBytes(32).toString('base64url')}`;
    const refused = await rest('POST', 'adReports', { body: { ad: forged, kind: 'view', ...phone } });
    expect(refused.status).toBe(400);
    const wrongSecret = await rest('POST', 'adReports', {
      body: { ad: shown.id, kind: 'view', deviceId: phone.deviceId, secret: 'not-the-secret' },
    });
    expect(wrongSecret.status).toBe(403);
    await rest('PATCH', `ads/${ad._id as string}`, { token: tokens.editor, body: { status: 'draft' } });
  });

  it('counts a view once per device, ad and hour, however often and however concurrently it is sent', async () => {
    const ad = await newAd({ adType: 'article' });
    const signed = ((await pick({ adType: 'article' })).body.ad as Body).id as string;
    const phone = await device();
    const report = (kind: string) => rest('POST', 'adReports', { body: { ad: signed, kind, ...phone } });
    const answers = await Promise.all(Array.from({ length: 10 }, () => report('view')));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(answers.filter((a) => a.body.counted === true)).toHaveLength(1);
    await Promise.all(Array.from({ length: 10 }, () => report('click')));
    const read = await rest('GET', `ads/${ad._id as string}`, { token: tokens.editor });
    expect(read.body).toMatchObject({ views: 1, clicks: 1 });
    // Another device counts; the same device counts again the next hour.
    const other = await device();
    await rest('POST', 'adReports', { body: { ad: signed, kind: 'view', ...other } });
    setClock(new Date(Date.now() + 60 * 60 * 1000));
    try {
      expect((await report('view')).body.counted).toBe(true);
    } finally {
      setClock(null);
    }
    const after = await rest('GET', `ads/${ad._id as string}`, { token: tokens.editor });
    expect(after.body).toMatchObject({ views: 3, clicks: 1 });
    const days = await rest('GET', `adDays?ad=${ad._id as string}`, { token: tokens.editor });
    const total = (days.body as unknown as { views: number; clicks: number }[]).reduce(
      (sum, d) => ({ views: sum.views + d.views, clicks: sum.clicks + d.clicks }),
      { views: 0, clicks: 0 },
    );
    expect(total).toEqual({ views: 3, clicks: 1 });
    await rest('PATCH', `ads/${ad._id as string}`, { token: tokens.editor, body: { status: 'draft' } });
  });

  it('turns an ad to meet at its target, stops serving it, and serves it again when the target is raised', async () => {
    const ad = await newAd({ adType: 'footer', targetClicks: 2 });
    const id = ad._id as string;
    const signed = ((await pick({ adType: 'footer' })).body.ad as Body).id as string;
    for (const phone of [await device(), await device()])
      await rest('POST', 'adReports', { body: { ad: signed, kind: 'click', ...phone } });
    const met = await rest('GET', `ads/${id}`, { token: tokens.editor });
    expect(met.body).toMatchObject({ status: 'meet', clicks: 2 });
    expect((await pick({ adType: 'footer' })).body.ad).toBeNull();
    // Editing a met ad keeps it met; setting `meet` is the server's alone, in any syntax.
    const renamed = await rest('PATCH', `ads/${id}`, { token: tokens.editor, body: { remarks: 'Ran out' } });
    expect(renamed.body.status).toBe('meet');
    for (const body of [{ status: 'meet' }, { $set: { status: 'meet' } }]) {
      const refused = await rest('PATCH', `ads/${id}`, { token: tokens.editor, body });
      expect(refused.status).toBe(400);
      expect((refused.body.errors as Body).status).toMatch(/Target met/);
    }
    const raised = await rest('PATCH', `ads/${id}`, { token: tokens.editor, body: { $set: { targetClicks: 3 } } });
    expect(raised.body.status).toBe('published');
    expect(((await pick({ adType: 'footer' })).body.ad as Body).id).toMatch(new RegExp(`^${id}\\.`));
    // Back to draft from either; a draft stays a draft whatever its counts.
    const lowered = await rest('PATCH', `ads/${id}`, { token: tokens.editor, body: { targetClicks: 1 } });
    expect(lowered.body.status).toBe('meet');
    const drafted = await rest('PATCH', `ads/${id}`, { token: tokens.editor, body: { status: 'draft' } });
    expect(drafted.body.status).toBe('draft');
    const refusedCreate = await rest('POST', 'ads', {
      token: tokens.editor,
      body: { name: { en: 'Met already' }, adType: 'footer', status: 'meet' },
    });
    expect(refusedCreate.status).toBe(400);
    const socket = socketClient(server.url, { 'x-forwarded-for': address() });
    try {
      await socket.client.authenticate({ strategy: 'jwt', accessToken: tokens.editor });
      const error = await socket.client
        .service('ads')
        .patch(id, { status: 'meet' })
        .then(
          () => null,
          (e: FeathersErrorJSON) => e,
        );
      expect(error?.code).toBe(400);
    } finally {
      socket.close();
    }
  });

  it('refuses an expiry before the publish', async () => {
    const refused = await rest('POST', 'ads', {
      token: tokens.editor,
      body: {
        name: { en: 'Backwards' },
        adType: 'list',
        publish: '2031-01-02T00:00:00Z',
        expiry: '2031-01-01T00:00:00Z',
      },
    });
    expect(refused.status).toBe(400);
    expect((refused.body.errors as Body).expiry).toBe('The expiry must be after the publish date.');
  });

  it(`shows a device the same ad at most ${FREQUENCY_CAP} times an hour`, async () => {
    const ad = await newAd({ adType: 'fullscreen' });
    const phone = await device();
    const seen: (string | null)[] = [];
    for (let i = 0; i < FREQUENCY_CAP + 2; i += 1) {
      const answer = await pick({ adType: 'fullscreen', ...phone });
      seen.push(((answer.body.ad as Body | null)?.id as string | undefined) ?? null);
    }
    expect(seen.filter((id) => id !== null)).toHaveLength(FREQUENCY_CAP);
    expect(seen.slice(FREQUENCY_CAP)).toEqual([null, null]);
    // Another device is not capped by this one, and anonymous picks are not capped.
    expect((await pick({ adType: 'fullscreen', ...(await device()) })).body.ad).not.toBeNull();
    expect((await pick({ adType: 'fullscreen', deviceId: phone.deviceId, secret: 'wrong' })).status).toBe(403);
    await rest('PATCH', `ads/${ad._id as string}`, { token: tokens.editor, body: { status: 'draft' } });
  });

  it('serves a campaign’s ads while it is published and inside its window', async () => {
    const ad = await newAd({ adType: 'list' });
    const id = ad._id as string;
    const campaign = await rest('POST', 'campaigns', {
      token: tokens.editor,
      body: { name: { en: 'Race day' }, key: `race-${serial++}`, ads: [id], status: 'draft' },
    });
    expect(campaign.status).toBe(201);
    const key = campaign.body.key as string;
    // In a draft campaign only: not served, with or without the campaign named.
    expect((await pick({ adType: 'list' })).body.ad).toBeNull();
    expect((await pick({ adType: 'list', campaign: key })).body.ad).toBeNull();
    await rest('PATCH', `campaigns/${campaign.body._id as string}`, {
      token: tokens.editor,
      body: { status: 'published' },
    });
    expect(((await pick({ adType: 'list', campaign: key })).body.ad as Body).id).toMatch(new RegExp(`^${id}\\.`));
    expect((await pick({ adType: 'list' })).body.ad).not.toBeNull();
    // Its microsite lists its ads (anyone reads them).
    const listed = await rest('GET', `adPicks?campaign=${key}`);
    expect(listed.status).toBe(200);
    expect((listed.body as unknown as Body[]).map((a) => String(a.id).split('.')[0])).toEqual([id]);
    // Another published ad outside the campaign is never picked for it.
    const outside = await newAd({ adType: 'list', weight: 1000 });
    for (let i = 0; i < 10; i += 1)
      expect(((await pick({ adType: 'list', campaign: key })).body.ad as Body).id).toMatch(new RegExp(`^${id}\\.`));
    // Expired: its ads stop.
    await rest('PATCH', `campaigns/${campaign.body._id as string}`, {
      token: tokens.editor,
      body: { expiry: new Date(Date.now() - 1000).toISOString() },
    });
    expect((await pick({ adType: 'list', campaign: key })).body.ad).toBeNull();
    expect((await rest('GET', `adPicks?campaign=${key}`)).body).toEqual([]);
    expect(((await pick({ adType: 'list' })).body.ad as Body).id).toMatch(new RegExp(`^${outside._id as string}\\.`));
    await rest('PATCH', `ads/${outside._id as string}`, { token: tokens.editor, body: { status: 'draft' } });
  });
});

const redisReason = await redisSkipReason();

describe.skipIf(redisReason)('an ad that meets its target on one instance', () => {
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    [a, b] = (await startTestServers(2, {
      redisUrl: TEST_REDIS_URL,
      redisPrefix: `test-ads-${randomBytes(6).toString('hex')}`,
      trustProxy: 'loopback',
    })) as [RunningServer, RunningServer];
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('is no longer served by the other within a second', async () => {
    const knex = a.database.knex;
    await knex('ads').update({ status: 'draft' });
    await knex('campaigns').update({ status: 'draft' });
    const editor = await createAccount(knex, { role: 'editor', label: 'ads-instances' });
    const token = await accessTokenOf(a.url, editor, address());
    const created = await restCall(a.url, 'POST', 'ads', {
      token,
      address: address(),
      body: { name: { en: 'Two instances' }, adType: 'video', status: 'published', targetViews: 1 },
    });
    expect(created.status).toBe(201);
    await sleep(600);
    // B serves it (and holds it in its copy).
    const before = await restCall(b.url, 'POST', 'adPicks', { address: address(), body: { adType: 'video' } });
    const signed = (before.body.ad as Body).id as string;
    expect(signed).toMatch(new RegExp(`^${created.body._id as string}\\.`));
    const deviceId = `ads-instances-${Date.now().toString(36)}`;
    const registered = await restCall(a.url, 'POST', 'appDevices', {
      address: address(),
      body: { deviceId, platform: 'ios' },
    });
    const report = await restCall(a.url, 'POST', 'adReports', {
      address: address(),
      body: { ad: signed, kind: 'view', deviceId, secret: registered.body.secret },
    });
    expect(report.body.counted).toBe(true);
    const reportedAt = Date.now();
    let stoppedAfter = Number.POSITIVE_INFINITY;
    while (Date.now() - reportedAt < 1_500) {
      const answer = await restCall(b.url, 'POST', 'adPicks', { address: address(), body: { adType: 'video' } });
      if (answer.body.ad === null) {
        stoppedAfter = Date.now() - reportedAt;
        break;
      }
      await sleep(20);
    }
    expect(stoppedAfter).toBeLessThan(1_000);
  });
});
