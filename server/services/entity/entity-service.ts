import { BadRequest, Conflict, Forbidden, MethodNotAllowed, NotFound } from '@feathersjs/errors';
import type { Id, Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { FilterOf, PatchOf, PopulatePath, RecordOf, VisibleField } from '../../../domain/entities/contract.ts';
import type {
  CallParams,
  CreateInput,
  Page as PageOf,
  Shaped,
  ShapingQuery,
} from '../../../domain/entities/services.ts';
import { scopeProblems, takeConfirmations } from '../../../domain/entities/scope.ts';
import { entities } from '../../../domain/entities/index.ts';
import { type EntityDef, valueSchema } from '../../../domain/entities/types.ts';
import { newId } from '../../db/ids.ts';
import { callerRoleOf } from '../../hooks/caller.ts';
import { applyKeyset, decodeCursor, encodeCursor } from './cursor.ts';
import { EntityFields } from './fields.ts';
import { applyListOperators, keyListItems, type ListField } from './list-ops.ts';
import { applyFilter, MAX_LIMIT, type ParsedQuery, parseQuery, type SortKey } from './query.ts';
import { createData, invalid, issueMessage, validatePatch } from './validate.ts';

export type EntityRecord = Record<string, unknown> & { _id: string };

/** A page of records as the service builds it, before its callers' types (`Page<R>` in services.ts). */
export interface Page {
  total: number;
  /** Answered to a `$countUpTo` in page mode: true when the count stopped there, more than `total` matching (decision 045). */
  totalCapped?: boolean;
  limit: number;
  skip: number;
  data: EntityRecord[];
  sortBy: string[];
  sortDesc: boolean[];
  cursors: { previous: string | null; next: string | null };
}

export interface EntityParams extends Params {
  query?: Record<string, unknown>;
  /** `false` answers a plain list with no limit: for server-side lookups only. */
  paginate?: false;
  user?: ({ _id: string; role: string } & Record<string, unknown>) | null;
  /** The user of the company's apps making the call (never with `user`: decision 053). */
  appUser?: ({ _id: string } & Record<string, unknown>) | null;
  /** Runs the call inside an existing transaction. */
  transaction?: Knex.Transaction;
}

/**
 * A call's params as the server's own code passes them on: a caller's (`CallParams`), with the
 * transaction to run in and the authentication as Feathers holds it (the token's payload too).
 */
export type ServerCallParams = Omit<CallParams, 'authentication'> &
  Pick<EntityParams, 'transaction' | 'authentication'>;

/**
 * An entity service as code reaching it by a path known only as text sees it (a `$populate`
 * target, a job's service, a test sending what an attacker would): records as plain objects, data
 * the compiler does not check (the service does). Every `EntityService<E>` is one.
 */
export interface UntypedEntityService {
  find(params: EntityParams & { paginate: false }): Promise<EntityRecord[]>;
  find(params?: EntityParams): Promise<Page>;
  get(id: string, params?: EntityParams): Promise<EntityRecord>;
  create(data: unknown, params?: EntityParams): Promise<EntityRecord>;
  patch(id: string | null, data: unknown, params?: EntityParams): Promise<EntityRecord>;
  remove(id: string | null, params?: EntityParams): Promise<EntityRecord>;
}

/** Resolves `$populate` paths; set by the app so a service can reach the others. */
export type Populator = (
  def: EntityDef,
  records: EntityRecord[],
  paths: string[],
  params: EntityParams,
) => Promise<void>;

/** A record a write changed, as the table holds it (hidden fields too): none before a create, none after a remove. */
export interface WrittenRecord {
  method: 'create' | 'patch' | 'remove';
  id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * Sees the records a write changes, inside the write's own transaction, so what it writes there
 * (an audit row) stands or falls with the change. `observes` answers before the write whether the
 * call is seen at all: a write that is not reads nothing more and opens no transaction for it.
 */
export interface WriteObserver {
  observes(params: EntityParams): boolean;
  written(def: EntityDef, records: WrittenRecord[], trx: Knex.Transaction, params: EntityParams): Promise<void>;
}

export type BeforeWrite = (
  data: Record<string, unknown>,
  write: { id?: Id; params: EntityParams },
) => Promise<Record<string, unknown>>;

const KEY_PREFIX = '__k';

/**
 * Records a capped count of a search may look through before it counts the matches by their plan
 * (decision 066): twenty times the back office's cap of 1 000, so that text held by one record in
 * twenty or more reaches past it there.
 */
export const COUNT_PROBE_ROWS = 20_000;

/** Whether a filter holds a `$regex` (free text) at any depth, in an `$or` or `$and` too. */
function holdsRegex(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRegex);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, inner]) => key === '$regex' || holdsRegex(inner));
}

