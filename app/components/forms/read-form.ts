import type { z } from '../../../domain/zod.ts';
import { type FormErrors, formErrors } from '../../../domain/forms/messages';

/**
 * A form read by its schema: the typed values, or each field's first problem as a message key;
 * and what was sent, to show again should the form be refused.
 */
export type FormRead<T> =
  | { ok: true; values: T; input: Record<string, unknown> }
  | { ok: false; errors: FormErrors; input: Record<string, unknown> };

/** Every field of a form as sent: a name given once is a string, given several times a list. */
export function entriesOf(form: FormData): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name).filter((value) => typeof value === 'string');
    input[name] = values.length > 1 ? values : values[0];
  }
  return input;
}

/** Checks answers already read with the form's schema (the definition's rules). */
export function checkForm<S extends z.ZodType>(schema: S, input: Record<string, unknown>): FormRead<z.output<S>> {
  const parsed = schema.safeParse(input);
  return parsed.success
    ? { ok: true, values: parsed.data, input }
    : { ok: false, errors: formErrors(parsed.error, input), input };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a request's form with its schema: a posted form (urlencoded or multipart, read by `read`,
 * the form's own reader in domain/forms, or field by field), or a JSON body (a page's script
 * calling its action). Anything that is not an object reads as an empty form.
 */
export async function readForm<S extends z.ZodType>(
  request: Request,
  schema: S,
  read: (form: FormData) => Record<string, unknown> = entriesOf,
): Promise<FormRead<z.output<S>>> {
  if (request.headers.get('content-type')?.startsWith('application/json')) {
    const body: unknown = await request.json().catch(() => null);
    return checkForm(schema, isRecord(body) ? body : {});
  }
  return checkForm(schema, read(await request.formData()));
}

/**
 * Reads a form whose schema takes every answer as sent (each field with a `.catch` fallback), for
 * an action whose service checks the answers itself (a sign-in, a device's name): the typed values,
 * never a refusal.
 */
export async function readAsSent<S extends z.ZodType>(
  request: Request,
  schema: S,
  read?: (form: FormData) => Record<string, unknown>,
): Promise<z.output<S>> {
  const form = await readForm(request, schema, read);
  return form.ok ? form.values : schema.parse({});
}
