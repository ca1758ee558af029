import type { Knex } from 'knex';

/*
 * Uploaded files (decision 022): one row per file, its bytes in the storage under the row's id.
 * Users get a picture that refers to one. The folder names are written out, not imported: the
 * definitions-vs-tables test holds the definition to this check.
 */
const FOLDERS = ['profile', 'general', 'news', 'ads', 'products', 'settings', 'blogs'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('attachments', (t) => {
    t.string('id', 64).primary();
    t.string('name', 255).notNullable();
    t.jsonb('alt');
    t.string('mime', 100).notNullable();
    t.integer('size').notNullable();
    t.integer('width');
    t.integer('height');
    t.enu('folder', FOLDERS).notNullable();
    // An account's removal keeps the files it uploaded (content the site still shows).
    t.string('uploaded_by', 64).references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['uploaded_by']);
    t.index(['folder', 'created_at']);
  });
  await knex.schema.alterTable('users', (t) => {
    // Removing the file leaves the account without a picture (the default one is served).
    t.string('picture_id', 64).references('id').inTable('attachments').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('picture_id');
  });
  await knex.schema.dropTableIfExists('attachments');
}
