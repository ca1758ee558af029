import { BadRequest } from '@feathersjs/errors';
import { z } from '../../../domain/zod.ts';
import { type EntityDef, type FieldDef, valueSchema } from '../../../domain/entities/types.ts';
import { issueMessage as issueKey } from '../../../domain/entities/issues.ts';
import { withRule } from '../../../domain/forms/fields.ts';
import { isMessageKey } from '../../i18n.ts';
import { isStorableText } from './coerce.ts';

export type FieldErrors = Record<string, string>;

/** Maps a zod issue to a message key that every locale translates (the catalogue's own keys only). */
export function issueMessage(issue: z.core.$ZodIssue, input?: unknown): string {
  return issueKey(issue, input, isMessageKey);
}

export function fieldErrors(error: z.ZodError, prefix = '', input?: unknown): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '_';
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        errors[[path === '_' ? '' : path, key].filter(Boolean).join('.')] = 'validation.unknownField';
    } else {
      errors[path] ??= issueMessage(issue, input);
    }
  }
  return errors;
}

/**
 * Text PostgreSQL cannot store (a NUL character, a lone surrogate) anywhere in validated data,
 * which is shallow: records with lists of small objects.
 */
function unstorableText(value: unknown, path: string, errors: FieldErrors): FieldErrors {
  if (typeof value === 'string') {
    if (!isStorableText(value)) errors[path || '_'] = 'validation.invalid';
  } else if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    for (const [key, inner] of Object.entries(value)) unstorableText(inner, path ? `${path}.${key}` : key, errors);
  }
  return errors;
}

/** Runs a schema over written data and answers the data, or throws a BadRequest with per-field errors. */
function check(schema: z.ZodType, data: unknown, prefix = ''): unknown {
  const result = schema.safeParse(data);
  if (!result.success) throw invalid(fieldErrors(result.error, prefix, data));
  const errors = unstorableText(result.data, prefix, {});
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return result.data;
}

export function invalid(errors: FieldErrors): BadRequest {
  return new BadRequest('validation.failed', { errors });
}

function writableFields(def: EntityDef): [string, FieldDef][] {
  return Object.entries(def.fields).filter(([, field]) => !field.readonly);
}

/**
 * Create data that `validateCreate` answered, with the definition it met. A service's own hook that
 * must read valid data before the write (a duplicate, an earlier subscription) hands it on as it is,
 * and the service does not check it a second time. Frozen, so what was checked is what is written.
 */
const validCreates = new WeakMap<object, EntityDef>();

/** Validates create data: required fields present, nothing unknown or read-only, the record's own rules met. */
export function validateCreate(def: EntityDef, data: unknown): Readonly<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of writableFields(def)) {
    const schema = valueSchema(field);
    shape[name] = field.required ? schema : field.defaulted ? schema.optional() : schema.optional().nullable();
  }
  const record = z.object(shape).strict();
  const valid = Object.freeze(
    check(def.recordRules ? withRule(record, def.recordRules) : record, data) as Record<string, unknown>,
  );
  validCreates.set(valid, def);
  return valid;
}

function isValidCreate(def: EntityDef, data: unknown): data is Readonly<Record<string, unknown>> {
  return typeof data === 'object' && data !== null && validCreates.get(data) === def;
}

/** Create data checked once per write: as `validateCreate` answered it to a hook, or checked now. */
export function createData(def: EntityDef, data: unknown): Readonly<Record<string, unknown>> {
  return isValidCreate(def, data) ? data : validateCreate(def, data);
}

/**
 * Validates the plain (non-operator) part of patch data. `current`, the stored record, is what the
 * record's own rules need (the entity service gives it): they read the record as the patch leaves it.
 */
export function validatePatch(
  def: EntityDef,
  data: Record<string, unknown>,
  current?: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of writableFields(def)) {
    const schema = valueSchema(field);
    // A field the table always holds (required, or given a default) cannot be emptied.
    shape[name] = field.required || field.defaulted ? schema.optional() : schema.optional().nullable();
  }
  const patch = z.object(shape).strict();
  const rules = def.recordRules;
  const schema =
    rules && current ? withRule(patch, (written) => rules({ ...current, ...withoutUndefined(written) })) : patch;
  return check(schema, data) as Record<string, unknown>;
}

/** A patch's fields that it writes: one left `undefined` keeps the stored value. */
function withoutUndefined(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
}

/** Validates one list item written by `$push` or `$set path.$`. */
export function validateListItem(field: FieldDef, name: string, item: unknown): unknown {
  return check(field.item ?? z.unknown(), item, name);
}
