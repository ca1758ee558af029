import type { Knex } from 'knex';

/*
 * Trigram indexes (pg_trgm, GIN) for the back office's free-text search (decision 033): a search
 * is an ILIKE on each searchable column, or on each language of a translated one (`name ->> 'en'`),
 * which a B-tree cannot serve and a trigram index can, for `%text%` and for a short text's `ab%`.
 * The searchable fields are written out, not read from the definitions: the definitions-vs-tables
 * test holds every searchable field to an index here or in a later migration.
 *
 * pg_trgm is a trusted extension (PostgreSQL 13 and later): the migrating role needs CREATE on the
 * database, not superuser. PGlite loads it from its contrib build (server/db/embedded.ts). Where
 * the extension already lives in another schema, its operator class is named with that schema.
 */

const LOCALES = ['en', 'zh-hk', 'zh-cn'];

/** Plain text columns, by table. */
const TEXT_COLUMNS: Record<string, string[]> = {
  users: ['email', 'name', 'first_name', 'last_name', 'company_name', 'phone'],
  blogs: ['author'],
  contact_forms: ['name', 'phone', 'email', 'company_name'],
  enquiries: ['first_name', 'last_name', 'company_name', 'email', 'phone'],
  outbox: ['recipient', 'subject'],
  subscribers: ['name', 'company_name', 'email'],
  orders: ['number'],
  invoices: ['number'],
  attachments: ['name'],
  devices: ['name', 'code'],
};

/** Translated (jsonb) columns, by table: one index per language. */
const TRANSLATED_COLUMNS: Record<string, string[]> = {
  industries: ['name', 'description'],
  modules: ['name', 'short_desc'],
  app_templates: ['name', 'description'],
  blogs: ['title', 'summary'],
};

const indexName = (table: string, column: string, locale?: string) =>
  [table, column, locale?.replace('-', '_'), 'trgm'].filter(Boolean).join('_');

/** `gin_trgm_ops` with the schema the extension is in, whichever that is. */
export async function trigramOperatorClass(knex: Knex): Promise<string> {
  const { rows } = await knex.raw<{ rows: { schema: string }[] }>(
    `select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`,
  );
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('pg_trgm is not installed');
  return `${schema}.gin_trgm_ops`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm');
  const opclass = await trigramOperatorClass(knex);
  for (const [table, columns] of Object.entries(TEXT_COLUMNS)) {
    for (const column of columns) {
      await knex.raw('create index ?? on ?? using gin (?? ??)', [indexName(table, column), table, column, opclass]);
    }
  }
  for (const [table, columns] of Object.entries(TRANSLATED_COLUMNS)) {
    for (const column of columns) {
      for (const locale of LOCALES) {
        await knex.raw(`create index ?? on ?? using gin ((?? ->> '${locale}') ??)`, [
          indexName(table, column, locale),
          table,
          column,
          opclass,
        ]);
      }
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  const names = [
    ...Object.entries(TEXT_COLUMNS).flatMap(([table, columns]) => columns.map((column) => indexName(table, column))),
    ...Object.entries(TRANSLATED_COLUMNS).flatMap(([table, columns]) =>
      columns.flatMap((column) => LOCALES.map((locale) => indexName(table, column, locale))),
    ),
  ];
  for (const name of names) await knex.raw('drop index if exists ??', [name]);
  // The extension stays: other schemas of the database may use it.
}
