import { BadRequest } from '@feathersjs/errors';
import type { Knex } from 'knex';
import { columnOf, type EntityDef, type FieldDef } from '../../../domain/entities/types.ts';
import { LOCALES } from '../../../domain/locales.ts';

/** One field of an entity with its column, resolved once per service. */
export interface ResolvedField {
  name: string;
  column: string;
  def: FieldDef;
}

export class EntityFields {
  readonly byName = new Map<string, ResolvedField>();
  readonly byColumn = new Map<string, ResolvedField>();
  readonly searchable: ResolvedField[] = [];
  readonly publicColumns: string[];
  readonly def: EntityDef;

  constructor(def: EntityDef) {
    this.def = def;
    for (const [name, fieldDef] of Object.entries(def.fields)) {
      const field = { name, column: columnOf(name, fieldDef), def: fieldDef };
      this.byName.set(name, field);
      this.byColumn.set(field.column, field);
      if (fieldDef.searchable) this.searchable.push(field);
    }
    this.publicColumns = [...this.byName.values()].map((f) => f.column);
  }

  field(name: string, purpose: string): ResolvedField {
    const field = this.byName.get(name);
    if (!field || field.def.hidden) throw new BadRequest(`Unknown field '${name}' in ${purpose}`);
    return field;
  }

  /**
   * A field that validated data writes, hidden ones included (a password is written, never read),
   * and read-only ones that the server itself sets (`beforeWrite`). Only for data that passed
   * validation, which holds known, writable fields alone.
   */
  writable(name: string): ResolvedField {
    const field = this.byName.get(name);
    if (!field || name === '_id') throw new BadRequest(`Unknown field '${name}' in data`);
    return field;
  }

  /** The SQL expression a field sorts and compares by (English text for translated fields). */
  sortExpression(knex: Knex, field: ResolvedField): Knex.Raw {
    if (field.def.kind === 'i18n') return knex.raw(`coalesce(??->>'en', '')`, [field.column]);
    if (field.def.kind === 'string' || field.def.kind === 'email') return knex.raw(`coalesce(??, '')`, [field.column]);
    return knex.raw('??', [field.column]);
  }

  /** Maps a database row to the record clients see. */
  toRecord(row: Record<string, unknown>, columns?: readonly string[]): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const column of columns ?? this.publicColumns) {
      const field = this.byColumn.get(column);
      if (!field || !(column in row)) continue;
      record[field.name] = row[column];
    }
    return record;
  }

  /** Locales a translated field is searched in. */
  static readonly searchLocales = LOCALES;
}
