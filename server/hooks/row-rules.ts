import { Forbidden, NotFound } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import { type EntityDef, STAFF_ROLES } from '../../domain/entities/types.ts';
import { clockOf } from '../clock.ts';
import { narrowQuery } from './narrow-query.ts';
import { ownerCallerOf } from './caller.ts';

export type Caller = { _id: unknown; role?: string } | undefined;

export function isStaffRole(role: string | undefined): boolean {
  return role !== undefined && (STAFF_ROLES as readonly string[]).includes(role);
}

/** An instant held by a record's date field, or null when the field is empty (or not a date). */
function instantOf(value: unknown): number | null {
  if (value instanceof Date) return value.getTime();
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : time;
}

/** True when anyone may see this record under the entity's `publicWhere` and `publicWindow`, at `now`. */
export function isPublicRecord(def: EntityDef, record: unknown, now: Date = new Date()): boolean {
  if (!def.publicWhere && !def.publicWindow) return true;
  if (typeof record !== 'object' || record === null) return false;
  const values = record as Record<string, unknown>;
  const where = Object.entries(def.publicWhere ?? {}).every(([field, value]) => values[field] === value);
  if (!where || !def.publicWindow) return where;
  const at = now.getTime();
  const started = def.publicWindow.from.every((field) => {
    const time = instantOf(values[field]);
    return values[field] == null || (time !== null && time <= at);
  });
  const ended = def.publicWindow.until.some((field) => {
    const time = instantOf(values[field]);
    return values[field] != null && (time === null || time <= at);
  });
  return started && !ended;
}

/**
 * The query conditions of a public record at `now` (`publicWhere` and `publicWindow`), or none:
 * what every read of a caller other than staff is narrowed to.
 */
export function publicConditions(def: EntityDef, now: Date): Record<string, unknown>[] {
  const conditions: Record<string, unknown>[] = def.publicWhere ? [{ ...def.publicWhere }] : [];
  const at = now.toISOString();
  for (const field of def.publicWindow?.from ?? [])
    conditions.push({ $or: [{ [field]: null }, { [field]: { $lte: at } }] });
  for (const field of def.publicWindow?.until ?? [])
    conditions.push({ $or: [{ [field]: null }, { [field]: { $gt: at } }] });
  return conditions;
}

/** True when a role reaches every row of the entity for reading or for writing (no owner rule narrows it). */
export function reachesAllRows(def: EntityDef, role: string | undefined, purpose: 'read' | 'write'): boolean {
  if (!def.owner) return true;
  return role !== undefined && (def.owner.allRows[purpose] as readonly string[]).includes(role);
}

/**
 * The condition every row an outside caller reaches must meet, or null when they reach them all:
 * records that are not public (drafts) are read by staff alone, and rows with an owner by their
 * owner and the roles the definition names. One rule for a direct read, a write, a `$populate`.
 */
export function rowCondition(
  def: EntityDef,
  caller: Caller,
  purpose: 'read' | 'write',
  now: Date = new Date(),
): Record<string, unknown> | null {
  const conditions: Record<string, unknown>[] = [];
  if (purpose === 'read' && !isStaffRole(caller?.role)) conditions.push(...publicConditions(def, now));
  if (def.owner && !reachesAllRows(def, caller?.role, purpose)) {
    // Nobody signed in owns a row: an empty list matches none.
    conditions.push(caller ? { [def.owner.field]: String(caller._id) } : { [def.owner.field]: { $in: [] } });
  }
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? (conditions[0] as Record<string, unknown>) : { $and: conditions };
}

/**
 * Applies the row rules of a definition to outside calls. Reads are narrowed (another member's
 * id is a 404, as if it did not exist). A write to a row the caller may read but not change is a
 * 403; one to a row they cannot even read is a 404. A non-staff caller's new row is their own.
 * Runs after `authorize`, which has identified the caller.
 */
export function rowRules(def: EntityDef) {
  return async (context: HookContext, next: NextFunction) => {
    const { params, method } = context;
    if (!params.provider) return next();
    const caller: Caller = ownerCallerOf(params, def.owner?.of);
    if (method === 'find' || method === 'get') {
      const condition = rowCondition(def, caller, 'read', clockOf(context.app)());
      // A params object of the call's own: the caller's (reused for another call) is left as it was.
      if (condition)
        context.params = {
          ...params,
          query: narrowQuery(params.query as Record<string, unknown> | undefined, condition),
        };
      return next();
    }
    if (method === 'create') {
      const owner = def.owner;
      const data = context.data;
      if (
        owner &&
        owner.field !== '_id' &&
        caller &&
        !reachesAllRows(def, caller.role, 'write') &&
        typeof data === 'object' &&
        data !== null
      ) {
        context.data = { ...(data as Record<string, unknown>), [owner.field]: String(caller._id) };
      }
      return next();
    }
    if (method !== 'patch' && method !== 'remove') return next();
    const condition = rowCondition(def, caller, 'write');
    if (!condition) return next();
    // Top-level keys stay where they are: a patch reads its positional `list.key` conditions there.
    const original = (params.query ?? {}) as Record<string, unknown>;
    const { $and: and, ...rest } = original;
    context.params = {
      ...params,
      query: { ...rest, $and: and === undefined ? [condition] : [condition, { $and: and }] },
    };
    try {
      await next();
    } catch (error) {
      if (!(error instanceof NotFound) || context.id === null || context.id === undefined) throw error;
      const readable = rowCondition(def, caller, 'read', clockOf(context.app)());
      const query = readable ? narrowQuery({ $select: ['_id'] }, readable) : { $select: ['_id'] };
      const seen = await context.service.get(context.id, { query }).then(
        () => true,
        () => false,
      );
      if (seen) throw new Forbidden('auth.forbidden');
      throw error;
    }
  };
}
