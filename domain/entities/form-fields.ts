import type { z } from 'zod';
import type { FieldDef } from './types.ts';

/**
 * Entity fields taken from a form's schema, so the service validates with the very schema the
 * browser form uses. `extra` adds what the table shows and searches.
 */
export function fieldsFromForm(
  schema: z.ZodObject,
  kinds: Record<string, FieldDef['kind']>,
  extra: Record<string, Partial<FieldDef>> = {},
): Record<string, FieldDef> {
  const fields: Record<string, FieldDef> = {};
  for (const [name, inner] of Object.entries(schema.shape)) {
    const field = inner as z.ZodType;
    fields[name] = { kind: kinds[name] ?? 'string', schema: field, required: !field.safeParse(undefined).success, ...extra[name] };
  }
  return fields;
}
