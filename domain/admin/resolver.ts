import type { FieldErrors, Resolver } from 'react-hook-form';
import type { EntityDef } from '../entities/types.ts';
import {
  checkChanges,
  formChanges,
  inputName,
  inputValue,
  itemCountName,
  itemInputName,
  itemInputValue,
} from './form.ts';
import type { AdminField } from './screens.ts';

/*
 * The editor's form state on react-hook-form (decision 039): the values of its inputs by their
 * names (`v.email`, `v.name.en`, `v.mapHongKong.latitude`), what they start from, and the check a
 * save goes through first. The check reads the values exactly as the server reads the posted form
 * (`formChanges`) and checks them with the service's own schema and rules (`checkChanges`), so the
 * editor's messages are the service's, in the staff member's language.
 */

type EditorField = AdminField & { editable: boolean };

/** One field's value in the form: its input's text, a checkbox's state, its texts by language or part, a list's rows. */
export type EditorValue = string | boolean | Record<string, string> | Record<string, string>[];

/** The editor's values, as react-hook-form keeps them: the inputs' names (`v.…`) as paths. */
export interface EditorValues {
  v: Record<string, EditorValue>;
}

/**
 * What each input starts from: what the editor shows for the record (or empty ones for a new
 * record), as the browser would read it from the inputs; a password is never shown. The form is
 * unchanged while its values equal these.
 */
export function editorDefaults(
  fields: readonly EditorField[],
  record: Readonly<Record<string, unknown>> | null,
): EditorValues {
  const v: Record<string, EditorValue> = {};
  for (const field of fields) {
    if (!field.editable) continue;
    const value = record?.[field.name];
    if (field.items) {
      const items = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
      v[field.name] = items.map((item) =>
        Object.fromEntries(
          (field.items ?? []).map((column) => [column.name, itemInputValue(column, item[column.name])]),
        ),
      );
      continue;
    }
    const shown = inputValue(field, value);
    if (field.widget === 'password') v[field.name] = '';
    else if (field.widget === 'enum' && typeof shown === 'string') {
      // A choice the list does not hold reads as the list's first (a required field) or as none.
      const choices = field.def.enum ?? [];
      v[field.name] = choices.includes(shown) ? shown : field.def.required === true ? (choices[0] ?? '') : '';
    } else v[field.name] = shown;
  }
  return { v };
}

/** The form data the inputs holding these values post: what the server's save reads. */
export function editorFormData(fields: readonly EditorField[], values: Partial<EditorValues>): FormData {
  const data = new FormData();
  const given = values.v ?? {};
  for (const field of fields) {
    if (!field.editable) continue;
    const value = given[field.name];
    if (value === undefined) continue;
    const name = inputName(field.name);
    if (field.widget === 'boolean' || field.widget === 'timestampSwitch') {
      data.append(`${name}.present`, '1');
      if (value === true) data.append(name, 'on');
    } else if (field.items) {
      const rows = Array.isArray(value) ? value : [];
      data.append(itemCountName(field.name), String(rows.length));
      rows.forEach((row, index) => {
        for (const column of field.items ?? [])
          data.append(itemInputName(field.name, index, column.name), row[column.name] ?? '');
      });
    } else if (typeof value === 'object') {
      // A text by language, or a value by part: an input each.
      for (const [part, text] of Object.entries(value as Record<string, string>))
        data.append(inputName(field.name, part), String(text ?? ''));
    } else data.append(name, String(value));
  }
  return data;
}

export interface EditorResolverOptions {
  fields: readonly EditorField[];
  /** The record as loaded (a patch sends what differs from it; its rules read it as patched); null for a new one. */
  record: Readonly<Record<string, unknown>> | null;
  /** Creating a record (every required field must be given), or patching one. */
  creating: boolean;
  /** The record's own rules across its fields (the definition's). */
  recordRules?: EntityDef['recordRules'];
  /** A message key in the staff member's language. */
  translate: (key: string) => string;
}

/** The editor's errors by field (`email`, or a part: `mapHongKong.latitude`), as react-hook-form keeps them under `v`. */
export function editorErrors(
  messages: Readonly<Record<string, { key: string; text: string }>>,
): FieldErrors<EditorValues> {
  const v: Record<string, Record<string, unknown>> = {};
  for (const [name, { key, text }] of Object.entries(messages)) {
    const [field, ...rest] = name.split('.');
    const at = (v[field as string] ??= {});
    if (rest.length === 0) Object.assign(at, { type: key, message: text });
    else at[rest.join('.')] = { type: key, message: text };
  }
  return { v } as unknown as FieldErrors<EditorValues>;
}

/**
 * The editor's resolver: what a save would send (only what changed, on a patch) checked as the
 * service checks it, each message under its field's input (`v.email`) with its key as the type
 * and its text in the staff member's language. What needs the database (an address already in
 * use) stays the service's to say, after the save.
 */
export function editorResolver({
  fields,
  record,
  creating,
  recordRules,
  translate,
}: EditorResolverOptions): Resolver<EditorValues> {
  return (values) => {
    const changes = formChanges(fields, editorFormData(fields, values), creating ? null : record);
    const problems = checkChanges(fields, changes, creating, { recordRules, stored: record });
    if (Object.keys(problems).length === 0) return { values, errors: {} };
    return {
      values: {},
      errors: editorErrors(
        Object.fromEntries(Object.entries(problems).map(([name, key]) => [name, { key, text: translate(key) }])),
      ),
    };
  };
}

/** The messages of the editor's errors by field and part (`mapHongKong.latitude`), as its fields show them. */
export function errorTexts(errors: FieldErrors<EditorValues>): Record<string, string> {
  const texts: Record<string, string> = {};
  const walk = (node: unknown, path: string) => {
    if (typeof node !== 'object' || node === null) return;
    const message = (node as { message?: unknown }).message;
    if (path && typeof message === 'string' && message) texts[path] = message;
    for (const [key, inner] of Object.entries(node)) {
      if (key === 'message' || key === 'type' || key === 'ref' || key === 'types' || key === 'root') continue;
      walk(inner, path ? `${path}.${key}` : key);
    }
  };
  walk((errors as { v?: unknown }).v, '');
  return texts;
}
