import type { JsonSchema } from './registry.ts';

/*
 * A request body's `example` in the API's reference (decision 058), written from its JSON Schema
 * alone: the smallest value that the schema accepts (the required fields of an object, the fewest
 * items of a list), each value from its type, enum, const, format, pattern and bounds. The
 * conformance test sends these examples and expects them to be written; a record that needs an
 * existing record's id gets it there, not here (a document cannot know one).
 */

/** Texts tried, in order, for a string with a pattern: the first one it and its bounds accept. */
const CANDIDATES = [
  'example',
  'example-1',
  'Example text',
  'Kowloon2026',
  'hk',
  'HK',
  'en',
  '+852',
  '+852 2345 6789',
  '23456789',
  '6b0bd7d2bb2844bf4f249b55',
  'Asia/Hong_Kong',
  '#1a73e8',
  '2026-12-01',
  '09:30',
  'https://example.com/',
  'abcdefghijklmnopqrstuvwxyz0123456789',
];

const FORMATS: Record<string, string> = {
  email: 'chan.tai.man@example.com',
  'date-time': '2026-12-01T09:30:00.000Z',
  date: '2026-12-01',
  time: '09:30:00',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '3f0c2a8e-6b1d-4c55-9a7e-2d4b8f1e6a90',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
};

/** A schema with its `$ref` followed (to `#/components/schemas/...`). */
export type Resolve = (schema: JsonSchema) => JsonSchema;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The patterns a string must match: its own and those of an `allOf` (a password's rules). */
function patternsOf(schema: JsonSchema): RegExp[] {
  const own = typeof schema.pattern === 'string' ? [schema.pattern] : [];
  const all = Array.isArray(schema.allOf)
    ? schema.allOf.flatMap((one: unknown) => (isObject(one) && typeof one.pattern === 'string' ? [one.pattern] : []))
    : [];
  return [...own, ...all].map((pattern) => new RegExp(pattern, 'u'));
}

/** Texts a property's name asks for where its schema has no format: an email without `format: email`. */
const BY_NAME: [RegExp, string][] = [
  [/email/i, FORMATS.email as string],
  [/password/i, 'Kowloon2026'],
  [/date$/i, FORMATS.date as string],
  [/phone/i, '+852 2345 6789'],
  [/url|href|link/i, FORMATS.uri as string],
];

function stringOf(schema: JsonSchema, name = ''): string | undefined {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const patterns = patternsOf(schema);
  const fits = (text: string) =>
    [...text].length >= min && [...text].length <= max && patterns.every((pattern) => pattern.test(text));
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  const named = BY_NAME.find(([test]) => test.test(name))?.[1];
  const tried = [...(format ? [format] : []), ...(named ? [named] : []), ...CANDIDATES];
  const found = tried.find(fits);
  if (found !== undefined) return found;
  if (patterns.length > 0) return undefined;
  // No pattern: a plain text cut or padded to the bounds.
  return 'Example text'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, 12)));
}

function numberOf(schema: JsonSchema, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + 1
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - 1
        : undefined;
  let value = Math.max(min ?? 1, 1);
  if (max !== undefined) value = Math.min(value, max);
  if (typeof schema.multipleOf === 'number') value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
  return integer ? Math.round(value) : value;
}

/**
 * A value the schema accepts, or `undefined` where none could be written (a pattern no candidate
 * meets): the caller then leaves the example out rather than show a wrong one.
 */
export function exampleOf(schema: JsonSchema, resolve: Resolve = (s) => s, depth = 0, name = ''): unknown {
  if (depth > 12) return undefined;
  const own = resolve(schema);
  if ('example' in own) return own.example;
  if (Array.isArray(own.examples) && own.examples.length > 0) return own.examples[0];
  if ('const' in own) return own.const;
  if ('default' in own && own.default !== undefined) return own.default;
  if (Array.isArray(own.enum)) return own.enum.find((value) => value !== null);
  // Alternatives that only name which fields an object needs (one of two ways to pay): the first one's.
  const needs = (Array.isArray(own.oneOf) ? own.oneOf : Array.isArray(own.anyOf) ? own.anyOf : []) as unknown[];
  if (
    isObject(own.properties) &&
    needs.length > 0 &&
    needs.every((one) => isObject(one) && Object.keys(one).every((key) => key === 'required'))
  ) {
    const { oneOf: _oneOf, anyOf: _anyOf, ...object } = own;
    const first = (needs[0] as JsonSchema).required;
    const required = [...(Array.isArray(own.required) ? own.required : []), ...(Array.isArray(first) ? first : [])];
    return exampleOf({ ...object, required }, resolve, depth + 1, name);
  }
  const alternatives = (Array.isArray(own.anyOf) ? own.anyOf : Array.isArray(own.oneOf) ? own.oneOf : []).filter(
    (one: unknown) => isObject(one) && one.type !== 'null',
  ) as JsonSchema[];
  if (alternatives.length > 0) {
    for (const one of alternatives) {
      const value = exampleOf(one, resolve, depth + 1, name);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  const types = Array.isArray(own.type) ? own.type.filter((type) => type !== 'null') : [own.type];
  const type =
    types[0] ?? (own.properties ? 'object' : own.items ? 'array' : own.pattern || own.format ? 'string' : undefined);
  switch (type) {
    case 'object': {
      const properties = isObject(own.properties) ? own.properties : {};
      const required = Array.isArray(own.required) ? (own.required as string[]) : [];
      const value: Record<string, unknown> = {};
      for (const key of required) {
        const property = properties[key];
        const inner = isObject(property) ? exampleOf(property, resolve, depth + 1, key) : 'example';
        if (inner === undefined) return undefined;
        value[key] = inner;
      }
      return value;
    }
    case 'array': {
      const count = typeof own.minItems === 'number' ? own.minItems : 0;
      const item = isObject(own.items) ? exampleOf(own.items, resolve, depth + 1) : 'example';
      if (count > 0 && item === undefined) return undefined;
      return Array.from({ length: count }, () => item);
    }
    case 'string':
      return stringOf(own, name);
    case 'integer':
      return numberOf(own, true);
    case 'number':
      return numberOf(own, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

/**
 * A patch's example: the fields of the create's example the patch takes (not passwords, which a
 * patch changes with their own rules), or, without a create, the first field the patch takes.
 */
export function patchExampleOf(
  patch: JsonSchema,
  createExample: unknown,
  resolve: Resolve = (s) => s,
): Record<string, unknown> | undefined {
  const properties = isObject(patch.properties) ? patch.properties : {};
  const names = Object.keys(properties).filter((name) => {
    const property = properties[name];
    return !name.startsWith('$') && !(isObject(property) && property.writeOnly) && !/password/i.test(name);
  });
  if (isObject(createExample)) {
    const taken = Object.fromEntries(Object.entries(createExample).filter(([name]) => names.includes(name)));
    if (Object.keys(taken).length > 0) return taken;
  }
  for (const name of names) {
    const value = exampleOf(properties[name] as JsonSchema, resolve, 0, name);
    if (value !== undefined) return { [name]: value };
  }
  return undefined;
}
