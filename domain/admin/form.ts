import { issueMessage } from '../entities/issues.ts';
import { CONFIRMATION_DIFFERS } from '../entities/scope.ts';
import { valueSchema, type EntityDef, type Widget } from '../entities/types.ts';
import { coordinatePair, DAY_RANGE_PARTS, MAP_POINT_PARTS, typedColour } from '../entities/widget-values.ts';
import { formatIsoDate, formatIsoDateTime } from '../format.ts';
import { isDay } from '../validation/day.ts';
import { LOCALES } from '../locales.ts';
import { CURRENCY_MULTIPLIER } from '../money.ts';
import type { AdminField, ItemColumn } from './screens.ts';

/*
 * The editor's form, both ways (decision 034): a record's values as the inputs show them, and the
 * inputs read back into the values a service takes. Checking them is the service's work: the
 * same schema as every other path, its errors shown per field.
 */

/** The name of a field's input (`v.name`); a text in several languages has one per language (`v.name.en`). */
export const inputName = (field: string, locale?: string) => (locale ? `v.${field}.${locale}` : `v.${field}`);

/** A text in each language (plain or rich): an input per language. */
export function translated(field: AdminField): boolean {
  return field.def.kind === 'i18n' || field.widget === 'i18nText';
}

/** The widgets written as several inputs, one per part of the value (`v.mapHongKong.latitude`). */
const PARTS: Partial<Record<Widget, readonly string[]>> = { mapPoint: MAP_POINT_PARTS, dateRange: DAY_RANGE_PARTS };

/** The parts of a widget written as several inputs, or none. */
export function partsOf(field: AdminField): readonly string[] | undefined {
  return PARTS[field.widget];
}

