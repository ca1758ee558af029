import type { z } from '../zod.ts';
import type { I18nText } from '../locales.ts';
import type { EntityDef, FieldDef, FieldKind } from './types.ts';

/*
 * What a definition (`defineEntity`) promises its callers, as types: what a read answers, what a
 * create and a patch take, what a query may ask. Derived from the definition alone, never written
 * again by hand. Reads answer what the server holds in-process (dates as `Date`); `Wire<T>` is the
 * same as JSON carries it over REST and socket.io (dates as ISO strings).
 */

type Fields<E extends EntityDef> = E['fields'];
type FieldName<E extends EntityDef> = keyof Fields<E> & string;

/** Field names whose definition has `flag: true` (a literal: a flag set through a plain `boolean` does not count). */
type Flagged<E extends EntityDef, Flag extends keyof FieldDef> = {
  [K in FieldName<E>]: Fields<E>[K] extends Record<Flag, true> ? K : never;
}[FieldName<E>];

/** Fields a read answers: all but the hidden ones (password hashes). */
export type VisibleField<E extends EntityDef> = Exclude<FieldName<E>, Flagged<E, 'hidden'>>;
/** Fields that create and patch data may hold: all but the read-only ones, which the server sets. */
export type WritableField<E extends EntityDef> = Exclude<FieldName<E>, Flagged<E, 'readonly'>>;
type ListField<E extends EntityDef> = {
  [K in FieldName<E>]: Fields<E>[K] extends { kind: 'list' } ? K : never;
}[FieldName<E>];
/** Never null when read: given on every create, or filled in by the table. */
type AlwaysSet<E extends EntityDef> = Flagged<E, 'required'> | Flagged<E, 'defaulted'> | '_id';

/** The value of each kind of field, where neither a schema nor an enum says more. */
interface KindValue {
  id: string;
  ref: string;
  string: string;
  email: string;
  password: string;
  integer: number;
  boolean: boolean;
  date: Date;
  i18n: I18nText;
  enum: string;
  list: unknown[];
  object: Record<string, unknown>;
  day: string;
}

type EnumValue<F> = F extends { enum: readonly (infer V)[] } ? V : string;

/** A field's value in a read, null aside. Translated text is `I18nText` whatever its lengths. */
type ReadValue<F extends FieldDef> = F['kind'] extends 'i18n'
  ? I18nText
  : F extends { schema: infer S extends z.ZodType }
    ? Exclude<z.output<S>, undefined>
    : F['kind'] extends 'enum'
      ? EnumValue<F>
      : F['kind'] extends 'list'
        ? (F extends { item: infer I extends z.ZodType } ? z.output<I> : unknown)[]
        : KindValue[F['kind'] & FieldKind];

/** A field's value in create and patch data: what its schema accepts (dates also as ISO text). */
type WriteValue<F extends FieldDef> = F['kind'] extends 'i18n'
  ? I18nText
  : F extends { schema: infer S extends z.ZodType }
    ? z.input<S>
    : F['kind'] extends 'date'
      ? Date | string
      : F['kind'] extends 'enum'
        ? EnumValue<F>
        : F['kind'] extends 'list'
          ? (F extends { item: infer I extends z.ZodType } ? z.input<I> : unknown)[]
          : KindValue[F['kind'] & FieldKind];

/** Flattens an intersection for readable hovers and errors. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** What a read answers: hidden fields absent, fields that may be empty `| null`. */
export type RecordOf<E extends EntityDef> = Simplify<{
  [K in VisibleField<E>]: K extends AlwaysSet<E> ? ReadValue<Fields<E>[K]> : ReadValue<Fields<E>[K]> | null;
}>;

/** A value as JSON carries it (REST, socket.io): dates become ISO strings. */
export type Wire<T> = T extends Date
  ? string
  : T extends readonly (infer I)[]
    ? Wire<I>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/** A record as REST and socket.io clients receive it. */
export type WireRecordOf<E extends EntityDef> = Wire<RecordOf<E>>;

/** A writable field's value: null clears it, except where the field must hold one. */
type Writing<E extends EntityDef, K extends FieldName<E>> =
  K extends AlwaysSet<E> ? WriteValue<Fields<E>[K]> : WriteValue<Fields<E>[K]> | null;

