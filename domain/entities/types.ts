import { z } from '../zod.ts';
import { LOCALES } from '../locales.ts';
import { isDay } from '../validation/day.ts';
import { RECORD_ID } from '../record-id.ts';

export type Role = 'member' | 'editor' | 'admin';
export const ROLES: readonly Role[] = ['member', 'editor', 'admin'];
export const STAFF_ROLES: readonly Role[] = ['editor', 'admin'];

/**
 * Who calls: a member or staff role (the `users` population), or a user of the company's apps
 * (`appUser`, the `appUsers` population, signed in through its own authentication service). The
 * two never reach each other's records (decision 053).
 */
export type CallerRole = Role | 'appUser';

/**
 * Who may call a method: anyone, any signed-in member or staff member (`authenticated`: never an
 * app user), or the listed callers.
 */
export type Access = 'public' | 'authenticated' | readonly CallerRole[] | 'none';

export type FieldKind =
  | 'id'
  | 'string'
  | 'email'
  | 'integer'
  | 'boolean'
  | 'date'
  | 'i18n'
  | 'enum'
  | 'ref'
  | 'list'
  /** A small record of named values (an address, a card's summary), validated by its `schema`. */
  | 'object'
  | 'password'
  /** A calendar day without a time (`2026-11-29`): a date of birth, held as written whatever the time zone. */
  | 'day';

export interface FieldDef {
  kind: FieldKind;
  /** Column name; defaults to the snake_case form of the field name. */
  column?: string;
  /** Validation of a written value. Derived from the kind when absent. */
  schema?: z.ZodType;
  /** Must be given on create (and never cleared by a patch). */
  required?: boolean;
  /** Set by the server only; rejected in create and patch data. */
  readonly?: boolean;
  /** Never leaves the server (password hashes). */
  hidden?: boolean;
  /** Matched case-insensitively by `$or: [{ field: { $regex } }]` searches. */
  searchable?: boolean;
  /** Accepts equality and comparison operators in queries. */
  filterable?: boolean;
  sortable?: boolean;
  /** Shown as a column in back-office lists; written to exports. */
  listed?: boolean;
  exported?: boolean;
  enum?: readonly string[];
  /**
   * For `ref`: the service path the id points to. For a `list` of ids: each item is a record of that
   * service (a campaign's ads), picked in the editor by name (`refs`), shown by name in the table,
   * and every id a write adds must be a record that exists (decision 061).
   */
  ref?: string;
  /** For `list` of objects: the key that `$pull` and `path.$` match on; `_id` is generated. */
  itemKey?: string;
  /** For `list`: one item's schema. */
  item?: z.ZodType;
  /**
   * The roles that may write this field in an outside call, whatever the syntax (plain data, `$set`,
   * `$push`, `$pull`, positional paths). Absent: whoever may call the method. In-process calls
   * (the server's own writes) are not limited.
   */
  writable?: readonly CallerRole[];
  /**
   * The roles that may change this field in an outside patch, whatever the syntax; others may still
   * give it on create (as `writable` allows). Absent: as `writable` says. Empty: what the creator
   * sent is kept (a visitor's enquiry, which staff follow up but never rewrite).
   */
  patchable?: readonly CallerRole[];
  /**
   * The table fills the field in when a create leaves it out (a NOT NULL column with a default),
   * so a read never answers null for it.
   */
  defaulted?: boolean;
  /**
   * For a password that staff set for someone else: typed twice. Beside it, `{name}Confirm` may be
   * sent, which must equal it (`validation.passwordDifferent` on the confirmation, from the editor
   * before sending and from the service); the editor asks for both on create, and offers to set a
   * new one, also twice, on edit. Never stored.
   */
  confirmed?: boolean;
  /** How the back office shows the field; what is left out follows from the kind (`hintsOf`). */
  hints?: FieldHints;
}

