import type { EntityDef, FieldDef } from './types.ts';

/*
 * Two rules of written data that do not belong to one field's schema (decision 052): a scoped
 * definition's values must stay inside its scope, and a confirmed field (a password staff set)
 * must equal its confirmation. The entity service applies both to every write, whatever its
 * syntax; the editor applies the second before it sends.
 */

/** The message of a confirmation that is not its field's value (the spec's "Password is different"). */
export const CONFIRMATION_DIFFERS = 'validation.passwordDifferent';
/** The message of a value a scoped definition may not hold (a member made or kept through `admins`). */
export const OUT_OF_SCOPE = 'validation.outOfScope';

/** The name a confirmed field's confirmation is sent under (`passwordConfirm`). */
export const confirmationName = (field: string) => `${field}Confirm`;

/** The confirmed fields of a definition (`confirmed: true`). */
export function confirmedFields(fields: Readonly<Record<string, FieldDef>>): string[] {
  return Object.entries(fields)
    .filter(([, field]) => field.confirmed === true)
    .map(([name]) => name);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The values a write gives its fields: a create's data, or a patch's plain keys and its `$set`
 * paths (a `$set` of a field replaces it as plain data does). Operators' other contents (`$push`,
 * `$pull`) write lists only, which no scope or confirmation reads.
 */
export function writtenValues(data: unknown): Record<string, unknown> {
  if (!isRecord(data)) return {};
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!key.startsWith('$')) values[key] = value;
  if (isRecord(data.$set)) for (const [key, value] of Object.entries(data.$set)) values[key] = value;
  return values;
}

/**
 * The confirmations taken out of written data (plain, or in a `$set`), each checked against the
 * value its field is given in the same write: what is left is the data to validate and write, and
 * a message for each confirmation that differs. A confirmation without its field differs too.
 */
export function takeConfirmations(
  fields: Readonly<Record<string, FieldDef>>,
  data: Record<string, unknown>,
): { data: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const values = writtenValues(data);
  const confirmed = confirmedFields(fields).filter((name) => Object.hasOwn(values, confirmationName(name)));
  // Nothing to take: the data itself (a hook's validated create data stays the object it checked).
  if (confirmed.length === 0) return { data, errors };
  const rest: Record<string, unknown> = { ...data };
  const set = isRecord(data.$set) ? { ...data.$set } : undefined;
  for (const name of confirmed) {
    const key = confirmationName(name);
    delete rest[key];
    if (set) delete set[key];
    if (values[key] !== values[name]) errors[key] = CONFIRMATION_DIFFERS;
  }
  if (set && Object.keys(set).length > 0) rest.$set = set;
  else if (set) delete rest.$set;
  return { data: rest, errors };
}

/**
 * The values of a write that would leave a scoped definition's scope (`scope`), by field: one not
 * among the field's allowed values, or emptied. A value that is not plain (an object, a list) is
 * left to the field's own schema, which refuses it.
 */
export function scopeProblems(def: EntityDef, data: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!def.scope) return errors;
  const values = writtenValues(data);
  for (const [name, allowed] of Object.entries(def.scope)) {
    if (!Object.hasOwn(values, name)) continue;
    const value = values[name];
    const plain = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    if (value === null || (plain && !allowed.includes(value))) errors[name] = OUT_OF_SCOPE;
  }
  return errors;
}
