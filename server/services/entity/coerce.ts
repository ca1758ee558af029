import { BadRequest } from '@feathersjs/errors';
import type { ResolvedField } from './fields.ts';

/** The range of a PostgreSQL `integer` column: a value beyond it is a database error, not a miss. */
export const INT_MIN = -2_147_483_648;
export const INT_MAX = 2_147_483_647;
/** Dates PostgreSQL and JavaScript both hold, with room for the one-millisecond steps of comparisons. */
const MIN_DATE = Date.parse('0001-01-01T00:00:00Z');
const MAX_DATE = Date.parse('9999-12-31T00:00:00Z');

/**
 * Text PostgreSQL can take: no NUL character (refused in text and jsonb) and no lone surrogate
 * (refused as a jsonb escape). Anything else would be a database error instead of a 400.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}

/**
 * Turns a query value (a string when it came over REST) into the field's type,
 * rejecting what cannot be one. Never passes objects through to SQL.
 */
export function coerceQueryValue(field: ResolvedField, value: unknown): string | number | boolean | Date | null {
  if (value === null) return null;
  const kind = field.def.kind;
  const fail = () =>
    new BadRequest(`Invalid value for '${field.name}'`, { errors: { [field.name]: 'validation.invalid' } });
  switch (kind) {
    case 'integer': {
      const n = typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
      if (typeof n === 'number' && Number.isInteger(n) && n >= INT_MIN && n <= INT_MAX) return n;
      throw fail();
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      if (value === 'true') return true;
      if (value === 'false') return false;
      throw fail();
    }
    case 'date': {
      if (typeof value !== 'string' && typeof value !== 'number' && !(value instanceof Date)) throw fail();
      const date = new Date(value);
      const time = date.getTime();
      if (Number.isNaN(time) || time < MIN_DATE || time > MAX_DATE) throw fail();
      return date;
    }
    case 'id':
    case 'ref':
    case 'string':
    case 'email':
    case 'enum': {
      if (typeof value === 'number') return String(value);
      if (typeof value !== 'string' || value.length > 500 || !isStorableText(value)) throw fail();
      return kind === 'email' ? value.toLowerCase() : value;
    }
    default:
      throw new BadRequest(`Field '${field.name}' cannot be filtered`);
  }
}

/** Query parameters that are numbers (REST sends strings); a bad one is a 400 naming it, in the caller's language. */
export function toInteger(value: unknown, name: string, min: number, max: number): number {
  const n = typeof value === 'string' && /^-?\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new BadRequest('errors.queryInteger', { name, min, max });
  }
  return n;
}

/** Text shorter than this searches from the start of a value (see `searchesByPrefix`). */
export const CONTAINS_MIN_LENGTH = 3;

/** Chinese, Japanese and Korean characters, whose words are one or two characters long. */
const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Free text shorter than three characters matches at the start of a value (`ab%`), not anywhere
 * in it: a trigram index finds the start's trigrams (`  a`, ` ab`) but holds none for `%ab%`, so
 * that search would read the whole table, and two letters match most of a large one anyway.
 * Two Chinese characters are often a whole word (餅店) found in the middle of a name, and text of
 * punctuation alone has no trigram either way: both still match anywhere.
 */
export function searchesByPrefix(literal: string): boolean {
  return [...literal].length < CONTAINS_MIN_LENGTH && LETTER_OR_DIGIT.test(literal) && !IDEOGRAPHIC.test(literal);
}

/**
 * Turns a `$regex` pattern into a LIKE pattern matching the same literal text: anywhere in the
 * value, from its start or end with `^` and `$`, and from the start for short free text
 * (`searchesByPrefix`). `%`, `_` and `\` in the text are escaped, so they match only themselves.
 */
export function regexToLike(pattern: string): string {
  let anchoredStart = false;
  let anchoredEnd = false;
  let source = pattern;
  if (source.startsWith('^')) {
    anchoredStart = true;
    source = source.slice(1);
  }
  // A `$` ends the pattern as an anchor unless escaped, that is after an odd run of backslashes.
  const backslashes = /\\*(?=\$$)/.exec(source)?.[0].length ?? 0;
  if (source.endsWith('$') && backslashes % 2 === 0) {
    anchoredEnd = true;
    source = source.slice(0, -1);
  }
  // Escaped characters (\. \( ...) mean themselves; the pattern is matched as literal text.
  const literal = source.replace(/\\(.)/g, '$1');
  const escaped = literal.replace(/[\\%_]/g, (c) => `\\${c}`);
  const fromStart = anchoredStart || (!anchoredEnd && searchesByPrefix(literal));
  return `${fromStart ? '' : '%'}${escaped}${anchoredEnd ? '' : '%'}`;
}