/** The back office's input or display for a field. */
export type Widget =
  | 'text'
  | 'textarea'
  | 'richText'
  | 'i18nText'
  | 'number'
  | 'money'
  | 'date'
  /** A date and time of day, typed on Hong Kong's clock (a push message's sending time). */
  | 'dateTime'
  | 'enum'
  | 'ref'
  /** Records of another entity, in order, picked by name (a `list` of ids with a `ref`). */
  | 'refs'
  | 'list'
  | 'object'
  | 'image'
  /** Uploaded pictures by id, in order (a list of attachment ids). */
  | 'gallery'
  | 'boolean'
  | 'color'
  /** A map's centre and span (`mapPointSchema`). */
  | 'mapPoint'
  /** Days from and to (`dayRangeSchema`). */
  | 'dateRange'
  | 'email'
  | 'password'
  /** A calendar day without a time (`2026-11-29`): a date of birth, held as written whatever the time zone. */
  | 'day'
  /**
   * A moment a switch sets (an account disabled): on, it is now (or stays when it was on); off, it is
   * cleared. The table filters it by whether it is set.
   */
  | 'timestampSwitch'
  /** A value shown as a link to another site (`hints.href`), read-only: a post's id on Facebook. */
  | 'link';

/** The back office's screens that show a field: the list's columns and the record's own page. */
export type Screen = 'list' | 'detail';

export interface FieldHints {
  widget?: Widget;
  /** Place among the list's columns, lowest first; columns without one follow in field order. */
  column?: number;
  shownIn?: readonly Screen[];
  /**
   * The table's filter for a filterable text: `exact`, a box whose text must be the whole value (a
   * region's code, a time zone). Without it a text field is found through the search box only.
   */
  filter?: 'exact';
  /** For a list of records: the widget of an item's field where its kind does not say (`monthPrice: 'money'`). */
  itemWidgets?: Readonly<Record<string, Widget>>;
  /** For a `link`: the address it opens, `{value}` standing for the value (encoded). */
  href?: string;
}

/**
 * Rows that belong to a user. Callers whose role is not in `allRows` reach only the rows whose
 * `field` holds their own id (find, get, patch, remove; `$populate` too), and hear only of those.
 */
export interface OwnerDef {
  /** The field holding the owner's user id (`_id` for the users themselves). */
  field: string;
  /** The population the owner belongs to: members and staff (`users`, the default) or the apps' users. */
  of?: 'users' | 'appUsers';
  /** Roles that read every row, and roles that change or remove every row. */
  allRows: { read: readonly Role[]; write: readonly Role[] };
}

/** A `$populate` path: replace the id(s) at `path` with records of `service`. */
export interface PopulateDef {
  service: string;
  /** `industry` for a ref field; `modules.id` for the `id` of each item of a list field. */
  path: string;
}

export interface EntityDef {
  /** Service path, as clients call it (`appTemplates`). */
  service: string;
  table: string;
  fields: Record<string, FieldDef>;
  populate?: Record<string, PopulateDef>;
  defaultSort: Record<string, 1 | -1>;
  /**
   * Field values a record must have for callers other than staff to read it or hear of it
   * (`{ status: 'published' }`); staff read every record. Absent: every record is readable.
   */
  publicWhere?: Record<string, string | number | boolean>;
  /**
   * The times a public record is served between, for callers other than staff, as date fields:
   * from each `from` field's instant (inclusive) and before each `until` field's (exclusive); an
   * empty field sets no limit. Applied with `publicWhere` wherever it is (reads, `$populate`,
   * events), at the server's clock (a publication window and an expiry: `news`).
   */
  publicWindow?: { from: readonly string[]; until: readonly string[] };
  /**
   * A view over part of a table that another definition describes whole (`admins`, the staff
   * accounts among `users`): the values each field may hold. Every read is narrowed to them, and a
   * create or patch that would put the record outside them is refused (`validation.outOfScope`), so
   * no call through this service reaches or makes a record of the rest of the table.
   */
  scope?: Readonly<Record<string, readonly (string | number | boolean)[]>>;
  /**
   * The records hold personal data (names, addresses, contact details, payment details): exported
   * by admins only (decision 052). Editors still list and read them where their access says.
   */
  personalData?: boolean;
  owner?: OwnerDef;
  /**
   * Rules over a whole record, where what one field needs depends on another (a campaign's own
   * form rules): a message key for each field refused, none when the record passes. The generic
   * validation runs them after each field's schema, on every create and on the record a patch leaves.
   */
  recordRules?: (record: Readonly<Record<string, unknown>>) => Readonly<Record<string, string>>;
  access: {
    find: Access;
    get: Access;
    create: Access;
    patch: Access;
    remove: Access;
  };
}

