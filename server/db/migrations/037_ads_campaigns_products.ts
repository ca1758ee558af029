import type { Knex } from 'knex';
import { trigramOperatorClass } from './020_search_indexes.ts';

/**
 * Ads, campaigns and products of the company's apps (decision 057).
 *
 * - An ad's status follows its counts in the table itself: a trigger on every insert and update
 *   sets a shown ad (`published` or `meet`) to `meet` when a target is reached and back to
 *   `published` when no target is (a target raised, or cleared), so the rule holds for staff's
 *   writes and the counters' alike, in the statement that changes them.
 * - `ad_reports` holds one row per ad, device, hour and kind: a view or click is counted when its
 *   row is inserted, in the same statement as the count (server/services/ads/reports.ts), never by
 *   reading the count first. `ad_picks` counts how often a device was shown an ad in an hour, for
 *   the frequency cap, by the same kind of upsert.
 * - A product's discounted price is never above its price (also a rule of its definition).
 */
const LOCALES = ['en', 'zh-hk', 'zh-cn'];

async function nameIndexes(knex: Knex, table: string, opclass: string): Promise<void> {
  for (const locale of LOCALES)
    await knex.raw(`create index ?? on ?? using gin ((name ->> '${locale}') ??)`, [
      `${table}_name_${locale.replace('-', '_')}_trgm`,
      table,
      opclass,
    ]);
}

export async function up(knex: Knex): Promise<void> {
  const opclass = await trigramOperatorClass(knex);
  await knex.schema.createTable('ads', (t) => {
    t.string('id', 64).primary();
    t.jsonb('name').notNullable();
    t.string('ad_type', 16).notNullable();
    t.string('status', 16).notNullable().defaultTo('draft');
    t.string('media_id', 64).references('id').inTable('attachments').onDelete('SET NULL');
    t.string('small_image_id', 64).references('id').inTable('attachments').onDelete('SET NULL');
    t.string('target_link', 500);
    t.integer('weight').notNullable().defaultTo(1);
    t.integer('probability').notNullable().defaultTo(100);
    t.timestamp('publish', { useTz: true });
    t.timestamp('expiry', { useTz: true });
    t.integer('view_count').notNullable().defaultTo(0);
    t.integer('target_view_count').notNullable().defaultTo(0);
    t.integer('click_count').notNullable().defaultTo(0);
    t.integer('target_click_count').notNullable().defaultTo(0);
    t.text('remarks');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
  });
  await knex.raw(
    `alter table ads add constraint ads_ad_type_check check (ad_type in ('article', 'footer', 'fullscreen', 'list', 'video'))`,
  );
  await knex.raw(`alter table ads add constraint ads_status_check check (status in ('draft', 'published', 'meet'))`);
  await knex.raw(
    `alter table ads add constraint ads_weight_check check (weight between 1 and 1000 and probability between 0 and 100)`,
  );
  // What a pick reads: the published ads of a type.
  await knex.raw(`create index ads_serving on ads (ad_type) where status = 'published'`);
  await nameIndexes(knex, 'ads', opclass);
  await knex.raw(`
    create function ads_status_follows_targets() returns trigger language plpgsql as $$
    begin
      if new.status in ('published', 'meet') then
        if (new.target_view_count > 0 and new.view_count >= new.target_view_count)
          or (new.target_click_count > 0 and new.click_count >= new.target_click_count) then
          new.status := 'meet';
        else
          new.status := 'published';
        end if;
      end if;
      return new;
    end
    $$`);
  await knex.raw(
    `create trigger ads_status_follows_targets before insert or update on ads
     for each row execute function ads_status_follows_targets()`,
  );

  await knex.schema.createTable('ad_reports', (t) => {
    t.string('ad_id', 64).notNullable().references('id').inTable('ads').onDelete('CASCADE');
    t.string('device_id', 64).notNullable().references('id').inTable('app_devices').onDelete('CASCADE');
    t.timestamp('hour', { useTz: true }).notNullable();
    t.string('kind', 8).notNullable();
    t.primary(['ad_id', 'device_id', 'hour', 'kind']);
    t.index(['device_id']);
  });
  await knex.raw(`alter table ad_reports add constraint ad_reports_kind_check check (kind in ('view', 'click'))`);

  await knex.schema.createTable('ad_picks', (t) => {
    t.string('device_id', 64).notNullable().references('id').inTable('app_devices').onDelete('CASCADE');
    t.timestamp('hour', { useTz: true }).notNullable();
    t.string('ad_id', 64).notNullable().references('id').inTable('ads').onDelete('CASCADE');
    t.integer('picks').notNullable().defaultTo(1);
    t.primary(['device_id', 'hour', 'ad_id']);
    t.index(['ad_id']);
  });

  await knex.schema.createTable('campaigns', (t) => {
    t.string('id', 64).primary();
    t.jsonb('name').notNullable();
    t.string('key', 40).notNullable().unique();
    t.string('status', 16).notNullable().defaultTo('draft');
    t.jsonb('ads').notNullable().defaultTo('[]');
    t.timestamp('publish', { useTz: true });
    t.timestamp('expiry', { useTz: true });
    t.text('remarks');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
  });
  await knex.raw(
    `alter table campaigns add constraint campaigns_status_check check (status in ('draft', 'published'))`,
  );
  await knex.raw(`create index campaigns_ads on campaigns using gin (ads jsonb_path_ops)`);
  await nameIndexes(knex, 'campaigns', opclass);

  await knex.schema.createTable('products', (t) => {
    t.string('id', 64).primary();
    t.jsonb('name').notNullable();
    t.integer('price').notNullable();
    t.integer('dprice');
    t.string('currency', 3).notNullable().defaultTo('HKD');
    t.string('media_id', 64).references('id').inTable('attachments').onDelete('SET NULL');
    t.string('target', 500);
    t.string('status', 16).notNullable().defaultTo('draft');
    t.text('remarks');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
    t.index(['status', 'created_at']);
  });
  await knex.raw(`alter table products add constraint products_status_check check (status in ('draft', 'published'))`);
  await knex.raw(
    `alter table products add constraint products_dprice_check check (dprice is null or (dprice >= 0 and dprice <= price))`,
  );
  await nameIndexes(knex, 'products', opclass);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('products');
  await knex.schema.dropTableIfExists('campaigns');
  await knex.schema.dropTableIfExists('ad_picks');
  await knex.schema.dropTableIfExists('ad_reports');
  await knex.schema.dropTableIfExists('ads');
  await knex.raw('drop function if exists ads_status_follows_targets()');
}
