import type { Knex } from 'knex';

/**
 * The settings the company's apps dress their home screen with (decision 046): one row, which the
 * seed makes. The photo is an attachment; removing the file empties the field rather than failing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('app_settings', (t) => {
    t.string('id', 64).primary();
    t.jsonb('header').notNullable();
    t.string('header_photo_id', 64).references('id').inTable('attachments').onDelete('SET NULL');
    t.string('footer_color1', 7).notNullable();
    t.string('footer_color2', 7).notNullable();
    t.boolean('show_event').notNullable().defaultTo(true);
    t.boolean('show_shop').notNullable().defaultTo(true);
    t.string('sponsor_name', 120);
    t.jsonb('sponsor_shown');
    t.jsonb('map_hong_kong').notNullable();
    t.jsonb('map_canada').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // One row, whoever inserts: the same constant for every row, unique.
  await knex.raw('create unique index app_settings_one_row on app_settings ((true))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('app_settings');
}
