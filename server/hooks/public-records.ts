import type { HookContext, NextFunction } from '@feathersjs/feathers';
import { type EntityDef, STAFF_ROLES } from '../../domain/entities/types.ts';
import { narrowQuery } from './narrow-query.ts';

export function isStaffRole(role: string | undefined): boolean {
  return role !== undefined && (STAFF_ROLES as readonly string[]).includes(role);
}

/** True when anyone may see this record under the entity's `publicWhere`. */
export function isPublicRecord(def: EntityDef, record: unknown): boolean {
  if (!def.publicWhere) return true;
  if (typeof record !== 'object' || record === null) return false;
  return Object.entries(def.publicWhere).every(([field, value]) => (record as Record<string, unknown>)[field] === value);
}

/**
 * Outside callers who are not staff read only the records the entity makes public: their `find`
 * and `get` queries are narrowed, so a draft's id or `status: 'draft'` finds nothing (a 404 for
 * `get`). Runs after `authorize`, which has identified the caller.
 */
export function publicRecordsOnly(def: EntityDef) {
  return async (context: HookContext, next: NextFunction) => {
    const { params, method } = context;
    const role = (params.user as { role?: string } | undefined)?.role;
    if (def.publicWhere && params.provider && (method === 'find' || method === 'get') && !isStaffRole(role)) {
      params.query = narrowQuery(params.query as Record<string, unknown> | undefined, def.publicWhere);
    }
    await next();
  };
}
