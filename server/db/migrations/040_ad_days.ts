import type { Knex } from 'knex';

/**
 * Ads' views and clicks by day, kept when the hourly rows they were counted from are pruned
 * (decision 057, addendum). `ad_reports` keys a report once per ad, device, hour and kind and
 * `ad_picks` counts a device's picks of an ad in an hour for the frequency cap: both matter for
 * the current hour only, so a periodic job removes older rows, in batches, after adding the
 * reports' counts to `ad_days` (one row per ad and Hong Kong day) in the same statement. The
 * indexes on `hour` let each batch find the oldest rows without reading the tables.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ad_days', (t) => {
    t.string('ad_id', 64).notNullable().references('id').inTable('ads').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('views').notNullable().defaultTo(0);
    t.integer('clicks').notNullable().defaultTo(0);
    t.primary(['ad_id', 'day']);
  });
  await knex.schema.alterTable('ad_reports', (t) => t.index(['hour'], 'ad_reports_hour_index'));
  await knex.schema.alterTable('ad_picks', (t) => t.index(['hour'], 'ad_picks_hour_index'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ad_picks', (t) => t.dropIndex(['hour'], 'ad_picks_hour_index'));
  await knex.schema.alterTable('ad_reports', (t) => t.dropIndex(['hour'], 'ad_reports_hour_index'));
  await knex.schema.dropTableIfExists('ad_days');
}