/** Create data: the required fields, and any other writable ones. */
export type CreateOf<E extends EntityDef> = Simplify<
  { [K in WritableField<E> & Flagged<E, 'required'>]: WriteValue<Fields<E>[K]> } & {
    [K in Exclude<WritableField<E>, Flagged<E, 'required'>>]?: Writing<E, K>;
  }
>;

/** An item a list takes, as `$push` writes it. */
type ItemInput<F> = F extends { item: infer I extends z.ZodType } ? z.input<I> : unknown;

/**
 * Patch data: any writable fields, and the list operators (server/services/entity/list-ops.ts).
 * The operators are typed loosely: positional paths (`modules.$.count`) are matched by the
 * patch's query, and the service validates every item written.
 */
export type PatchOf<E extends EntityDef> = Simplify<
  { [K in WritableField<E>]?: Writing<E, K> } & {
    /** Items added to lists: one, or several with `$each`. */
    $push?: {
      [K in ListField<E> & WritableField<E>]?: ItemInput<Fields<E>[K]> | { $each: readonly ItemInput<Fields<E>[K]>[] };
    };
    /** Items removed from lists: by value, or by the list's item key. */
    $pull?: { [K in ListField<E> & WritableField<E>]?: unknown };
    /** Plain fields, and positional paths into lists. */
    $set?: { [path: string]: unknown };
  }
>;

/** A value a query compares a field with (dates also as ISO text or milliseconds). */
type QueryValue<F extends FieldDef> = F['kind'] extends 'date'
  ? Date | string | number
  : F['kind'] extends 'list'
    ? F extends { itemKey: string }
      ? never
      : ReadValue<F> extends readonly (infer I)[]
        ? I
        : never
    : ReadValue<F>;

type Comparison<V> = {
  $ne?: V | null;
  $gt?: V;
  $gte?: V;
  $lt?: V;
  $lte?: V;
  $in?: readonly (V | null)[];
  $nin?: readonly (V | null)[];
};

/** A case-insensitive (`$options: 'i'`) or exact match of literal text (server/services/entity/coerce.ts). */
interface TextSearch {
  $regex: string;
  $options?: 'i' | '';
}

/**
 * What a query may ask of a field, as the compiler accepts it (server/services/entity/query.ts):
 * equality and comparisons on filterable fields, `$regex` on searchable ones; a plain list
 * (`tags`) by what it holds.
 */
type Condition<F extends FieldDef> = F['kind'] extends 'list'
  ? F extends { filterable: true; itemKey?: undefined }
    ? QueryValue<F> | { $in?: readonly QueryValue<F>[]; $nin?: readonly QueryValue<F>[] }
    : never
  : | (F extends { filterable: true } ? QueryValue<F> | null | Comparison<QueryValue<F>> : never)
    | (F extends { searchable: true } ? TextSearch : never);

type ConditionField<E extends EntityDef> = {
  [K in VisibleField<E>]: [Condition<Fields<E>[K]>] extends [never] ? never : K;
}[VisibleField<E>];

/** `modules.id: x`: records whose list holds an item with that key. */
type ItemKeyCondition<E extends EntityDef> = {
  [K in ListField<E> as Fields<E>[K] extends { itemKey: infer Key extends string } ? `${K}.${Key}` : never]?:
    string | number;
};

/** The conditions of a query, nested through `$or` and `$and`. */
export type FilterOf<E extends EntityDef> = {
  [K in ConditionField<E>]?: Condition<Fields<E>[K]>;
} & ItemKeyCondition<E> & {
    $or?: readonly FilterOf<E>[];
    $and?: readonly FilterOf<E>[];
  };

/** The paths a definition lets `$populate` fill in. */
export type PopulatePath<E extends EntityDef> = E extends { populate: infer P } ? keyof P & string : never;

/** A query: conditions, and the controls of paging, order, fields and population. */
export type QueryOf<E extends EntityDef> = FilterOf<E> & {
  $limit?: number;
  $skip?: number;
  $sort?: { [K in Flagged<E, 'sortable'>]?: 1 | -1 };
  $select?: readonly VisibleField<E>[];
  $populate?: PopulatePath<E> | readonly PopulatePath<E>[];
  /** Keyset paging: `true` or `null` for the first page, then a page's `cursors.next` or `previous`. */
  $cursor?: string | null | true;
  /** Count the total to this many matches at most; past it the page answers `totalCapped` (decision 045). */
  $countUpTo?: number;
};
