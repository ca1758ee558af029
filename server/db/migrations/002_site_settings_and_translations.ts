import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Site-wide settings such as the feature flags and markets, one JSON value per key.
  await knex.schema.createTable('site_settings', (t) => {
    t.string('key', 64).primary();
    t.jsonb('value').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // Message keys that a page asked for and a language did not have (reported in development).
  await knex.schema.createTable('missing_translations', (t) => {
    t.string('id', 64).primary();
    t.string('locale', 8).notNullable();
    t.string('key', 200).notNullable();
    t.string('url', 500).notNullable().defaultTo('');
    t.integer('count').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['locale', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('missing_translations');
  await knex.schema.dropTable('site_settings');
}
