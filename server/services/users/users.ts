import { BadRequest, Conflict, TooManyRequests } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { callerAddressKey } from '../../auth/address.ts';
import { consume, type LoginLimits } from '../../auth/limits.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { newId } from '../../db/ids.ts';
import { fieldsWritten, type BeforeWrite, type ServerCallParams } from '../entity/entity-service.ts';
import { registerEntityService } from '../entity/register.ts';
import { staffRules } from './staff.ts';
import { invalid } from '../entity/validate.ts';
import { definitions } from '../../../domain/entities/index.ts';
import { PASSWORD_BREACHED } from '../../../domain/validation/password.ts';
import { isBreachedPassword } from '../../auth/breached-passwords.ts';
import type { Verifications } from '../email-verifications/verifications.ts';
import type { ServerApp } from '../types.ts';

/** Fields that take over an account: changing one of one's own needs the current password. */
const CREDENTIALS = ['email', 'password'] as const;

type Caller = { _id: unknown; role?: string } | undefined;

/**
 * The users service's own rules, on top of the definition (who reaches which rows, who writes the
 * role): registration is rate limited per address; changing one's own email or password needs
 * the current password (`currentPassword` beside the data), so a stolen session alone cannot
 * take the account over. A changed email is unverified again: a code goes to the new address, in
 * the same transaction as the change (decision 020).
 */
export function userRules(limits: LoginLimits, verifications?: Verifications) {
  return async (context: HookContext, next: NextFunction) => {
    const { params, method } = context;
    const caller = params.user as Caller;
    if (params.provider && method === 'create' && caller?.role !== 'admin') {
      const wait = await consume(limits.registrations, callerAddressKey(params));
      if (wait !== null) throw new TooManyRequests('auth.tooManyRegistrations', { retryAfter: wait });
    }
    if (
      (method === 'create' || method === 'patch') &&
      context.data &&
      typeof context.data === 'object' &&
      !Array.isArray(context.data)
    ) {
      const { currentPassword, ...data } = context.data as Record<string, unknown>;
      if (typeof data.email === 'string') data.email = data.email.trim().toLowerCase();
      context.data = data;
      const ownRecord =
        caller !== undefined &&
        context.id !== null &&
        context.id !== undefined &&
        String(context.id) === String(caller._id);
      if (
        params.provider &&
        method === 'patch' &&
        ownRecord &&
        CREDENTIALS.some((name) => fieldsWritten(data).has(name))
      ) {
        await checkCurrentPassword(context, currentPassword, limits);
      } else if (currentPassword !== undefined) {
        throw invalid({ currentPassword: 'validation.unknownField' });
      }
    }
    try {
      const email = (context.data as Record<string, unknown> | undefined)?.email;
      if (method === 'patch' && verifications && typeof email === 'string')
        await patchEmail(context, next, verifications);
      else await next();
    } catch (error) {
      if (error instanceof Conflict && method === 'create') {
        throw new Conflict('validation.accountExists', { errors: { email: 'validation.accountExists' } });
      }
      throw error;
    }
  };
}

/**
 * A patch that writes the email, in a transaction holding the account: when the address changes
 * the account is unverified again and a code is sent to the new address.
 */
async function patchEmail(context: HookContext, next: NextFunction, verifications: Verifications): Promise<void> {
  const knex = context.app.get('knex') as Knex;
  let started = false;
  const run = async (trx: Knex.Transaction) => {
    const before = (await trx('users').where('id', String(context.id)).forUpdate().first('email')) as
      { email: string } | undefined;
    context.params = { ...context.params, transaction: trx };
    await next();
    const after = context.result as Record<string, unknown>;
    if (!before || typeof after?.email !== 'string' || after.email === before.email) return;
    await trx('users').where('id', String(after._id)).update({ email_verified_at: null });
    after.emailVerifiedAt = null;
    await verifications.start(trx, { _id: String(after._id), email: after.email }, 'email-change');
    started = true;
  };
  const outer = context.params.transaction as Knex.Transaction | undefined;
  if (outer) await run(outer);
  else await knex.transaction(run);
  if (started) verifications.wake();
}

/** The caller's own password, checked like a sign-in (same per-address limit, same hashing cost). */
export async function checkCurrentPassword(
  context: HookContext,
  given: unknown,
  limits: LoginLimits,
  table: 'users' | 'app_users' = 'users',
): Promise<void> {
  if (typeof given !== 'string' || given.length === 0) throw invalid({ currentPassword: 'validation.required' });
  if (given.length > 200) throw invalid({ currentPassword: 'validation.tooBig' });
  const wait = await consume(limits.perIp, callerAddressKey(context.params));
  if (wait !== null) throw new TooManyRequests('auth.tooManyAttempts', { retryAfter: wait });
  const knex = context.app.get('knex') as Knex;
  const stored = (await (context.params.transaction ?? knex)(table)
    .where('id', String(context.id))
    .first('password')) as { password?: string } | undefined;
  const ok = typeof stored?.password === 'string' && (await verifyPassword(stored.password, given));
  if (!ok) throw new BadRequest('validation.failed', { errors: { currentPassword: 'validation.currentPassword' } });
}

/**
 * Before a user is written: a password is hashed (after it passed validation), and a new password,
 * or a call that asks for it (`endSessions`), ends the account's sessions. The caller's own
 * session is kept when they change their own password; every other one stops working.
 */
export const userWrite: BeforeWrite = async (data, { id, params }) => {
  const written = { ...data };
  // Every way a password is set (registration, staff, a change) refuses the common breached ones.
  if (typeof data.password === 'string' && isBreachedPassword(data.password))
    throw invalid({ password: PASSWORD_BREACHED });
  if (typeof data.password === 'string') written.password = await hashPassword(data.password);
  const endSessions = (params as EndSessionsParams).endSessions;
  if (id !== undefined && (typeof data.password === 'string' || endSessions)) {
    const caller = params.user;
    const own = caller != null && String(caller._id) === String(id);
    const jti = (params.authentication as { payload?: { jti?: unknown } } | undefined)?.payload?.jti;
    written.sessionVersion = newId();
    written.sessionKept = own && endSessions?.keepCurrent !== false && typeof jti === 'string' ? jti : null;
  }
  return written;
};

/** Params that end the account's sessions with a write (user-sessions.ts). */
export type EndSessionsParams = ServerCallParams & { endSessions?: { keepCurrent: boolean } };

/** The users service: the generic entity service with the rules above. */
export function configureUsers(app: ServerApp, limits: LoginLimits, verifications?: Verifications): void {
  registerEntityService(app, definitions.users, {
    beforeWrite: userWrite,
    hooks: [userRules(limits, verifications), staffRules('role', { endSessionsOnChange: false })],
  });
}
