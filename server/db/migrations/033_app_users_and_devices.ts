import type { Knex } from 'knex';
import { trigramOperatorClass } from './020_search_indexes.ts';

/**
 * The company's apps' own population (decision 053): their users, and the installations of the
 * apps (decision 054). An email names one app user, whatever its case; a `device_id` names one
 * installation, so registering again updates it. A device's user is forgotten, not the device,
 * when the account goes. The back office searches names, emails and device ids (trigram indexes,
 * decision 033); the push audiences read devices by push state, language and region.
 */
export async function up(knex: Knex): Promise<void> {
  const opclass = await trigramOperatorClass(knex);
  await knex.schema.createTable('app_users', (t) => {
    t.string('id', 64).primary();
    t.string('name', 120).notNullable();
    t.string('email', 254).notNullable().unique();
    t.string('password', 255).notNullable();
    t.string('birth_date', 10);
    t.string('gender', 8);
    t.string('locale', 8).notNullable().defaultTo('en');
    t.string('region', 8).notNullable().defaultTo('hk');
    t.timestamp('disabled_at', { useTz: true });
    t.timestamp('last_sign_in_at', { useTz: true });
    t.string('session_version', 64);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
    t.index(['region', 'locale']);
  });
  await knex.raw(`alter table app_users add constraint app_users_gender_check check (gender in ('male', 'female'))`);
  await knex.raw(
    `alter table app_users add constraint app_users_locale_check check (locale in ('en', 'zh-hk', 'zh-cn'))`,
  );

  await knex.schema.createTable('app_devices', (t) => {
    t.string('id', 64).primary();
    t.string('device_id', 128).notNullable().unique();
    t.string('app_user_id', 64).references('id').inTable('app_users').onDelete('SET NULL');
    t.string('platform', 8).notNullable();
    t.string('app_version', 32);
    t.string('locale', 8).notNullable().defaultTo('en');
    t.string('region', 8).notNullable().defaultTo('hk');
    t.string('time_zone', 64).notNullable().defaultTo('Asia/Hong_Kong');
    t.boolean('push_enabled').notNullable().defaultTo(true);
    t.string('push_token', 4096);
    t.string('last_ip', 64);
    t.timestamp('first_session_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_session_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('secret_hash', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['app_user_id']);
    t.index(['last_session_at', 'id']);
    // A push's audience: devices that take pushes, by language or region.
    t.index(['push_enabled', 'locale']);
    t.index(['push_enabled', 'region']);
  });
  await knex.raw(
    `alter table app_devices add constraint app_devices_platform_check check (platform in ('ios', 'android', 'web'))`,
  );
  await knex.raw(
    `alter table app_devices add constraint app_devices_locale_check check (locale in ('en', 'zh-hk', 'zh-cn'))`,
  );

  for (const [table, column] of [
    ['app_users', 'name'],
    ['app_users', 'email'],
    ['app_devices', 'device_id'],
  ] as const) {
    await knex.raw('create index ?? on ?? using gin (?? ??)', [`${table}_${column}_trgm`, table, column, opclass]);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('app_devices');
  await knex.schema.dropTableIfExists('app_users');
}