/** The fields a patch writes, whatever its syntax: plain keys, `$set` paths, `$push` and `$pull` lists. */
export function fieldsWritten(data: unknown): Set<string> {
  const names = new Set<string>();
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return names;
  for (const [key, value] of Object.entries(data)) {
    if (!key.startsWith('$')) names.add(key.split('.')[0] as string);
    else if (typeof value === 'object' && value !== null)
      for (const path of Object.keys(value)) names.add(path.split('.')[0] as string);
  }
  return names;
}

/**
 * Patch data without the record's own `_id`, which clients send back with the rest of what they
 * read (Feathers' adapters ignore it there). In plain data or a `$set`, it must be the id patched:
 * an id can never be changed, and a different one is a client's mistake, refused rather than ignored.
 */
function withoutOwnId(id: Id, data: Record<string, unknown>): Record<string, unknown> {
  const set = data.$set;
  const sets =
    typeof set === 'object' && set !== null && !Array.isArray(set) ? (set as Record<string, unknown>) : undefined;
  for (const given of [data._id, sets?._id]) {
    const same = (typeof given === 'string' || typeof given === 'number') && String(given) === String(id);
    if (given !== undefined && !same)
      throw new BadRequest('validation.idMismatch', { errors: { _id: 'validation.idMismatch' } });
  }
  const without = (object: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(object).filter(([key]) => key !== '_id'));
  const rest = without(data);
  if (sets && '_id' in sets) {
    const otherSets = without(sets);
    if (Object.keys(otherSets).length > 0) rest.$set = otherSets;
    else delete rest.$set;
  }
  return rest;
}

/**
 * A Feathers service over one table, speaking the spec's generic query language. Its public
 * methods are typed by its definition, as `TypedService<E>` (domain/entities/services.ts) promises
 * callers; inside, records are plain objects checked against the definition at run time.
 */
export class EntityService<E extends EntityDef = EntityDef> {
  readonly def: E;
  readonly fields: EntityFields;
  readonly id = '_id';
  private readonly knex: Knex;
  private readonly lists = new Map<string, ListField>();
  /** The lists of ids of another entity's records (a campaign's ads), and that entity. */
  private readonly referenceLists = new Map<string, EntityDef>();
  populator: Populator | undefined;
  /**
   * Transforms validated data before it is written (hashing a password); may add fields the server
   * alone sets (read-only ones). `id` is the patched record's, absent on create.
   */
  beforeWrite: BeforeWrite | undefined;
  /** Sees what writes change (the audit log); set by the app. */
  observer: WriteObserver | undefined;
  maxLimit = MAX_LIMIT;
  /** How many of the table's records a capped count looks through first (`countRows`, decision 066). */
  countProbeRows = COUNT_PROBE_ROWS;

  constructor(knex: Knex, def: E) {
    this.knex = knex;
    this.def = def;
    this.fields = new EntityFields(def);
    for (const [name, field] of Object.entries(def.fields)) {
      if (field.kind === 'list') this.lists.set(name, { name, def: field });
      const target =
        field.kind === 'list' && field.ref ? Object.values(entities).find((d) => d.service === field.ref) : undefined;
      if (target) this.referenceLists.set(name, target);
    }
  }

  private db(params?: EntityParams): Knex {
    return params?.transaction ?? this.knex;
  }

  private selectColumns(select: string[] | null): string[] {
    if (!select) return this.fields.publicColumns;
    const names = new Set(['_id', ...select]);
    return [...names].map((name) => this.fields.field(name, '$select').column);
  }

