import { z } from 'zod';
import { LOCALES } from '../locales.ts';

export type Role = 'member' | 'editor' | 'admin';
export const ROLES: readonly Role[] = ['member', 'editor', 'admin'];
export const STAFF_ROLES: readonly Role[] = ['editor', 'admin'];

/** Who may call a method: anyone, any signed-in user, or the listed roles. */
export type Access = 'public' | 'authenticated' | readonly Role[] | 'none';

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
  | 'password';

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
  /** For `ref`: the service path the id points to. */
  ref?: string;
  /** For `list` of objects: the key that `$pull` and `path.$` match on; `_id` is generated. */
  itemKey?: string;
  /** For `list`: one item's schema. */
  item?: z.ZodType;
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
  access: {
    find: Access;
    get: Access;
    create: Access;
    patch: Access;
    remove: Access;
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

export const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid id');

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
      return z.email().max(254).transform((v) => v.toLowerCase());
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
  }
}

export const LOCALE_KEYS = LOCALES;
