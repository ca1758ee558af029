import { BadRequest } from '@feathersjs/errors';
import type { Knex } from 'knex';
import { INT_MAX, INT_MIN, isStorableText } from './coerce.ts';
import type { EntityFields } from './fields.ts';
import type { SortKey } from './query.ts';

type KeyValue = string | number | boolean | null;

interface CursorToken {
  /** Sort signature: a cursor only continues the order it came from. */
  s: string;
  /** Direction: next page after the row, or previous page before it. */
  d: 'n' | 'p';
  /** The row's sort key values, id last. */
  k: KeyValue[];
}

export function sortSignature(sort: SortKey[]): string {
  return sort.map((key) => `${key.field.name}:${key.direction}`).join(',');
}

export function encodeCursor(sort: SortKey[], direction: 'n' | 'p', keys: KeyValue[]): string {
  const token: CursorToken = { s: sortSignature(sort), d: direction, k: keys };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

/** A date key as the service writes it (`2026-05-06 07:08:09.123456+00`); any offset PostgreSQL reads is accepted. */
const PG_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-]\d{2}(?::\d{2}){0,2}$/;

function isTimestampText(value: string): boolean {
  const match = PG_TIMESTAMP.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // setUTCFullYear, unlike Date.UTC, keeps years below 100 as they are.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second);
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

/**
 * Whether a key fits its sort expression, so a forged cursor is a 400 and never reaches
 * PostgreSQL as a value it cannot cast.
 */
function fitsKey(key: SortKey, value: unknown): boolean {
  if (value === null) return true;
  switch (key.field.def.kind) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX;
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && isTimestampText(value);
    case 'id':
    case 'ref':
    case 'string':
    case 'email':
    case 'enum':
    case 'i18n':
      return typeof value === 'string' && value.length <= 5000 && isStorableText(value);
    default:
      return false;
  }
}

export function decodeCursor(sort: SortKey[], cursor: string): { direction: 'n' | 'p'; keys: KeyValue[] } {
  let token: unknown;
  try {
    token = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequest('Invalid $cursor');
  }
  const t = token as Partial<CursorToken>;
  const valid =
    typeof t === 'object' &&
    t !== null &&
    (t.d === 'n' || t.d === 'p') &&
    Array.isArray(t.k) &&
    t.k.length === sort.length;
  if (!valid) throw new BadRequest('Invalid $cursor');
  if (t.s !== sortSignature(sort)) throw new BadRequest('$cursor belongs to another $sort');
  const keys = t.k as unknown[];
  if (!sort.every((key, i) => fitsKey(key, keys[i]))) throw new BadRequest('Invalid $cursor');
  return { direction: t.d as 'n' | 'p', keys: keys as KeyValue[] };
}

/**
 * Restricts a query to the rows after (or before) a position in the sort order.
 * With one direction throughout it is a row comparison, which an index on the sort columns serves.
 * With mixed directions (`createdAt: -1` then the id ascending, the users' default) it is an OR
 * of one branch per key, which PostgreSQL cannot turn into an index range; a redundant range on
 * the first key (`created_at <= v` going down) can be, so a deep page starts where it should
 * instead of filtering every row before it.
 */
export function applyKeyset(
  knex: Knex,
  fields: EntityFields,
  builder: Knex.QueryBuilder,
  sort: SortKey[],
  keys: KeyValue[],
  forward: boolean,
): void {
  const exprs = sort.map((key) => fields.sortExpression(knex, key.field));
  const at = <T>(list: T[], i: number): T => list[i] as T;
  const after = (direction: 1 | -1) => ((direction === 1) === forward ? '>' : '<');
  const first = sort[0];
  if (first && sort.every((key) => key.direction === first.direction)) {
    const placeholders = exprs.map(() => '?').join(', ');
    builder.whereRaw(`(${placeholders}) ${after(first.direction)} (${placeholders})`, [...exprs, ...keys]);
    return;
  }
  const firstKey = at(keys, 0);
  // Implied by the branches below; there for the index. (A null key matches no range: none is added.)
  if (first && firstKey !== null) builder.whereRaw(`? ${after(first.direction)}= ?`, [at(exprs, 0), firstKey]);
  builder.where((group) => {
    sort.forEach((key, i) => {
      group.orWhere((branch) => {
        for (let j = 0; j < i; j++) branch.whereRaw('? = ?', [at(exprs, j), at(keys, j)]);
        branch.whereRaw(`? ${after(key.direction)} ?`, [at(exprs, i), at(keys, i)]);
      });
    });
  });
}
