import type { Knex } from 'knex';
import { entities } from '../../domain/entities/index.ts';
import { columnOf, type EntityDef } from '../../domain/entities/types.ts';

/**
 * What the migrated tables of the current schema (the connection's search path) are, read from the
 * catalogue with one query per kind of fact, for tests that hold the entity definitions against them.
 */

export interface ColumnFact {
  /** As information_schema names it: `character varying`, `jsonb`, `timestamp with time zone`... */
  type: string;
  nullable: boolean;
  hasDefault: boolean;
  /** A varchar's length; null for other types. */
  maxLength: number | null;
}

export interface ForeignKeyFact {
  name: string;
  table: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
}

export interface CheckFact {
  name: string;
  table: string;
  columns: string[];
  /** As PostgreSQL prints it: `CHECK ((status = ANY (ARRAY['draft'::text, 'published'::text])))`. */
  definition: string;
}

export interface SchemaFacts {
  /** Columns by table, then by column name. */
  tables: Map<string, Map<string, ColumnFact>>;
  foreignKeys: ForeignKeyFact[];
  checks: CheckFact[];
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  character_maximum_length: number | null;
}

interface ConstraintRow {
  name: string;
  kind: 'c' | 'f';
  table_name: string;
  referenced_table: string | null;
  definition: string;
  columns: string[];
  referenced_columns: string[];
}

const CURRENT_SCHEMA = '(select oid from pg_namespace where nspname = current_schema())';

/** A constraint's columns in their order, as text (the driver parses text[], not name[]). */
const columnNames = (keys: string, relation: string) =>
  `array(select a.attname::text from unnest(${keys}) with ordinality as k(attnum, position)
     join pg_attribute a on a.attrelid = ${relation} and a.attnum = k.attnum order by k.position)`;

export async function readSchemaFacts(knex: Knex): Promise<SchemaFacts> {
  const columns = await knex.raw<{ rows: ColumnRow[] }>(
    `select table_name, column_name, data_type, is_nullable, column_default, character_maximum_length
       from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position`,
  );
  // information_schema spreads foreign keys and checks over several views; the catalogue has them in one.
  const constraints = await knex.raw<{ rows: ConstraintRow[] }>(
    `select c.conname as name, c.contype as kind, t.relname as table_name, r.relname as referenced_table,
            pg_get_constraintdef(c.oid) as definition,
            ${columnNames('c.conkey', 'c.conrelid')} as columns,
            ${columnNames('c.confkey', 'c.confrelid')} as referenced_columns
       from pg_constraint c
       join pg_class t on t.oid = c.conrelid
       left join pg_class r on r.oid = c.confrelid
      where c.connamespace = ${CURRENT_SCHEMA} and c.contype in ('c', 'f')
      order by t.relname, c.conname`,
  );
  const tables = new Map<string, Map<string, ColumnFact>>();
  for (const row of columns.rows) {
    const table = tables.get(row.table_name) ?? new Map<string, ColumnFact>();
    table.set(row.column_name, {
      type: row.data_type,
      nullable: row.is_nullable === 'YES',
      hasDefault: row.column_default !== null,
      maxLength: row.character_maximum_length,
    });
    tables.set(row.table_name, table);
  }
  const foreignKeys: ForeignKeyFact[] = [];
  const checks: CheckFact[] = [];
  for (const row of constraints.rows) {
    if (row.kind === 'f' && row.referenced_table !== null) {
      foreignKeys.push({
        name: row.name,
        table: row.table_name,
        columns: row.columns,
        referencedTable: row.referenced_table,
        referencedColumns: row.referenced_columns,
      });
    } else if (row.kind === 'c') {
      checks.push({ name: row.name, table: row.table_name, columns: row.columns, definition: row.definition });
    }
  }
  return { tables, foreignKeys, checks };
}

/** One trigram index over a field: its name and the key as PostgreSQL prints it (`email`, `(name ->> 'en'::text)`). */
export interface TrigramIndex {
  index: string;
  key: string;
}

interface TrigramRow {
  table_name: string;
  index_name: string;
  key: string;
}

/** True when an index key (a column or an expression) reads the column; quoted text is not read. */
function keyReads(key: string, column: string): boolean {
  const code = key.replace(/'(?:[^']|'')*'/g, "''");
  return new RegExp(`(^|[^\\w"])"?${column}"?($|[^\\w"])`).test(code);
}

/**
 * For every entity, the trigram (pg_trgm GIN) indexes over each of its searchable fields. A search
 * is an ILIKE on the column, or on each language of a translated field (`name->>'en'`...), which
 * only such an index serves (migration 020).
 */
export async function trigramIndexes(
  knex: Knex,
  definitions: Record<string, EntityDef> = entities,
): Promise<Record<string, Record<string, TrigramIndex[]>>> {
  // One row per index key whose operator class is pg_trgm's, whatever schema the extension is in.
  const { rows } = await knex.raw<{ rows: TrigramRow[] }>(
    `select t.relname as table_name, i.relname as index_name,
            pg_get_indexdef(x.indexrelid, k.position::int, true) as key
       from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join pg_class t on t.oid = x.indrelid
       join pg_am am on am.oid = i.relam
       cross join lateral unnest(x.indclass::oid[]) with ordinality as k(opclass, position)
       join pg_opclass o on o.oid = k.opclass
      where t.relnamespace = ${CURRENT_SCHEMA} and am.amname = 'gin' and o.opcname = 'gin_trgm_ops'
      order by t.relname, i.relname, k.position`,
  );
  const report: Record<string, Record<string, TrigramIndex[]>> = {};
  for (const [entity, definition] of Object.entries(definitions)) {
    const fields: Record<string, TrigramIndex[]> = {};
    for (const [name, field] of Object.entries(definition.fields)) {
      if (!field.searchable) continue;
      const column = columnOf(name, field);
      fields[name] = rows
        .filter((row) => row.table_name === definition.table && keyReads(row.key, column))
        .map((row) => ({ index: row.index_name, key: row.key }));
    }
    report[entity] = fields;
  }
  return report;
}