  /** Every matching record, no page: the server's own lookups (an outside caller still gets a page). */
  find<
    const S extends readonly VisibleField<E>[] = readonly VisibleField<E>[],
    const P extends PopulatePath<E> = never,
  >(params: ServerCallParams & { paginate: false; query?: ShapingQuery<E, S, P> }): Promise<Shaped<E, S, P>[]>;
  find<
    const S extends readonly VisibleField<E>[] = readonly VisibleField<E>[],
    const P extends PopulatePath<E> = never,
  >(
    params?: ServerCallParams & { paginate?: undefined; query?: ShapingQuery<E, S, P> },
  ): Promise<PageOf<Shaped<E, S, P>>>;
  async find(params: EntityParams = {}): Promise<unknown> {
    const internalAll = params.paginate === false && !params.provider;
    const parsed = parseQuery(this.fields, params.query, internalAll ? Number.MAX_SAFE_INTEGER : this.maxLimit);
    if (internalAll) {
      // As Feathers' own adapters do (`.find + $skip` of its adapter tests, without pagination),
      // `$skip` and a given `$limit` still apply; no `$limit` means every row.
      const limit = params.query?.$limit === undefined ? null : parsed.limit;
      const rows = await this.selectRows(parsed, params, { limit, skip: parsed.skip });
      const records = rows.map((row) => this.fields.toRecord(row, this.selectColumns(parsed.select)) as EntityRecord);
      await this.populate(records, parsed.populate, params);
      return records;
    }
    return this.findPage(parsed, params);
  }

  private baseQuery(parsed: ParsedQuery, params?: EntityParams): Knex.QueryBuilder {
    const builder = this.scoped(this.db(params)(this.def.table));
    applyFilter(this.knex, this.fields, builder, parsed.filter);
    return builder;
  }

  /** A statement narrowed to the definition's scope (`scope`): the rest of the table is not this service's. */
  private scoped(builder: Knex.QueryBuilder): Knex.QueryBuilder {
    for (const [name, values] of Object.entries(this.def.scope ?? {}))
      builder.whereIn(this.fields.writable(name).column, [...values]);
    return builder;
  }

  /**
   * Refuses a write that would put the record outside the definition's scope, before anything is
   * written; run on the data as sent (every syntax) and again on what validation answered.
   */
  private checkScope(data: unknown): void {
    const errors = scopeProblems(this.def, data);
    if (Object.keys(errors).length > 0) throw new BadRequest('validation.outOfScope', { errors });
  }

  /** Whether a write sets one of the lists of references (create data or a patch, any syntax). */
  private writesReferences(data: unknown): boolean {
    if (this.referenceLists.size === 0) return false;
    for (const name of fieldsWritten(data)) if (this.referenceLists.has(name)) return true;
    return false;
  }

  /**
   * Refuses a list of references (a campaign's ads) that adds an id naming no record of its entity
   * (`validation.unknownReferences`), inside the write's transaction: the records named are held
   * (`for key share`) until it commits, so none of them is removed between the check and the write.
   * An id the stored record already held is kept as it is (its record may have been removed since:
   * the editor shows it as gone, and removing it, or saving anything else, still works).
   */
  private async checkReferences(
    db: Knex | Knex.Transaction,
    written: Readonly<Record<string, unknown>>,
    stored: Readonly<Record<string, unknown>> | null,
  ): Promise<void> {
    const errors: Record<string, string> = {};
    for (const [name, target] of this.referenceLists) {
      const ids = written[name];
      if (!Array.isArray(ids)) continue;
      const held = new Set(Array.isArray(stored?.[name]) ? (stored[name] as unknown[]).map(String) : []);
      const added = [...new Set(ids.map(String))].filter((id) => !held.has(id));
      if (added.length === 0) continue;
      const found = db(target.table).whereIn('id', added);
      for (const [field, values] of Object.entries(target.scope ?? {}))
        found.whereIn(new EntityFields(target).writable(field).column, [...values]);
      const existing = new Set(((await found.forKeyShare().pluck('id')) as unknown[]).map(String));
      if (added.some((id) => !existing.has(id))) errors[name] = 'validation.unknownReferences';
    }
    if (Object.keys(errors).length > 0) throw invalid(errors);
  }

  /** Written data without the confirmations of its confirmed fields (`passwordConfirm`), each checked. */
  private withoutConfirmations(data: unknown): unknown {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
    const taken = takeConfirmations(this.def.fields, data as Record<string, unknown>);
    if (Object.keys(taken.errors).length > 0) throw invalid(taken.errors);
    return taken.data;
  }

