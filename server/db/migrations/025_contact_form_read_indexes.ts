import type { Knex } from 'knex';

/*
 * The back office's reads of contact forms, a table that grows without end (decision 038): each
 * order its table offers and each filter of its search panel is read from an index, so a page costs
 * about the same over a million rows as over a thousand.
 *
 * - Sorted by a text column: the key is the service's own sort expression (`coalesce(column, '')`,
 *   EntityFields.sortExpression), then the id that ends every order. The table sorts the id
 *   ascending both ways: going down, rows of one value are put back in id order as they come
 *   (PostgreSQL's incremental sort), cheap while a value is shared by a few thousand rows at most.
 * - Sorted by the follow-up: three values, each shared by up to most of the table, so each
 *   direction has an index of its own.
 * - Newest first (the table's default) with `updated_at` in the index: a filter on it is checked in
 *   the index as the walk goes, not row by row in the table (a month of updates a year ago lies a
 *   year deep in that order). It replaces the index on (created_at, id) of migration 004.
 * - Filtered by `testing` or by `updated_at`: the rows that match, in order, and counted from the
 *   index alone.
 * Columns are written out, not read from the definitions, as in the other migrations.
 */

const TEXT_SORTS = ['name', 'email', 'phone', 'company_name'];

const sortIndex = (column: string) => `contact_forms_${column}_sort_index`;

export async function up(knex: Knex): Promise<void> {
  for (const column of TEXT_SORTS) {
    await knex.raw(`create index ?? on contact_forms ((coalesce(??, '')), id)`, [sortIndex(column), column]);
  }
  await knex.raw('create index contact_forms_follow_up_sort_index on contact_forms (follow_up, id)');
  await knex.raw('create index contact_forms_follow_up_desc_sort_index on contact_forms (follow_up desc, id)');
  await knex.schema.alterTable('contact_forms', (t) => {
    t.index(['created_at', 'id', 'updated_at']);
    t.index(['testing', 'created_at']);
    t.index(['updated_at']);
  });
  await knex.schema.alterTable('contact_forms', (t) => t.dropIndex(['created_at', 'id']));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contact_forms', (t) => t.index(['created_at', 'id']));
  await knex.schema.alterTable('contact_forms', (t) => {
    t.dropIndex(['updated_at']);
    t.dropIndex(['testing', 'created_at']);
    t.dropIndex(['created_at', 'id', 'updated_at']);
  });
  await knex.raw('drop index contact_forms_follow_up_desc_sort_index');
  await knex.raw('drop index contact_forms_follow_up_sort_index');
  for (const column of TEXT_SORTS) await knex.raw('drop index ??', [sortIndex(column)]);
}
