import { BadRequest } from '@feathersjs/errors';
import type { Knex } from 'knex';
import { LOCALES } from '../../../domain/locales.ts';
import { coerceQueryValue, isStorableText, regexToLike, toInteger } from './coerce.ts';
import type { EntityFields, ResolvedField } from './fields.ts';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

const COMPARISON: Record<string, string> = { $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };
/** Query keys that shape the answer rather than filter records. */
export const QUERY_CONTROLS: ReadonlySet<string> = new Set([
  '$limit',
  '$skip',
  '$sort',
  '$select',
  '$populate',
  '$cursor',
  '$countUpTo',
]);
const MAX_IN = 500;
const MAX_DEPTH = 4;
/** Branches of one `$or` or `$and`. */
const MAX_BRANCHES = 50;
/**
 * Conditions one query may hold across all its levels: each field condition and each operator,
 * `$or` and `$and` included. The back office's search panel sends a `$regex` per searchable field
 * and a condition or two per filtered column, a few dozen at most; without a total, four levels of
 * 50 branches would let one request ask for millions.
 */
export const MAX_CONDITIONS = 200;
/**
 * Values all the `$in` and `$nin` lists of one query hold together: two full lists. Each is a
 * bound parameter (a date two), and PostgreSQL refuses a statement with more than 65 535.
 */
export const MAX_LISTED_VALUES = 2 * MAX_IN;

export interface SortKey {
  field: ResolvedField;
  direction: 1 | -1;
}

export interface ParsedQuery {
  limit: number;
  skip: number;
  sort: SortKey[];
  select: string[] | null;
  populate: string[];
  /** Present (possibly empty) when the client asked for keyset pagination. */
  cursor: string | undefined;
  /**
   * `$countUpTo`: the total is counted to this many matches and no further (decision 045); past
   * it, the page answers `totalCapped`. Absent: an exact count.
   */
  countUpTo: number | null;
  filter: Record<string, unknown>;
}

function asPlainObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BadRequest(`${what} must be an object`);
  return value as Record<string, unknown>;
}

function asList(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) return value;
  // REST sends `$in[0]=a&$in[1]=b`, which the query parser turns into an array or an index object.
  if (typeof value === 'object' && value !== null) {
    const values = Object.entries(value);
    if (values.every(([key]) => /^\d+$/.test(key))) return values.map(([, v]) => v);
  }
  if (typeof value === 'string' && what !== '$or' && what !== '$and') return value.split(',');
  throw new BadRequest(`${what} must be a list`);
}

/** Splits a Feathers query into pagination controls and a filter, validating every part. */
export function parseQuery(
  fields: EntityFields,
  query: Record<string, unknown> | undefined,
  maxLimit = MAX_LIMIT,
): ParsedQuery {
  const q = query ?? {};
  const filter: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(q)) {
    if (!QUERY_CONTROLS.has(key)) filter[key] = value;
  }
  const limit = q.$limit === undefined ? DEFAULT_LIMIT : toInteger(q.$limit, '$limit', 0, maxLimit);
  const skip = q.$skip === undefined ? 0 : toInteger(q.$skip, '$skip', 0, 1_000_000_000);
  const countUpTo = q.$countUpTo === undefined ? null : toInteger(q.$countUpTo, '$countUpTo', 1, 1_000_000_000);

  const sort: SortKey[] = [];
  const rawSort = q.$sort === undefined ? fields.def.defaultSort : asPlainObject(q.$sort, '$sort');
  for (const [name, dir] of Object.entries(rawSort)) {
    const field = fields.field(name, '$sort');
    if (!field.def.sortable) throw new BadRequest(`Field '${name}' cannot be sorted`);
    const direction = String(dir) === '1' ? 1 : String(dir) === '-1' ? -1 : null;
    if (direction === null) throw new BadRequest(`$sort.${name} must be 1 or -1`);
    if (field.name !== '_id') sort.push({ field, direction });
  }
  // The id makes every order total, which keyset pagination needs.
  const idDirection = (rawSort as Record<string, unknown>)._id;
  sort.push({ field: fields.field('_id', '$sort'), direction: String(idDirection) === '-1' ? -1 : 1 });

  let select: string[] | null = null;
  if (q.$select !== undefined) {
    select = asList(q.$select, '$select').map((name) => {
      if (typeof name !== 'string') throw new BadRequest('$select must list field names');
      return fields.field(name, '$select').name;
    });
  }

  let populate: string[] = [];
  if (q.$populate !== undefined) {
    const list = typeof q.$populate === 'string' ? [q.$populate] : asList(q.$populate, '$populate');
    populate = list.map((path) => {
      const known =
        typeof path === 'string' && fields.def.populate !== undefined && Object.hasOwn(fields.def.populate, path);
      if (!known) throw new BadRequest(`Cannot populate '${String(path)}'`);
      return path;
    });
  }

  let cursor: string | undefined;
  if (q.$cursor !== undefined) {
    if (typeof q.$cursor !== 'string' && q.$cursor !== null && q.$cursor !== true)
      throw new BadRequest('$cursor must be a string');
    cursor = typeof q.$cursor === 'string' ? q.$cursor : '';
  }

  limitQuerySize(filter);
  return { limit, skip, sort, select, populate, cursor, countUpTo, filter };
}

const isOperatorObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** How many values a `$in` or `$nin` operand lists, in any of the forms asList reads. */
function listedValues(operand: unknown): number {
  if (Array.isArray(operand)) return operand.length;
  if (typeof operand === 'string') return operand.split(',').length;
  return isOperatorObject(operand) ? Object.keys(operand).length : 0;
}

/**
 * Counts a filter's conditions and listed values at every level, refusing it as soon as it passes
 * MAX_CONDITIONS or MAX_LISTED_VALUES (or MAX_DEPTH), before any SQL is built. What the count lets
 * through, applyFilter then checks part by part.
 */
function limitQuerySize(filter: Record<string, unknown>): void {
  const size = { conditions: 0, values: 0 };
  const visit = (clause: Record<string, unknown>, depth: number) => {
    if (depth > MAX_DEPTH) throw new BadRequest('Query nested too deeply');
    for (const [key, value] of Object.entries(clause)) {
      if (key === '$or' || key === '$and') {
        size.conditions += 1;
        const branches = asList(value, key);
        if (branches.length > MAX_BRANCHES) throw new BadRequest(`${key} has too many conditions`);
        for (const branch of branches) if (isOperatorObject(branch)) visit(branch, depth + 1);
      } else if (isOperatorObject(value)) {
        // `order: { $gt: 1, $lt: 9 }` is two conditions.
        size.conditions += Math.max(Object.keys(value).length, 1);
        size.values += listedValues(value.$in) + listedValues(value.$nin);
      } else {
        size.conditions += 1;
      }
      if (size.conditions > MAX_CONDITIONS || size.values > MAX_LISTED_VALUES) {
        throw new BadRequest('errors.queryTooLarge', {
          maxConditions: MAX_CONDITIONS,
          maxListedValues: MAX_LISTED_VALUES,
        });
      }
    }
  };
  visit(filter, 0);
}

/** Adds the WHERE conditions of a filter to a query builder. */
export function applyFilter(
  knex: Knex,
  fields: EntityFields,
  builder: Knex.QueryBuilder,
  filter: Record<string, unknown>,
  depth = 0,
): void {
  if (depth > MAX_DEPTH) throw new BadRequest('Query nested too deeply');
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$or' || key === '$and') {
      const branches = asList(value, key);
      if (branches.length === 0) continue;
      if (branches.length > MAX_BRANCHES) throw new BadRequest(`${key} has too many conditions`);
      builder.where((group) => {
        for (const branch of branches) {
          const clause = asPlainObject(branch, key);
          const add = (inner: Knex.QueryBuilder) => applyFilter(knex, fields, inner, clause, depth + 1);
          if (key === '$or') group.orWhere(add);
          else group.andWhere(add);
        }
      });
      continue;
    }
    if (key.startsWith('$')) throw new BadRequest(`Unknown query operator '${key}'`);
    applyFieldCondition(knex, fields, builder, key, value);
  }
}

