import type { Knex } from 'knex';
import { trigramOperatorClass } from './020_search_indexes.ts';

/**
 * The lookup lists (domain/entities/lookup-lists.ts): a table each, a name in three languages and
 * staff's order. Their names are searched in each language, with a trigram index each (decision 033).
 */
const TABLES = ['doctor_professions', 'doctor_districts', 'doctor_genders'];
const LOCALES = ['en', 'zh-hk', 'zh-cn'];

export async function up(knex: Knex): Promise<void> {
  const opclass = await trigramOperatorClass(knex);
  for (const table of TABLES) {
    await knex.schema.createTable(table, (t) => {
      t.string('id', 64).primary();
      t.jsonb('name').notNullable();
      t.integer('display_order').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['display_order', 'id']);
    });
    for (const locale of LOCALES) {
      await knex.raw(`create index ?? on ?? using gin ((name ->> '${locale}') ??)`, [
        `${table}_name_${locale.replace('-', '_')}_trgm`,
        table,
        opclass,
      ]);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.schema.dropTableIfExists(table);
}