/**
 * An entity's definition as written: a `const` type parameter keeps its literal kinds, enums, flags
 * and schemas, so the types of its records, creates, patches and queries follow from it
 * (contract.ts) and a change here is a type error wherever it matters.
 */
export function defineEntity<const E extends EntityDef>(definition: E): E {
  return definition;
}

/** The same fields, each changed by an outside patch only by `roles` (`patchable`). */
export function patchableBy<const R extends readonly Role[], const F extends Record<string, FieldDef>>(
  roles: R,
  fields: F,
): { [K in keyof F]: F[K] & { patchable: R } } {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, { ...field, patchable: roles }])) as {
    [K in keyof F]: F[K] & { patchable: R };
  };
}

/** Whether whoever creates a record writes this field: not set by the server, not kept for some roles (staff's notes). */
export function writtenByCreator(field: FieldDef): boolean {
  return !field.readonly && field.writable === undefined;
}

/**
 * The message key that names a field in every language (`resources.users.fields.email`), so forms,
 * mails, exports and back-office screens call it one thing. `entity` is the service path.
 */
export function fieldLabelKey<const S extends string, const F extends string>(
  entity: S,
  field: F,
): `resources.${S}.fields.${F}` {
  return `resources.${entity}.fields.${field}`;
}

const KIND_WIDGETS: Record<FieldKind, Widget> = {
  id: 'text',
  string: 'text',
  email: 'email',
  password: 'password',
  integer: 'number',
  boolean: 'boolean',
  date: 'date',
  i18n: 'i18nText',
  enum: 'enum',
  ref: 'ref',
  list: 'list',
  object: 'object',
  day: 'day',
};

/**
 * A field's back-office hints, filled in where the definition gives none: its kind's widget (a
 * list of ids with a `ref`: `refs`);
 * shown on the record's page, and in the list too when it is `listed` (hidden fields nowhere).
 */
export function hintsOf(field: FieldDef): FieldHints & { widget: Widget; shownIn: readonly Screen[] } {
  const shownIn: readonly Screen[] = field.hidden ? [] : field.listed ? ['list', 'detail'] : ['detail'];
  return {
    ...field.hints,
    widget: field.hints?.widget ?? (field.kind === 'list' && field.ref ? 'refs' : KIND_WIDGETS[field.kind]),
    shownIn: field.hints?.shownIn ?? shownIn,
  };
}

/** Text in each language, English required, each at most `max` characters. */
export function i18nTextOf(max: number) {
  return z
    .object({
      en: z.string().trim().min(1).max(max),
      'zh-hk': z.string().trim().max(max).optional(),
      'zh-cn': z.string().trim().max(max).optional(),
    })
    .strict();
}

export const i18nTextSchema = i18nTextOf(5000);

export const idSchema = z.string().regex(RECORD_ID, 'Invalid id');

export function columnOf(name: string, field: FieldDef): string {
  return field.column ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The schema that validates one written value of a field. */
export function valueSchema(field: FieldDef): z.ZodType {
  if (field.schema) return field.schema;
  switch (field.kind) {
    case 'id':
    case 'ref':
      return idSchema;
    case 'string':
      return z.string().trim().max(500);
    case 'email':
      return z
        .email()
        .max(254)
        .transform((v) => v.toLowerCase());
    case 'password':
      return z.string().max(200);
    case 'integer':
      return z.number().int().min(-2_000_000_000).max(2_000_000_000);
    case 'boolean':
      return z.boolean();
    case 'date':
      return z.coerce.date();
    case 'i18n':
      return i18nTextSchema;
    case 'enum':
      return z.enum(field.enum as [string, ...string[]]);
    case 'list':
      return z.array(field.item ?? z.unknown()).max(500);
    case 'object':
      // An object field says what it holds; without a schema it takes nothing.
      return z.object({}).strict();
    case 'day':
      return z.string().trim().refine(isDay, { error: 'validation.day' });
  }
}

export const LOCALE_KEYS = LOCALES;

export type {
  CreateOf,
  FilterOf,
  PatchOf,
  QueryOf,
  RecordOf,
  VisibleField,
  Wire,
  WireRecordOf,
  WritableField,
} from './contract.ts';