function applyFieldCondition(
  knex: Knex,
  fields: EntityFields,
  builder: Knex.QueryBuilder,
  key: string,
  value: unknown,
): void {
  const dot = key.indexOf('.');
  if (dot > 0) {
    applyListItemCondition(fields, builder, key.slice(0, dot), key.slice(dot + 1), value);
    return;
  }
  const field = fields.field(key, 'query');
  const operatorObject = isOperatorObject(value);
  if (field.def.kind === 'list') {
    applyListContains(builder, field, value, operatorObject);
    return;
  }
  if (!operatorObject) {
    requireFilterable(field);
    whereEquals(builder, field, coerceQueryValue(field, value));
    return;
  }
  const operators = value as Record<string, unknown>;
  for (const [op, operand] of Object.entries(operators)) {
    if (op === '$regex') {
      applyRegex(knex, field, builder, operand, operators.$options);
    } else if (op === '$options') {
      if (operators.$regex === undefined) throw new BadRequest('$options needs $regex');
    } else if (op === '$in' || op === '$nin') {
      requireFilterable(field);
      const list = asList(operand, op);
      if (list.length > MAX_IN) throw new BadRequest(`${op} accepts at most ${MAX_IN} values`);
      const values = list.map((v) => coerceQueryValue(field, v));
      const present = values.filter((v) => v !== null);
      const withNull = present.length < values.length;
      if (op === '$in') {
        builder.where((group) => {
          whereAnyOf(group, field, present);
          if (withNull) group.orWhereNull(field.column);
        });
      } else {
        // Like `$ne`, `$nin` keeps records where the field is empty, unless null is listed.
        builder.where((group) => {
          group.whereNot((inner) => whereAnyOf(inner, field, present));
          if (withNull) group.whereNotNull(field.column);
          else group.orWhereNull(field.column);
        });
      }
    } else if (Object.hasOwn(COMPARISON, op)) {
      requireFilterable(field);
      const v = coerceQueryValue(field, operand);
      if (v === null) {
        if (op === '$ne') builder.whereNotNull(field.column);
        else throw new BadRequest(`${op} cannot compare with null`);
      } else if (op === '$ne') {
        // Mongo-style clients expect `$ne` to keep records where the field is empty.
        builder.where((group) => group.whereNot((inner) => whereEquals(inner, field, v)).orWhereNull(field.column));
      } else if (v instanceof Date) {
        applyDateComparison(builder, field, op, v);
      } else {
        builder.where(field.column, COMPARISON[op] as string, v);
      }
    } else {
      throw new BadRequest(`Unknown query operator '${op}'`);
    }
  }
}

type QueryValue = ReturnType<typeof coerceQueryValue>;

/**
 * Dates are stored with microseconds but clients see milliseconds: a date from a client stands
 * for its whole millisecond, so a record's own `createdAt` finds it again (as a range, which an
 * index serves).
 */
function nextMillisecond(date: Date): Date {
  return new Date(date.getTime() + 1);
}

function whereEquals(builder: Knex.QueryBuilder, field: ResolvedField, v: QueryValue): void {
  if (v === null) builder.whereNull(field.column);
  else if (v instanceof Date)
    builder.where((range) => range.where(field.column, '>=', v).andWhere(field.column, '<', nextMillisecond(v)));
  else builder.where(field.column, v);
}

/** Matches any of the (non-null) values; matches nothing for an empty list. */
function whereAnyOf(builder: Knex.QueryBuilder, field: ResolvedField, values: QueryValue[]): void {
  if (field.def.kind === 'date') {
    if (values.length === 0) builder.whereRaw('false');
    for (const v of values) builder.orWhere((branch) => whereEquals(branch, field, v));
    return;
  }
  builder.whereIn(field.column, values as (string | number | boolean)[]);
}

function applyDateComparison(builder: Knex.QueryBuilder, field: ResolvedField, op: string, v: Date): void {
  switch (op) {
    case '$gt':
      builder.where(field.column, '>=', nextMillisecond(v));
      return;
    case '$gte':
      builder.where(field.column, '>=', v);
      return;
    case '$lt':
      builder.where(field.column, '<', v);
      return;
    case '$lte':
      builder.where(field.column, '<', nextMillisecond(v));
      return;
    default:
      throw new BadRequest(`Unknown query operator '${op}'`);
  }
}

