import { BadRequest, Conflict, Forbidden, TooManyRequests } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import argon2 from 'argon2';
import { STAFF_ROLES } from '../../domain/entities/types.ts';
import { consume, type LoginLimits } from '../auth/limits.ts';
import { narrowQuery } from '../hooks/narrow-query.ts';

type User = { _id: string; role: string };

function isStaff(user: User | undefined): boolean {
  return Boolean(user && (STAFF_ROLES as readonly string[]).includes(user.role));
}

/** Narrows a query to one user's own record, whatever else it asks for (`_id: other` finds nothing). */
export function onlyOwnRecord(query: Record<string, unknown> | undefined, userId: string): Record<string, unknown> {
  return narrowQuery(query, { _id: userId });
}

/**
 * The users service's own rules, on top of the entity's access: members see and change only
 * themselves and never their role; editors read everyone but change only themselves; only admins
 * set roles or change other accounts; registration is rate limited per address.
 */
export function userRules(limits: LoginLimits) {
  return async (context: HookContext, next: NextFunction) => {
    const { params, method } = context;
    const caller = params.user as User | undefined;
    if (params.provider) {
      if ((method === 'find' || method === 'get' || method === 'patch') && caller && !isStaff(caller)) {
        params.query = onlyOwnRecord(params.query as Record<string, unknown> | undefined, caller._id);
      }
      // Staff read every account, but only an admin changes someone else's (email, password).
      if (method === 'patch' && caller && caller.role !== 'admin' && isStaff(caller) && String(context.id) !== caller._id) {
        throw new Forbidden('auth.forbidden');
      }
      if (method === 'create' || method === 'patch') {
        const data = context.data as Record<string, unknown>;
        if (data && typeof data === 'object' && 'role' in data && caller?.role !== 'admin') {
          throw new Forbidden('auth.forbidden');
        }
        if (method === 'patch' && caller && !isStaff(caller) && data && typeof data === 'object') {
          for (const key of Object.keys(data)) if (key.startsWith('$')) throw new BadRequest(`Unknown patch operator '${key}'`);
        }
      }
      if (method === 'create' && caller?.role !== 'admin') {
        const ip = String((params as { ip?: string }).ip ?? 'unknown');
        const wait = await consume(limits.registrations, ip);
        if (wait !== null) throw new TooManyRequests('auth.tooManyRegistrations', { retryAfter: wait });
      }
    }
    if ((method === 'create' || method === 'patch') && context.data && typeof context.data === 'object') {
      const data = { ...(context.data as Record<string, unknown>) };
      if (typeof data.email === 'string') data.email = data.email.trim().toLowerCase();
      context.data = data;
    }
    try {
      await next();
    } catch (error) {
      if (error instanceof Conflict && method === 'create') {
        throw new Conflict('validation.accountExists', { errors: { email: 'validation.accountExists' } });
      }
      throw error;
    }
  };
}

/** Hashes a password after it passed validation; runs inside the service call, before the write. */
export async function hashPasswordData(data: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (typeof data.password !== 'string') return data;
  return { ...data, password: await argon2.hash(data.password) };
}