  private keyColumns(sort: SortKey[]): Knex.Raw[] {
    return sort.map((key, i) => {
      const expr = this.fields.sortExpression(this.knex, key.field);
      // Dates keep their microseconds as text (a JS Date would round them and repeat rows), in UTC and
      // one format whatever the session's TimeZone and DateStyle, so a cursor reads back the same anywhere.
      return key.field.def.kind === 'date'
        ? this.knex.raw(`to_char((?) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US"+00"') as ??`, [
            expr,
            `${KEY_PREFIX}${i}`,
          ])
        : this.knex.raw(`? as ??`, [expr, `${KEY_PREFIX}${i}`]);
    });
  }

  private selectRows(
    parsed: ParsedQuery,
    params: EntityParams,
    options: {
      limit: number | null;
      skip?: number;
      keyset?: { keys: (string | number | boolean | null)[]; forward: boolean };
      withKeys?: boolean;
    },
  ): Promise<Record<string, unknown>[]> {
    const forward = options.keyset?.forward ?? true;
    const ordered = (query: Knex.QueryBuilder) => {
      for (const key of parsed.sort) {
        const ascending = (key.direction === 1) === forward;
        query.orderByRaw(`? ${ascending ? 'asc' : 'desc'}`, [this.fields.sortExpression(this.knex, key.field)]);
      }
      return query;
    };
    if (options.skip && !options.keyset) {
      // A page after others (`$skip`): the rows skipped are only walked past, so the page's ids are
      // found first (from an index on the order alone where one covers it), and only the page's rows
      // are read and their keys made, instead of every row before them (decision 038).
      const ids = ordered(this.baseQuery(parsed, params).select('id')).offset(options.skip);
      if (options.limit !== null) ids.limit(options.limit);
      const page = this.db(params)(this.def.table).select(this.selectColumns(parsed.select)).whereIn('id', ids);
      if (options.withKeys) page.select(this.keyColumns(parsed.sort));
      return ordered(page);
    }
    const builder = this.baseQuery(parsed, params).select(this.selectColumns(parsed.select));
    if (options.withKeys) builder.select(this.keyColumns(parsed.sort));
    if (options.keyset) applyKeyset(this.knex, this.fields, builder, parsed.sort, options.keyset.keys, forward);
    ordered(builder);
    if (options.limit !== null) builder.limit(options.limit);
    return builder;
  }

  /**
   * How many records match; with a cap, read to one past it and no further (`$countUpTo`,
   * decisions 045 and 066). A search's matches, where the planner expects them to be common, are
   * first looked for among the table's first records (`countAmongFirst`): a bounded scan that
   * proves in a few milliseconds that more than the cap match. Other filters are served by B-tree
   * indexes that count to the cap as cheaply. Otherwise, or when it does not, the matches
   * are read through a cursor planned as for reading them all, the plan an exact count gets (the
   * trigram indexes' bitmap for a search), so stopping early never costs more than counting
   * everything: a `limit` in the query would let the planner bet on a scan that finds the matches
   * soon, which over rare text reads most of a large table.
   */
  private async countRows(parsed: ParsedQuery, params: EntityParams, cap: number | null): Promise<number> {
    const matching = this.baseQuery(parsed, params);
    const exactly = async () => {
      const row = (await matching.count({ total: '*' }).first()) as { total: number | string } | undefined;
      return Number(row?.total ?? 0);
    };
    if (cap === null) return exactly();
    const found =
      cap < this.countProbeRows && holdsRegex(parsed.filter)
        ? await this.countAmongFirst(this.db(params), parsed, cap + 1)
        : 0;
    if (found > cap) return found;
    // In a caller's transaction the planner's settings are left alone: counted exactly, then capped.
    if (params.transaction) return exactly();
    return this.knex.transaction(async (trx) => {
      await trx.raw('set local cursor_tuple_fraction = 1');
      await trx.raw('declare matching no scroll cursor for ?', [matching.clearSelect().select(this.knex.raw('1'))]);
      // MOVE takes no parameter; the cap is an integer parseQuery checked.
      const moved = (await trx.raw(`move forward ${Math.trunc(cap) + 1} in matching`)) as { rowCount: number | null };
      return moved.rowCount ?? 0;
    });
  }

