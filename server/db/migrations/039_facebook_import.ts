import type { Knex } from 'knex';
import { trigramOperatorClass } from './020_search_indexes.ts';

/*
 * Imports of the company's Facebook page's posts as draft news (decision 060): what was imported
 * (an export's file, kept in the exports' storage until the job is done, or the Graph API), who
 * asked, and how far the job has gone. Each imported item keeps the post's identity in
 * `news.facebook_source_id`, unique: a post is added once, however often it is imported, and the
 * import that added it (`facebook_import_id`), so the news list is filtered by import. Values of
 * the checks are written out, not imported.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('facebook_imports', (t) => {
    t.string('id', 64).primary();
    t.string('source', 16).notNullable();
    t.string('file_name', 255);
    t.string('file_key', 200);
    t.string('region', 8).notNullable();
    t.string('locale', 8).notNullable();
    t.string('state', 16).notNullable().defaultTo('queued');
    t.integer('total');
    t.integer('done').notNullable().defaultTo(0);
    t.integer('added').notNullable().defaultTo(0);
    t.integer('skipped').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    t.jsonb('failures').notNullable().defaultTo('[]');
    t.string('error', 500);
    t.string('user_id', 64).notNullable().references('id').inTable('users');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.index(['created_at', 'id']);
    t.index(['user_id']);
  });
  // Staff search the imports by the file's name.
  await knex.raw(`create index ?? on ?? using gin (?? ??)`, [
    'facebook_imports_file_name_trgm',
    'facebook_imports',
    'file_name',
    await trigramOperatorClass(knex),
  ]);
  await knex.raw(
    `alter table facebook_imports add constraint facebook_imports_source_check check (source in ('export', 'graph'))`,
  );
  await knex.raw(
    `alter table facebook_imports add constraint facebook_imports_state_check check (state in ('queued', 'running', 'done', 'failed'))`,
  );
  await knex.schema.alterTable('news', (t) => {
    t.string('facebook_source_id', 120);
    t.string('facebook_import_id', 64).references('id').inTable('facebook_imports').onDelete('SET NULL');
    t.unique(['facebook_source_id'], { indexName: 'news_facebook_source_id_unique' });
    t.index(['facebook_import_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('news', (t) => {
    t.dropUnique(['facebook_source_id'], 'news_facebook_source_id_unique');
    t.dropIndex(['facebook_import_id']);
    t.dropColumn('facebook_import_id');
    t.dropColumn('facebook_source_id');
  });
  await knex.schema.dropTable('facebook_imports');
}
