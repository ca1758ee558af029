import { entities, isEntityName, type EntityName } from '../entities/index.ts';
import type { EntityDef } from '../entities/types.ts';
import type { Locale } from '../locales.ts';
import { recordName, titleFieldOf } from './screens.ts';

/** Most related records named by one lookup: a page of the table, or of an export. */
export const REFERENCE_LOOKUP = 100;

/**
 * Reads related records as the staff member: their records, or null when they may not read them
 * (then no names are given for those fields, and their ids show as they are: a record the reader
 * may not see is not said to be gone).
 */
export type FindRecords = (
  target: EntityName,
  query: Record<string, unknown>,
) => Promise<Record<string, unknown>[] | null>;

/** The names of related records, by field and id (`{ user: { u1: 'mei@…' } }`). */
export type ReferenceNames = Record<string, Record<string, string>>;

/**
 * The names of the records that the reference `fields` of `records` point to (and of the ids in
 * `chosen`, a filter's record): one `$in` lookup of at most 100 ids per related entity, however
 * many fields point to it (lists of references, more ids, a lookup per 100). A record that could
 * not be read keeps its id, as the callers show it (a list of references says it no longer exists).
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
    // A reference, or a list of them (a campaign's ads).
    const target = def?.kind === 'ref' || def?.kind === 'list' ? def.ref : undefined;
    if (!target || !isEntityName(target) || !entities[target]) continue;
    const entry = byTarget.get(target) ?? { fields: [], ids: new Set<string>() };
    entry.fields.push(field);
    for (const record of records) {
      const value = record[field];
      if (typeof value === 'string') entry.ids.add(value);
      else if (Array.isArray(value)) for (const id of value) if (typeof id === 'string') entry.ids.add(id);
    }
    for (const id of chosen[field] ?? []) entry.ids.add(id);
    byTarget.set(target, entry);
  }
  const names: ReferenceNames = {};
  await Promise.all(
    [...byTarget].map(async ([target, { fields: named, ids }]) => {
      const found: Record<string, string> = {};
      const title = titleFieldOf(target);
      const all = [...ids];
      // Lists of references name more than a page's worth: they are asked for a page at a time.
      const pages = Array.from({ length: Math.ceil(all.length / REFERENCE_LOOKUP) }, (_, page) =>
        all.slice(page * REFERENCE_LOOKUP, (page + 1) * REFERENCE_LOOKUP),
      );
      for (const page of pages) {
        const query = { _id: { $in: page }, $select: ['_id', title], $limit: REFERENCE_LOOKUP };
        const records = await find(target, query);
        if (records === null) return;
        for (const record of records) found[String(record._id)] = recordName(target, record, locale);
      }
      for (const field of named) names[field] = found;
    }),
  );
  return names;
}