  /**
   * The matches among the first `countProbeRows` records of the table (in its own order, as a
   * sequential scan reads it), counted up to `upTo`: never more than the count, so reaching `upTo`
   * proves that at least that many match. Looked for only when the planner expects `upTo` there
   * (its estimate of the statement, one EXPLAIN): for a rare text that scan would cost more than
   * the text's bitmap from the trigram indexes, and find too few anyway. Answers 0 when it does
   * not look.
   */
  private async countAmongFirst(db: Knex | Knex.Transaction, parsed: ParsedQuery, upTo: number): Promise<number> {
    // Named as the table, so that a condition naming the table's columns reads the same.
    const first = this.scoped(db(this.def.table).select('*').limit(this.countProbeRows)).as(this.def.table);
    const matching = db.from(first).select(this.knex.raw('1'));
    applyFilter(this.knex, this.fields, matching, parsed.filter);
    const explained = (await db.raw('explain (format json) ?', [matching])) as {
      rows: { 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] | string }[];
    };
    const plan = explained.rows[0]?.['QUERY PLAN'];
    const expected = (typeof plan === 'string' ? JSON.parse(plan) : plan)?.[0]?.Plan?.['Plan Rows'];
    if (typeof expected !== 'number' || expected < upTo) return 0;
    const row = (await db.from(matching.limit(upTo).as('matching')).count({ total: '*' }).first()) as
      { total: number | string } | undefined;
    return Number(row?.total ?? 0);
  }

  private async findPage(parsed: ParsedQuery, params: EntityParams): Promise<Page> {
    const { limit, sort } = parsed;
    const cursorMode = parsed.cursor !== undefined;
    let rows: Record<string, unknown>[];
    let total: number;
    let totalCapped = false;
    let skip = parsed.skip;
    let hasPrevious: boolean;
    let hasNext: boolean;

    if (cursorMode) {
      // Keyset pages cost the same deep in the table as on page one; no count is made.
      skip = 0;
      total = -1;
      const position = parsed.cursor ? decodeCursor(sort, parsed.cursor) : null;
      const forward = position?.direction !== 'p';
      const fetched = await this.selectRows(parsed, params, {
        limit: limit + 1,
        withKeys: true,
        ...(position ? { keyset: { keys: position.keys, forward } } : {}),
      });
      const more = fetched.length > limit;
      rows = fetched.slice(0, limit);
      if (!forward) rows.reverse();
      hasNext = forward ? more : true;
      hasPrevious = forward ? position !== null : more;
    } else {
      const cap = parsed.countUpTo;
      // With a cap, one row more than the page tells whether any follows it, which the count no longer says past the cap.
      const [fetched, count] = await Promise.all([
        limit === 0
          ? Promise.resolve([])
          : this.selectRows(parsed, params, { limit: cap === null ? limit : limit + 1, skip, withKeys: true }),
        this.countRows(parsed, params, cap),
      ]);
      const more = fetched.length > limit;
      rows = fetched.slice(0, limit);
      hasPrevious = skip > 0;
      if (cap !== null && count > cap) {
        // More than the cap match. The last page tells the exact total; any other page that at
        // least the rows up to its end match, and that more follow.
        const lastPage = rows.length > 0 && !more;
        totalCapped = !lastPage;
        total = lastPage ? skip + rows.length : Math.max(cap, rows.length > 0 ? skip + rows.length : 0);
        hasNext = more;
      } else {
        total = count;
        hasNext = skip + rows.length < total;
      }
    }

    const keysOf = (row: Record<string, unknown> | undefined) =>
      row ? sort.map((_, i) => row[`${KEY_PREFIX}${i}`] as string | number | boolean | null) : null;
    const firstKeys = keysOf(rows[0]);
    const lastKeys = keysOf(rows[rows.length - 1]);
    const columns = this.selectColumns(parsed.select);
    const data = rows.map((row) => this.fields.toRecord(row, columns) as EntityRecord);
    await this.populate(data, parsed.populate, params);
    return {
      total,
      ...(parsed.countUpTo !== null && !cursorMode ? { totalCapped } : {}),
      limit,
      skip,
      data,
      sortBy: sort.map((key) => key.field.name),
      sortDesc: sort.map((key) => key.direction === -1),
      cursors: {
        previous: hasPrevious && firstKeys ? encodeCursor(sort, 'p', firstKeys) : null,
        next: hasNext && lastKeys ? encodeCursor(sort, 'n', lastKeys) : null,
      },
    };
  }

  get<const S extends readonly VisibleField<E>[] = readonly VisibleField<E>[], const P extends PopulatePath<E> = never>(
    id: string,
    params?: ServerCallParams & { query?: ShapingQuery<E, S, P> },
  ): Promise<Shaped<E, S, P>>;
  async get(id: Id, params: EntityParams = {}): Promise<unknown> {
    const parsed = parseQuery(this.fields, params.query);
    const row = await this.baseQuery(parsed, params)
      .select(this.selectColumns(parsed.select))
      .where('id', String(id))
      .first();
    if (!row) throw new NotFound(`No record found for id '${String(id)}'`);
    const record = this.fields.toRecord(row, this.selectColumns(parsed.select)) as EntityRecord;
    await this.populate([record], parsed.populate, params);
    return record;
  }

  /**
   * Refuses, for an outside caller, every field their role may not write (`writable` in the
   * definition, and `patchable` on a patch), before anything else is looked at: one rule for every syntax and transport.
   */
  private checkWritable(data: unknown, params: EntityParams, method: 'create' | 'patch'): void {
    if (!params.provider) return;
    const role = callerRoleOf(params);
    const errors: Record<string, string> = {};
    for (const name of fieldsWritten(data)) {
      const field = this.def.fields[name];
      const allowed = method === 'patch' ? (field?.patchable ?? field?.writable) : field?.writable;
      if (allowed && (role === undefined || !(allowed as readonly string[]).includes(role)))
        errors[name] = 'validation.notWritable';
    }
    if (Object.keys(errors).length > 0) throw new Forbidden('auth.fieldForbidden', { errors });
  }

  /*
   * create, patch and remove return the whole record (hidden fields aside, which cleanOutput
   * removes), whatever `$select` the query holds: the event that other clients' tables and caches
   * replace their copy with needs it. The caller's answer is cut to the selection by a hook,
   * which sends the event itself with the whole record (server/hooks/select-on-writes.ts).
   */

  create(data: CreateInput<E>, params?: ServerCallParams): Promise<RecordOf<E>>;
  async create(data: unknown, params: EntityParams = {}): Promise<unknown> {
    if (Array.isArray(data)) throw new MethodNotAllowed('Creating several records in one call is not allowed');
    data = this.withoutConfirmations(data);
    this.checkWritable(data, params, 'create');
    this.checkScope(data);
    let valid = createData(this.def, data);
    // A scope of one value is what a create leaves out means (a scoped view makes only its own records).
    for (const [name, values] of Object.entries(this.def.scope ?? {}))
      if (valid[name] === undefined && values.length === 1) valid = { ...valid, [name]: values[0] };
    this.checkScope(valid);
    if (this.beforeWrite) valid = await this.beforeWrite(valid, { params });
    const row: Record<string, unknown> = { id: newId() };
    for (const [name, value] of Object.entries(valid)) {
      if (value === undefined) continue;
      const field = this.fields.writable(name);
      row[field.column] = this.toColumnValue(name, value);
    }
    const observed = this.observed(params);
    const references = this.writesReferences(valid);
    const inserted = await this.write(() =>
      this.inWriteTransaction(params, observed || references, async (db) => {
        if (references) await this.checkReferences(db, valid, null);
        const [written] = (await db(this.def.table).insert(row).returning(this.fields.publicColumns)) as Record<
          string,
          unknown
        >[];
        const record = this.fields.toRecord(written as Record<string, unknown>);
        if (observed)
          await this.tellObserver([{ method: 'create', id: String(row.id), before: null, after: record }], db, params);
        return record;
      }),
    );
    return inserted as EntityRecord;
  }

  /** `query` narrows the record patched, and matches the item of a positional `$set`. */
  patch(id: string, data: PatchOf<E>, params?: ServerCallParams & { query?: FilterOf<E> }): Promise<RecordOf<E>>;
  async patch(id: Id | null, data: unknown, params: EntityParams = {}): Promise<unknown> {
    if (id === null) throw new MethodNotAllowed('Patching several records in one call is not allowed');
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      throw new BadRequest('Patch data must be an object');
    const written = this.withoutConfirmations(withoutOwnId(id, data as Record<string, unknown>)) as Record<
      string,
      unknown
    >;
    this.checkWritable(written, params, 'patch');
    this.checkScope(written);
    const { $push, $pull, $set, ...rest } = written;
    for (const key of Object.keys(rest))
      if (key.startsWith('$')) throw new BadRequest(`Unknown patch operator '${key}'`);
    const plain: Record<string, unknown> = { ...rest };
    const hasListOps = $push !== undefined || $pull !== undefined || $set !== undefined;
    const query = params.query ?? {};
    const positional: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(query)) if (key.includes('.')) positional[key] = value;

    // Rules over the whole record read it as the patch leaves it: the stored record, held until written.
    const wholeRecord = this.def.recordRules !== undefined;
    // An observed patch reads the record it changes, held until written, to tell what it was.
    const observed = this.observed(params);
    // A list of references written reads the ids it held: those it adds must name records.
    const references = this.writesReferences(written);
    const locked = hasListOps || wholeRecord || observed || references;
    const run = async (trx: Knex.Transaction | Knex) => {
      const parsed = parseQuery(this.fields, query);
      const columns =
        wholeRecord || observed || references
          ? this.fields.publicColumns
          : hasListOps
            ? [...this.lists.values()].map((l) => this.fields.writable(l.name).column).concat('id')
            : ['id'];
      const existing = this.baseQuery(parsed, { ...params, transaction: trx as Knex.Transaction })
        .where('id', String(id))
        .first(columns);
      if (locked) existing.forUpdate();
      const current = (await existing) as Record<string, unknown> | undefined;
      if (!current) throw new NotFound(`No record found for id '${String(id)}'`);
      let lists: Record<string, Record<string, unknown>[]> = {};
      if (hasListOps) {
        const currentLists: Record<string, Record<string, unknown>[]> = {};
        for (const list of this.lists.values()) {
          currentLists[list.name] =
            (current[this.fields.writable(list.name).column] as Record<string, unknown>[]) ?? [];
        }
        lists = applyListOperators(this.lists, currentLists, { $push, $pull, $set }, positional, plain);
        // A list of references as the operators leave it meets the field's own schema (its length, no duplicates).
        const listErrors: Record<string, string> = {};
        for (const [name, items] of Object.entries(lists)) {
          const field = this.referenceLists.has(name) ? this.def.fields[name] : undefined;
          const issue = field ? valueSchema(field).safeParse(items).error?.issues[0] : undefined;
          if (issue) listErrors[name] = issueMessage(issue, items);
        }
        if (Object.keys(listErrors).length > 0) throw invalid(listErrors);
      }
      let valid = validatePatch(this.def, plain, wholeRecord ? this.fields.toRecord(current, columns) : undefined);
      this.checkScope(valid);
      if (references) await this.checkReferences(trx, { ...valid, ...lists }, this.fields.toRecord(current, columns));
      if (this.beforeWrite) valid = await this.beforeWrite(valid, { id, params });
      const update: Record<string, unknown> = { updated_at: this.knex.fn.now() };
      for (const [name, value] of Object.entries(valid)) {
        if (value === undefined) continue;
        update[this.fields.writable(name).column] = this.toColumnValue(name, value);
      }
      for (const [name, items] of Object.entries(lists)) {
        if (name in valid) throw invalid({ [name]: 'validation.conflictingUpdate' });
        update[this.fields.writable(name).column] = JSON.stringify(items);
      }
      // Still in scope when written: another service over the table may have moved it out since the read.
      const [row] = await this.scoped(trx(this.def.table))
        .where('id', String(id))
        .update(update)
        .returning(this.fields.publicColumns);
      if (!row) throw new NotFound(`No record found for id '${String(id)}'`);
      if (observed) {
        const change = {
          method: 'patch' as const,
          id: String(id),
          before: this.fields.toRecord(current),
          after: this.fields.toRecord(row as Record<string, unknown>),
        };
        await this.tellObserver([change], trx, params);
      }
      return row as Record<string, unknown>;
    };
    const row = await this.write(() =>
      params.transaction ? run(params.transaction) : locked ? this.knex.transaction(run) : run(this.knex),
    );
    return this.fields.toRecord(row) as EntityRecord;
  }

  remove(id: string, params?: ServerCallParams & { query?: FilterOf<E> }): Promise<RecordOf<E>>;
  async remove(id: Id | null, params: EntityParams = {}): Promise<unknown> {
    if (id === null) throw new MethodNotAllowed('Removing several records in one call is not allowed');
    const parsed = parseQuery(this.fields, params.query);
    const observed = this.observed(params);
    const removed = await this.write(() =>
      this.inWriteTransaction(params, observed, async (db) => {
        const rows = (await this.baseQuery(parsed, { ...params, transaction: db as Knex.Transaction })
          .where('id', String(id))
          .delete()
          .returning(this.fields.publicColumns)) as Record<string, unknown>[];
        const row = rows[0];
        if (!row) throw new NotFound(`No record found for id '${String(id)}'`);
        const record = this.fields.toRecord(row);
        if (observed)
          await this.tellObserver([{ method: 'remove', id: String(id), before: record, after: null }], db, params);
        return record;
      }),
    );
    return removed as EntityRecord;
  }

  /** Whether the observer sees this call's writes. */
  private observed(params: EntityParams): boolean {
    return this.observer?.observes(params) ?? false;
  }

  /**
   * Runs a write in the call's transaction, or in one of its own when the observer sees it (so its
   * rows and the change commit together), else on the pool.
   */
  private inWriteTransaction<T>(
    params: EntityParams,
    observed: boolean,
    action: (db: Knex | Knex.Transaction) => Promise<T>,
  ): Promise<T> {
    if (params.transaction) return action(params.transaction);
    return observed ? this.knex.transaction(action) : action(this.knex);
  }

  private async tellObserver(
    records: WrittenRecord[],
    db: Knex | Knex.Transaction,
    params: EntityParams,
  ): Promise<void> {
    // Only ever called inside a transaction (inWriteTransaction with `observed`).
    if (this.observer) await this.observer.written(this.def, records, db as Knex.Transaction, params);
  }

  private toColumnValue(name: string, value: unknown): unknown {
    if (value === null) return null;
    const field = this.fields.writable(name);
    if (field.def.kind === 'list') return JSON.stringify(keyListItems({ name, def: field.def }, value as unknown[]));
    if (field.def.kind === 'i18n' || field.def.kind === 'object') return JSON.stringify(value);
    return value;
  }

  /** Runs a write, turning database constraint errors into the client's errors. */
  private async write<T>(action: () => Promise<T> | Knex.QueryBuilder): Promise<T> {
    try {
      return (await action()) as T;
    } catch (error) {
      const pg = error as { code?: string; constraint?: string; detail?: string };
      if (pg.code === '23505') {
        const column = /Key \(([^)]+)\)/.exec(pg.detail ?? '')?.[1] ?? '';
        const field = this.fields.byColumn.get(column.replace(/^lower\((.*)\)$/, '$1'));
        throw new Conflict('validation.duplicate', { errors: { [field?.name ?? '_']: 'validation.duplicate' } });
      }
      // A field the definition lets be empty whose column is NOT NULL: the client's mistake, not a 500.
      if (pg.code === '23502') {
        const field = this.fields.byColumn.get((error as { column?: string }).column ?? '');
        throw invalid({ [field?.name ?? '_']: 'validation.required' });
      }
      // PostgreSQL 17 reports an ON DELETE RESTRICT reference as a restrict_violation (23001), older
      // versions as a foreign_key_violation (23503).
      if (pg.code === '23001') throw new Conflict('validation.inUse');
      if (pg.code === '23503') {
        const column = /Key \(([^)]+)\)/.exec(pg.detail ?? '')?.[1] ?? '';
        const field = this.fields.byColumn.get(column);
        if (field && /is not present/.test(pg.detail ?? ''))
          throw invalid({ [field.name]: 'validation.unknownReference' });
        throw new Conflict('validation.inUse');
      }
      throw error;
    }
  }

  private async populate(records: EntityRecord[], paths: string[], params: EntityParams): Promise<void> {
    if (paths.length === 0 || records.length === 0) return;
    if (!this.populator) throw new BadRequest('$populate is not available');
    await this.populator(this.def, records, paths, params);
  }
}