function requireFilterable(field: ResolvedField): void {
  if (!field.def.filterable) throw new BadRequest(`Field '${field.name}' cannot be filtered`);
}

function applyRegex(
  knex: Knex,
  field: ResolvedField,
  builder: Knex.QueryBuilder,
  pattern: unknown,
  options: unknown,
): void {
  if (!field.def.searchable) throw new BadRequest(`Field '${field.name}' cannot be searched`);
  if (typeof pattern !== 'string' || pattern.length > 200 || !isStorableText(pattern)) {
    throw new BadRequest('$regex must be a string of at most 200 characters');
  }
  if (options !== undefined && options !== 'i' && options !== '') throw new BadRequest("$options may only be 'i'");
  const like = regexToLike(pattern);
  const op = options === 'i' ? 'ILIKE' : 'LIKE';
  if (field.def.kind === 'i18n') {
    // Each language as the trigram index on it is written (`name ->> 'en'`, migration 020): the
    // locale a literal of our own list, so the planner matches the expression to the index.
    builder.where((group) => {
      for (const locale of LOCALES) group.orWhereRaw(`??->>'${locale}' ${op} ?`, [field.column, like]);
    });
  } else {
    builder.whereRaw(`?? ${op} ?`, [field.column, like]);
  }
}

/** `modules.id: x` matches records whose list holds an item with that key. */
function applyListItemCondition(
  fields: EntityFields,
  builder: Knex.QueryBuilder,
  listName: string,
  itemField: string,
  value: unknown,
): void {
  const list = fields.field(listName, 'query');
  if (list.def.kind !== 'list' || list.def.itemKey !== itemField)
    throw new BadRequest(`Unknown field '${listName}.${itemField}' in query`);
  const valid =
    (typeof value === 'string' && value.length <= 500 && isStorableText(value)) ||
    (typeof value === 'number' && Number.isFinite(value));
  if (!valid) throw new BadRequest(`'${listName}.${itemField}' must be a value`);
  builder.whereRaw('?? @> ?::jsonb', [list.column, JSON.stringify([{ [itemField]: value }])]);
}

/**
 * A list of plain values (`tags`) is filtered by what it contains: `tags: 'pos'` keeps records
 * whose list holds 'pos', `$in` any of several values, `$nin` none of them. Matched with jsonb
 * containment (`@>`), which a GIN index serves; the value is a bound parameter, never SQL.
 */
function applyListContains(
  builder: Knex.QueryBuilder,
  field: ResolvedField,
  value: unknown,
  isOperatorObject: boolean,
): void {
  // Lists of objects are matched by their key (`modules.id: x`), not as a whole.
  if (!field.def.filterable || field.def.itemKey) throw new BadRequest(`Field '${field.name}' cannot be filtered`);
  const holding = (item: unknown): string => {
    const valid =
      (typeof item === 'string' && item.length <= 500 && isStorableText(item)) ||
      (typeof item === 'number' && Number.isFinite(item));
    if (!valid)
      throw new BadRequest(`Invalid value for '${field.name}'`, { errors: { [field.name]: 'validation.invalid' } });
    return JSON.stringify([item]);
  };
  if (!isOperatorObject) {
    builder.whereRaw('?? @> ?::jsonb', [field.column, holding(value)]);
    return;
  }
  for (const [op, operand] of Object.entries(value as Record<string, unknown>)) {
    if (op !== '$in' && op !== '$nin')
      throw new BadRequest(`Operator '${op}' cannot be used on the list '${field.name}'`);
    const list = asList(operand, op);
    if (list.length > MAX_IN) throw new BadRequest(`${op} accepts at most ${MAX_IN} values`);
    const patterns = list.map(holding);
    const holdsAny = (group: Knex.QueryBuilder) => {
      if (patterns.length === 0) group.whereRaw('false');
      for (const pattern of patterns) group.orWhereRaw('?? @> ?::jsonb', [field.column, pattern]);
    };
    if (op === '$in') builder.where(holdsAny);
    else builder.whereNot(holdsAny);
  }
}
