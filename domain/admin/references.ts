import { entities, isEntityName, type EntityName } from '../entities/index.ts';
import type { EntityDef } from '../entities/types.ts';
import type { Locale } from '../locales.ts';
import { recordName, titleFieldOf } from './screens.ts';

/** Most related records named by one lookup: a page of the table, or of an export. */
export const REFERENCE_LOOKUP = 100;

/** Reads related records as the staff member: their records, or none when they may not read them. */
export type FindRecords = (target: EntityName, query: Record<string, unknown>) => Promise<Record<string, unknown>[]>;

/** The names of related records, by field and id (`{ user: { u1: 'mei@…' } }`). */
export type ReferenceNames = Record<string, Record<string, string>>;

/**
 * The names of the records that the reference `fields` of `records` point to (and of the ids in
 * `chosen`, a filter's record): one `$in` lookup of at most 100 ids per related entity, however
 * many fields point to it. A record that could not be read keeps its id, as the callers show it.
 */
export async function referenceNames(
  definition: EntityDef,
  fields: readonly string[],
  records: readonly Record<string, unknown>[],
  locale: Locale,
  find: FindRecords,
  chosen: Readonly<Record<string, readonly string[]>> = {},
): Promise<ReferenceNames> {
  const byTarget = new Map<EntityName, { fields: string[]; ids: Set<string> }>();
  for (const field of fields) {
    const def = definition.fields[field];
    const target = def?.kind === 'ref' ? def.ref : undefined;
    if (!target || !isEntityName(target) || !entities[target]) continue;
    const entry = byTarget.get(target) ?? { fields: [], ids: new Set<string>() };
    entry.fields.push(field);
    for (const record of records) if (typeof record[field] === 'string') entry.ids.add(record[field] as string);
    for (const id of chosen[field] ?? []) entry.ids.add(id);
    byTarget.set(target, entry);
  }
  const names: ReferenceNames = {};
  await Promise.all(
    [...byTarget].map(async ([target, { fields: named, ids }]) => {
      const found: Record<string, string> = {};
      if (ids.size > 0) {
        const title = titleFieldOf(target);
        const query = {
          _id: { $in: [...ids].slice(0, REFERENCE_LOOKUP) },
          $select: ['_id', title],
          $limit: REFERENCE_LOOKUP,
        };
        for (const record of await find(target, query)) found[String(record._id)] = recordName(target, record, locale);
      }
      for (const field of named) names[field] = found;
    }),
  );
  return names;
}
