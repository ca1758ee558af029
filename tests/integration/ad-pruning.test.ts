import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { FREQUENCY_CAP } from '../../server/services/ads/ads.ts';
import { AD_PRUNE_JOB, pruneAdRows, pruneBefore } from '../../server/services/ads/pruning.ts';
import { accessTokenOf, createAccount, restCall, skipReason, startTestServer } from './harness.ts';

/**
 * The pruning of ads' hourly rows (decision 057, addendum), on the real database with the
 * server's clock moved: reports and picks of hours past go, by the periodic job and in batches;
 * those of the current hour stay (a report already counted this hour still counts once, a device
 * capped this hour stays capped); and the views and clicks by day that staff read are the same
 * before and after.
 */

type Body = Record<string, unknown>;
type Day = { day: string; views: number; clicks: number };

let nextAddress = 1;
const address = () => `10.62.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
const HOUR = 3_600_000;

describe.skipIf(skipReason)('pruning ad reports and picks', () => {
  let server: RunningServer;
  let editor: string;
  let serial = 0;

  const rest = (method: string, path: string, body?: unknown, token?: string) =>
    restCall(server.url, method, path, { address: address(), body, token });
  const setClock = (at: Date | null) => server.api.set('clock' as never, (at ? () => at : undefined) as never);
  const count = async (table: string, ad: string) =>
    Number(((await server.database.knex(table).where({ ad_id: ad }).count({ n: '*' })) as { n: string }[])[0]?.n);
  const days = async (ad: string) => (await rest('GET', `adDays?ad=${ad}`, undefined, editor)).body as unknown as Day[];

  async function device(): Promise<{ deviceId: string; secret: string }> {
    const deviceId = `prune-${Date.now().toString(36)}-${serial++}`;
    const registered = await rest('POST', 'appDevices', { deviceId, platform: 'ios' });
    expect(registered.status).toBe(201);
    return { deviceId, secret: registered.body.secret as string };
  }

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    const account = await createAccount(server.database.knex, { role: 'editor', label: 'prune-editor' });
    editor = await accessTokenOf(server.url, account, address());
    // The seeded ads stay out of these picks.
    await server.database.knex('ads').update({ status: 'draft' });
    await server.database.knex('campaigns').update({ status: 'draft' });
  });
  afterAll(async () => {
    setClock(null);
    await server?.close();
  });

  it('removes past hours through the periodic job, keeping this hour and the counts by day', async () => {
    const created = await rest(
      'POST',
      'ads',
      { name: { en: 'Pruned' }, adType: 'article', status: 'published' },
      editor,
    );
    const ad = created.body._id as string;
    await new Promise((resolve) => setTimeout(resolve, 600));
    const [phone, other] = [await device(), await device()];
    const pickAndReport = async (who: { deviceId: string; secret: string }, kinds: string[]) => {
      const picked = await rest('POST', 'adPicks', { adType: 'article', ...who });
      const signed = (picked.body.ad as Body).id as string;
      for (const kind of kinds) await rest('POST', 'adReports', { ad: signed, kind, ...who });
      return signed;
    };
    // Five hours ago: two devices view, one clicks. Now: the first device views again.
    const now = new Date();
    setClock(new Date(now.getTime() - 5 * HOUR));
    await pickAndReport(phone, ['view', 'click']);
    await pickAndReport(other, ['view']);
    setClock(now);
    const signed = await pickAndReport(phone, ['view']);
    for (let i = 1; i < FREQUENCY_CAP; i += 1) await rest('POST', 'adPicks', { adType: 'article', ...phone });
    expect(await count('ad_reports', ad)).toBe(4);
    expect(await count('ad_picks', ad)).toBe(3);
    const before = await days(ad);
    expect(before.reduce((sum, d) => sum + d.views, 0)).toBe(3);

    // The job, as the queue runs it, at the server's clock (now).
    await server.api.jobs.send(AD_PRUNE_JOB, {});
    const deadline = Date.now() + 20_000;
    while ((await count('ad_reports', ad)) > 1 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await count('ad_reports', ad)).toBe(1);
    expect(await count('ad_picks', ad)).toBe(1);
    const kept = (await server.database.knex('ad_reports').where({ ad_id: ad }).first('hour')) as { hour: Date };
    expect(kept.hour.getTime()).toBeGreaterThanOrEqual(pruneBefore(now).getTime());
    // The days staff read are what they were; the pruned hours are in `ad_days`.
    expect(await days(ad)).toEqual(before);
    const rolled = (await server.database.knex('ad_days').where({ ad_id: ad }).select('views', 'clicks')) as Day[];
    expect(rolled.reduce((sum, d) => sum + d.views, 0)).toBe(2);
    expect(rolled.reduce((sum, d) => sum + d.clicks, 0)).toBe(1);
    // This hour's keys still work: the same view is not counted twice, the capped device stays capped.
    expect((await rest('POST', 'adReports', { ad: signed, kind: 'view', ...phone })).body.counted).toBe(false);
    expect((await rest('POST', 'adPicks', { adType: 'article', ...phone })).body.ad).toBeNull();

    // Three hours on, this hour is past too: it goes, and the days are still the same.
    setClock(new Date(now.getTime() + 3 * HOUR));
    expect(await pruneAdRows(server.database.knex, new Date(now.getTime() + 3 * HOUR))).toMatchObject({
      reports: 1,
      picks: 1,
    });
    expect(await days(ad)).toEqual(before);
    setClock(null);
  });

  it('works through many rows in batches, adding each batch to the days once', async () => {
    const created = await rest('POST', 'ads', { name: { en: 'Batched' }, adType: 'footer', status: 'draft' }, editor);
    const ad = created.body._id as string;
    const knex = server.database.knex;
    const phone = await device();
    const { id: deviceRow } = (await knex('app_devices').where({ device_id: phone.deviceId }).first('id')) as {
      id: string;
    };
    // 23 hours of a view and a click, ending 3 hours ago, written as the reports would be.
    const now = new Date();
    const hours = Array.from({ length: 23 }, (_, i) => new Date((Math.floor(now.getTime() / HOUR) - 3 - i) * HOUR));
    await knex('ad_reports').insert(
      hours.flatMap((hour) => ['view', 'click'].map((kind) => ({ ad_id: ad, device_id: deviceRow, hour, kind }))),
    );
    await knex('ad_picks').insert(hours.map((hour) => ({ ad_id: ad, device_id: deviceRow, hour, picks: 2 })));
    const before = await days(ad);
    const removed = await pruneAdRows(knex, now, 5);
    expect(removed.reports).toBeGreaterThanOrEqual(46);
    expect(removed.picks).toBeGreaterThanOrEqual(23);
    // ten batches of reports at least (46 rows, five a batch), and five of picks.
    expect(removed.batches).toBeGreaterThanOrEqual(10 + 5);
    expect(await count('ad_reports', ad)).toBe(0);
    expect(await count('ad_picks', ad)).toBe(0);
    expect(await days(ad)).toEqual(before);
    const totals = (await days(ad)).reduce(
      (sum, d) => ({ views: sum.views + d.views, clicks: sum.clicks + d.clicks }),
      {
        views: 0,
        clicks: 0,
      },
    );
    expect(totals).toEqual({ views: 23, clicks: 23 });
  });
});
