import type { Knex } from 'knex';

/**
 * The app settings' home-screen gallery (decision 046): attachment ids in the order shown, kept
 * in the row as a jsonb list (twelve at most, read and written whole; the attachments cleanup
 * finds an id in it as in a rich text).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('app_settings', (t) => {
    t.jsonb('home_gallery').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('app_settings', (t) => {
    t.dropColumn('home_gallery');
  });
}
