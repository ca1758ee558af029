/*
 * Which field of a form is in error, without the form's controls: what `useFieldErrors` and the
 * record form read an answer's errors with (no messages of their own, so a page that shows no
 * field of `fields.tsx` does not need their group).
 */

/** A field's error, or for a list the first of its items' (`regions`, `regions.1.code`). */
export function errorUnder(errors: Record<string, string> | undefined, name: string): string | undefined {
  if (!errors) return undefined;
  return errors[name] || Object.entries(errors).find(([key]) => key.startsWith(`${name}.`))?.[1];
}

/** The name of the first field with an error (its own, or one of its items'), in the form's order. */
export function firstInvalid(order: readonly string[], errors: Record<string, string> | undefined): string | undefined {
  return errors ? order.find((name) => errorUnder(errors, name)) : undefined;
}