/** What the inputs show for a record's value. */
export function inputValue(field: AdminField, value: unknown): string | Record<string, string> | boolean {
  if (translated(field)) {
    const text = (value ?? {}) as Record<string, unknown>;
    return Object.fromEntries(LOCALES.map((locale) => [locale, typeof text[locale] === 'string' ? text[locale] : '']));
  }
  const parts = partsOf(field);
  if (parts) {
    const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    return Object.fromEntries(
      parts.map((part) => [part, record[part] === undefined || record[part] === null ? '' : String(record[part])]),
    );
  }
  if (value === null || value === undefined)
    return field.widget === 'boolean' || field.widget === 'timestampSwitch' ? false : '';
  switch (field.widget) {
    case 'boolean':
      return value === true;
    case 'timestampSwitch':
      // On while the moment is set.
      return true;
    case 'day':
      // The day as kept: an `<input type="date">` shows and sends it so, with no time zone between.
      return typeof value === 'string' && isDay(value.slice(0, 10)) ? value.slice(0, 10) : String(value);
    case 'money':
      return typeof value === 'number' ? (value / CURRENCY_MULTIPLIER).toFixed(2) : '';
    case 'date':
      return formatIsoDate(value as string);
    case 'dateTime':
      return formatIsoDateTime(value as string);
    case 'list':
    case 'refs':
    case 'gallery':
      return Array.isArray(value) ? value.map(String).join('\n') : '';
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** A number as typed (digits, a minus, a point); anything else is passed on as text for the service to refuse. */
function numberOf(text: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/**
 * One field's value from the submitted form: `undefined` when the form does not carry it (a field
 * the editor did not show), `null` for an emptied optional field.
 */
export function readInput(field: AdminField, form: FormData): unknown {
  const name = inputName(field.name);
  if (field.widget === 'boolean') return form.has(`${name}.present`) ? form.get(name) === 'on' : undefined;
  // A switch that sets a moment: on is `true` (the moment is chosen by `formChanges`), off clears it.
  if (field.widget === 'timestampSwitch')
    return form.has(`${name}.present`) ? (form.get(name) === 'on' ? true : null) : undefined;
  if (translated(field)) {
    if (!LOCALES.some((locale) => form.has(inputName(field.name, locale)))) return undefined;
    const text: Record<string, string> = {};
    for (const locale of LOCALES) {
      const value = String(form.get(inputName(field.name, locale)) ?? '').trim();
      if (value) text[locale] = value;
    }
    if (Object.keys(text).length > 0) return text;
    // A text stored as `{}` when empty (a defaulted one, such as a plan's description) is emptied to that, not to null.
    return field.def.defaulted && !field.def.required ? {} : null;
  }
  if (field.items) return readItems(field, form);
  const parts = partsOf(field);
  if (parts) return readParts(field, parts, form);
  if (!form.has(name)) return undefined;
  const raw = String(form.get(name) ?? '');
  const text = field.widget === 'password' ? raw : raw.trim();
  if (field.widget === 'list' || field.widget === 'refs' || field.widget === 'gallery') {
    return text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
  }
  if (text === '') return null;
  switch (field.widget) {
    case 'number':
      return numberOf(text);
    case 'money': {
      const amount = numberOf(text);
      return typeof amount === 'number' ? Math.round(amount * CURRENCY_MULTIPLIER) : amount;
    }
    case 'date':
      // A day typed in Hong Kong: its start there.
      return /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00+08:00`).toISOString() : text;
    case 'dateTime':
      // A time typed on Hong Kong's clock (seconds, when a browser sends them, are kept).
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text)
        ? new Date(`${text.length === 16 ? `${text}:00` : text}+08:00`).toISOString()
        : text;
    case 'color':
      return typedColour(text);
    default:
      return text;
  }
}

/**
 * A value written as several inputs: each part given (numbers as numbers for a map point), in the
 * parts' order; `null` when every input is empty. A coordinate's box holding a pasted pair
 * (`22.28, 114.16`) is the latitude and the longitude, also when the page's scripts have not run.
 */
function readParts(
  field: AdminField,
  parts: readonly string[],
  form: FormData,
): Record<string, unknown> | null | undefined {
  if (!parts.some((part) => form.has(inputName(field.name, part)))) return undefined;
  const texts: Record<string, string> = Object.fromEntries(
    parts.map((part) => [part, String(form.get(inputName(field.name, part)) ?? '').trim()]),
  );
  if (Object.values(texts).every((text) => text === '')) return null;
  const mapPoint = field.widget === 'mapPoint';
  const pair = mapPoint ? (coordinatePair(texts.latitude ?? '') ?? coordinatePair(texts.longitude ?? '')) : null;
  const value: Record<string, unknown> = {};
  for (const part of parts) {
    if (pair && (part === 'latitude' || part === 'longitude')) value[part] = pair[part];
    else if (texts[part]) value[part] = mapPoint ? numberOf(texts[part]) : texts[part];
  }
  return value;
}

/** A value with its objects' keys in one order: the database keeps a JSON object's keys in its own. */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, inner]) => [key, ordered(inner)]),
  );
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return new Date(a as string).getTime() === new Date(b as string).getTime();
  return JSON.stringify(ordered(a ?? null)) === JSON.stringify(ordered(b ?? null));
}

/**
 * What to send: on create, every value given (empty ones left out, so defaults apply); on patch,
 * only the fields that differ from the record as it was loaded, so a save never rewrites what
 * another person changed in a field this one did not touch.
 */
export function formChanges(
  fields: readonly (AdminField & { editable: boolean })[],
  form: FormData,
  original: Record<string, unknown> | null,
  /** When a switch switched on now says it happened (tests fix it). */
  now?: Date,
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of fields) {
    if (!field.editable) continue;
    let value = readInput(field, form);
    if (value === undefined) continue;
    // A switch left on keeps the moment it was switched on; switched on now, it is now.
    if (field.widget === 'timestampSwitch' && value === true) {
      if (original?.[field.name]) continue;
      value = (now ?? new Date()).toISOString();
    }
    if (!original) {
      const empty =
        value === null ||
        (Array.isArray(value) ? value.length === 0 : typeof value === 'object' && Object.keys(value).length === 0);
      if (!empty) data[field.name] = value;
      continue;
    }
    if (
      field.widget === 'date' &&
      value !== null &&
      original[field.name] &&
      formatIsoDate(original[field.name] as string) === formatIsoDate(value as string)
    )
      continue;
    // A time is typed to the minute: the same minute is no change.
    if (
      field.widget === 'dateTime' &&
      value !== null &&
      original[field.name] &&
      formatIsoDateTime(original[field.name] as string) === formatIsoDateTime(value as string)
    )
      continue;
    if (!same(value, original[field.name])) data[field.name] = value;
  }
  return data;
}

/**
 * What the editor can tell before it sends a save (decision 039): each value it would send checked
 * by its definition's own schema, the one the service checks with, on create each required field
 * given, then the record's own rules across fields. Message keys by field, as the service would
 * answer them; what needs the database (a duplicate address) stays the service's to say. The
 * editor's react-hook-form resolver runs it (`editorResolver`, resolver.ts).
 */
export function checkChanges(
  fields: readonly (AdminField & { editable: boolean })[],
  changes: Record<string, unknown>,
  creating: boolean,
  /** The record's own rules across its fields, and the record as stored (a patch's rules read it as patched). */
  rules?: { recordRules?: EntityDef['recordRules']; stored?: Readonly<Record<string, unknown>> | null },
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    if (!field.editable || field.items) continue;
    // A confirmation equals its field's value as sent (both left out, on an edit that keeps the password).
    if (field.confirms !== undefined) {
      const confirmation = changes[field.name] ?? null;
      const value = changes[field.confirms] ?? null;
      if (confirmation !== value) errors[field.name] = CONFIRMATION_DIFFERS;
      continue;
    }
    if (!Object.hasOwn(changes, field.name)) {
      if (creating && field.def.required && !field.def.defaulted) errors[field.name] = 'validation.required';
      continue;
    }
    const value = changes[field.name];
    if (value === null) {
      if (field.def.required) errors[field.name] = 'validation.required';
      continue;
    }
    const result = valueSchema(field.def).safeParse(value);
    if (result.success) continue;
    // A value of several inputs says which part is wrong (`mapHongKong.latitude`), as the service does.
    const issues = partsOf(field) ? result.error.issues : result.error.issues.slice(0, 1);
    for (const issue of issues)
      errors[
        partsOf(field) && issue.path.length > 0 ? [field.name, ...issue.path.map(String)].join('.') : field.name
      ] ??= issueMessage(issue, value);
  }
  // Each field as it should be: then the rules that read them together (a campaign's address).
  if (Object.keys(errors).length === 0 && rules?.recordRules) {
    const editable = new Set(fields.filter((field) => field.editable).map((field) => field.name));
    const record = creating ? changes : { ...rules.stored, ...changes };
    for (const [name, key] of Object.entries(rules.recordRules(record))) if (editable.has(name)) errors[name] ??= key;
  }
  return errors;
}

/** What a list's item input shows for its value: money in dollars, the rest as text. */
export function itemInputValue(column: ItemColumn, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (column.widget === 'money' && typeof value === 'number') return (value / CURRENCY_MULTIPLIER).toFixed(2);
  return String(value);
}

/** The input of one field of a list's item (`v.modules.0.count`). */
export const itemInputName = (field: string, index: number, column: string) => `v.${field}.${index}.${column}`;
/** How many rows of a list the form sends. */
export const itemCountName = (field: string) => `v.${field}.rows`;
/** Most items a list of records is written with. */
const MAX_ITEMS = 500;

/** A list of records from its rows: each row's fields, numbers as numbers, money in cents; empty rows left out. */
function readItems(field: AdminField, form: FormData): Record<string, unknown>[] | undefined {
  if (!form.has(itemCountName(field.name))) return undefined;
  const count = Math.min(MAX_ITEMS, Math.max(0, Number(form.get(itemCountName(field.name))) || 0));
  const items: Record<string, unknown>[] = [];
  for (let index = 0; index < count; index += 1) {
    const item: Record<string, unknown> = {};
    for (const column of field.items ?? []) {
      const text = String(form.get(itemInputName(field.name, index, column.name)) ?? '').trim();
      if (text === '') continue;
      if (column.widget === 'number') item[column.name] = numberOf(text);
      else if (column.widget === 'money') {
        const amount = numberOf(text);
        item[column.name] = typeof amount === 'number' ? Math.round(amount * CURRENCY_MULTIPLIER) : amount;
      } else item[column.name] = text;
    }
    if (Object.keys(item).length > 0) items.push(item);
  }
  return items;
}

type Item = Record<string, unknown>;

/**
 * How a changed list of records is sent: one item added, removed or changed as `$push`, `$pull` or
 * `$set` on `list.$` (what Mongo-style clients send, and what leaves the rest of the list as it is
 * on the server); several changes at once, or a new order, as the whole list.
 */
export function listChange(
  name: string,
  key: string,
  before: readonly Item[],
  after: readonly Item[],
): Record<string, unknown> {
  const keyOf = (item: Item) => String(item[key]);
  const beforeKeys = before.map(keyOf);
  const afterKeys = after.map(keyOf);
  const added = after.filter((item) => !beforeKeys.includes(keyOf(item)));
  const removed = before.filter((item) => !afterKeys.includes(keyOf(item)));
  const changed = after.filter((item) => {
    const old = before.find((candidate) => keyOf(candidate) === keyOf(item));
    return old !== undefined && !same({ ...old, ...item }, old);
  });
  const kept = afterKeys.filter((k) => beforeKeys.includes(k));
  const sameOrder = kept.every((k, index) => k === beforeKeys.filter((b) => afterKeys.includes(b))[index]);
  const changes = added.length + removed.length + changed.length;
  if (changes === 1 && sameOrder && new Set(afterKeys).size === afterKeys.length) {
    if (added.length === 1 && afterKeys[afterKeys.length - 1] === keyOf(added[0] as Item))
      return { $push: { [name]: added[0] } };
    if (removed.length === 1) return { $pull: { [name]: { [key]: keyOf(removed[0] as Item) } } };
    if (changed.length === 1) return { $set: { [`${name}.$`]: changed[0] } };
  }
  return { [name]: after };
}
