import type { Knex } from 'knex';

/*
 * Removing the hourly rows of ads that no longer matter (decision 057, addendum). A report's row
 * (`ad_reports`) only keeps a device's view or click from counting twice in its hour, and a pick's
 * row (`ad_picks`) only caps how often a device sees an ad in its hour: past the hour, neither is
 * read again, except the reports' counts by day, which staff read (`adDays`). So the reports of
 * earlier hours are added to `ad_days` and removed in one statement, and earlier picks removed,
 * in batches: each a short statement of its own, so neither table is locked for long.
 */

/** The queue of the periodic pruning. */
export const AD_PRUNE_JOB = 'ad-rows.prune';
/** How often the pruning is asked for. */
export const AD_PRUNE_SECONDS = 15 * 60;
/** Rows removed by one statement at most. */
export const AD_PRUNE_BATCH = 5_000;
/**
 * Hours kept before the current one: reports and picks count in the current hour, and an instance
 * whose clock lags a little still writes in the previous one.
 */
export const AD_KEEP_HOURS = 1;
/** The day an ad's views and clicks are counted in (as `adDays` answers them). */
export const REPORTING_ZONE = 'Asia/Hong_Kong';

const HOUR_MS = 3_600_000;

/** The first hour kept at `now`: the current hour and `AD_KEEP_HOURS` before it. */
export function pruneBefore(now: Date): Date {
  return new Date((Math.floor(now.getTime() / HOUR_MS) - AD_KEEP_HOURS) * HOUR_MS);
}

/** Removes one batch of reports before `before`, their counts added to their ads' days; answers how many. */
async function pruneReportBatch(knex: Knex, before: Date, batch: number): Promise<number> {
  const { rows } = await knex.raw<{ rows: { removed: number }[] }>(
    `with gone as (
       delete from ad_reports
       where (ad_id, device_id, hour, kind) in (
         select ad_id, device_id, hour, kind from ad_reports where hour < ? order by hour limit ?
       )
       returning ad_id, hour, kind
     ),
     rolled as (
       insert into ad_days (ad_id, day, views, clicks)
       select ad_id, (hour at time zone ?)::date,
              count(*) filter (where kind = 'view'), count(*) filter (where kind = 'click')
       from gone group by 1, 2
       on conflict (ad_id, day) do update
         set views = ad_days.views + excluded.views, clicks = ad_days.clicks + excluded.clicks
     )
     select count(*)::int as removed from gone`,
    [before, batch, REPORTING_ZONE],
  );
  return Number(rows[0]?.removed ?? 0);
}

async function prunePickBatch(knex: Knex, before: Date, batch: number): Promise<number> {
  const { rowCount } = await knex.raw<{ rowCount: number | null }>(
    `delete from ad_picks
     where (device_id, hour, ad_id) in (
       select device_id, hour, ad_id from ad_picks where hour < ? order by hour limit ?
     )`,
    [before, batch],
  );
  return rowCount ?? 0;
}

/** Removes every report and pick of an hour before the ones kept at `now`, batch by batch; answers how many. */
export async function pruneAdRows(
  knex: Knex,
  now: Date,
  batch = AD_PRUNE_BATCH,
): Promise<{ reports: number; picks: number; batches: number }> {
  const before = pruneBefore(now);
  const removed = { reports: 0, picks: 0, batches: 0 };
  for (;;) {
    const count = await pruneReportBatch(knex, before, batch);
    removed.reports += count;
    removed.batches += 1;
    if (count < batch) break;
  }
  for (;;) {
    const count = await prunePickBatch(knex, before, batch);
    removed.picks += count;
    removed.batches += 1;
    if (count < batch) break;
  }
  return removed;
}
