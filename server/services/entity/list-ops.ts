import { BadRequest } from '@feathersjs/errors';
import type { FieldDef } from '../../../domain/entities/types.ts';
import { newId } from '../../db/ids.ts';
import { invalid, validateListItem } from './validate.ts';

type Item = Record<string, unknown>;
export type ListOperators = { $push?: unknown; $pull?: unknown; $set?: unknown };

export interface ListField {
  name: string;
  def: FieldDef;
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BadRequest(`${what} must be an object`);
  return value as Record<string, unknown>;
}

function withKey(field: ListField, item: unknown): Item {
  const validated = validateListItem(field.def, field.name, item) as Item;
  if (field.def.itemKey === '_id' && !validated._id) return { ...validated, _id: newId() };
  return validated;
}

/** Gives every item of a written list its `_id` where the list is keyed by one. */
export function keyListItems(field: ListField, items: unknown[]): Item[] {
  return items.map((item) => withKey(field, item));
}

/**
 * Applies `$push`, `$pull` and positional `$set` to the current lists of a record, the way
 * Mongo-style clients send them. `positional` holds `list.key: value` conditions of the patch query.
 */
export function applyListOperators(
  lists: Map<string, ListField>,
  current: Record<string, Item[]>,
  ops: ListOperators,
  positional: Record<string, unknown>,
  plainSet: Record<string, unknown>,
): Record<string, Item[]> {
  const next: Record<string, Item[]> = {};
  const listOf = (name: string, op: string): [ListField, Item[]] => {
    const field = lists.get(name);
    if (!field) throw new BadRequest(`${op} works only on list fields; '${name}' is not one`);
    // A list the server alone keeps (an order's history) takes no item from a caller, as a plain write would not.
    if (field.def.readonly) throw invalid({ [name]: 'validation.unknownField' });
    next[name] ??= [...(current[name] ?? [])];
    return [field, next[name]];
  };

  if (ops.$push !== undefined) {
    for (const [name, value] of Object.entries(asObject(ops.$push, '$push'))) {
      const [field, items] = listOf(name, '$push');
      const each =
        typeof value === 'object' && value !== null && '$each' in value ? (value as { $each: unknown }).$each : [value];
      if (!Array.isArray(each)) throw new BadRequest('$each must be a list');
      for (const item of each) items.push(withKey(field, item));
    }
  }

  if (ops.$pull !== undefined) {
    for (const [name, value] of Object.entries(asObject(ops.$pull, '$pull'))) {
      const [field, items] = listOf(name, '$pull');
      // A list of plain values (ids), not of records: the equal ones go.
      const plainValues = items.every((item) => typeof item !== 'object' || item === null);
      if (plainValues && (typeof value !== 'object' || value === null)) {
        next[name] = items.filter((item) => (item as unknown) !== value);
        continue;
      }
      const key = field.def.itemKey ?? '_id';
      const match: Item = typeof value === 'object' && value !== null ? (value as Item) : { [key]: value };
      if (Object.keys(match).length === 0) throw new BadRequest('$pull needs a condition');
      next[name] = items.filter((item) => !Object.entries(match).every(([k, v]) => item[k] === v));
    }
  }

  if (ops.$set !== undefined) {
    for (const [path, value] of Object.entries(asObject(ops.$set, '$set'))) {
      const match = /^([A-Za-z]\w*)\.\$(?:\.([A-Za-z_]\w*))?$/.exec(path);
      if (!match) {
        plainSet[path] = value;
        continue;
      }
      const [, name, property] = match as unknown as [string, string, string | undefined];
      const [field, items] = listOf(name, '$set');
      const key = field.def.itemKey ?? '_id';
      const given = property === undefined ? asObject(value, `$set ${path}`) : {};
      const wanted = positional[`${name}.${key}`] ?? given[key];
      if (wanted === undefined)
        throw new BadRequest(`$set ${path} needs '${name}.${key}' in the query or '${key}' in the value`);
      const index = items.findIndex((item) => item[key] === wanted);
      if (index < 0) throw new BadRequest(`No item of '${name}' has ${key} '${String(wanted)}'`);
      const updated = property === undefined ? { ...items[index], ...given } : { ...items[index], [property]: value };
      items[index] = withKey(field, updated);
    }
  }
  return next;
}
