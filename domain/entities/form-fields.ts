import type { z } from '../zod.ts';
import type { FieldDef, FieldKind } from './types.ts';

/**
 * The fields of a form's schema: each validated by its own schema, required when the schema
 * refuses nothing, of the kind `kinds` gives (text otherwise), with what `extra` adds.
 */
export type FormFields<Shape extends z.core.$ZodShape, Kinds, Extra> = {
  [K in keyof Shape & string]: {
    kind: K extends keyof Kinds ? Exclude<Kinds[K], undefined> : 'string';
    schema: Shape[K];
    required: undefined extends z.input<Shape[K]> ? false : true;
  } & (K extends keyof Extra ? Extra[K] : unknown);
};

/**
 * Entity fields taken from a form's schema, so the service validates with the very schema the
 * browser form uses. `extra` adds what the table shows and searches.
 */
export function fieldsFromForm<
  Shape extends z.core.$ZodShape,
  const Kinds extends { [K in keyof Shape]?: FieldKind },
  const Extra extends { [K in keyof Shape]?: Partial<FieldDef> } = Record<never, never>,
>(schema: z.ZodObject<Shape>, kinds: Kinds, extra?: Extra): FormFields<Shape, Kinds, Extra>;
// Each field's `required` is worked out as its type says: whether its schema accepts no value.
export function fieldsFromForm(
  schema: z.ZodObject,
  kinds: Partial<Record<string, FieldKind>>,
  extra: Partial<Record<string, Partial<FieldDef>>> = {},
): Record<string, FieldDef> {
  const fields: Record<string, FieldDef> = {};
  for (const [name, inner] of Object.entries(schema.shape)) {
    const field = inner as z.ZodType;
    fields[name] = {
      kind: kinds[name] ?? 'string',
      schema: field,
      required: !field.safeParse(undefined).success,
      ...extra[name],
    };
  }
  return fields;
}
