import { BadRequest, Conflict } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { writtenValues } from '../../../domain/entities/scope.ts';
import type { Caller } from '../../hooks/row-rules.ts';
import type { EndSessionsParams } from './users.ts';

/** The message of a change that would leave no admin. */
export const LAST_ADMIN = 'validation.lastAdmin';
/** The message of an admin removing their own account, or taking their own admin type away. */
export const NOT_YOURSELF = 'validation.notYourself';

/**
 * What a role change or a removal must keep true, through every service over the users table
 * (`users`, where the field is `role`, and `admins`, where it is `type`), decision 052:
 * - the last admin is never removed nor made something else (a 409 `validation.lastAdmin`), so the
 *   back office always has someone who can manage staff;
 * - an admin does not remove nor demote their own account (a 400 `validation.notYourself`): another
 *   admin does it, so nobody locks themselves out by mistake;
 * - through `admins` (`endSessionsOnChange`), a new type ends the account's sessions
 *   (`endSessions`, as a new password does: users.ts): the staff member signs in again under the
 *   new type. Through `users` a new role applies from the next call, sockets moved to the new
 *   role's channel, as it always has (decision 052 says why both).
 * The check and the write are one transaction that holds every admin's row, so two admins demoting
 * each other at once cannot leave none. Runs inside the users service's own rules (userRules),
 * which may already have opened the transaction (a changed email).
 */
export function staffRules(roleField: string, options: { endSessionsOnChange: boolean }) {
  return async (context: HookContext, next: NextFunction) => {
    const { method } = context;
    if ((method !== 'patch' && method !== 'remove') || context.id === null || context.id === undefined) return next();
    const role = method === 'patch' ? writtenValues(context.data)[roleField] : undefined;
    // A role that is not text is the field's schema's to refuse.
    if (method === 'patch' && typeof role !== 'string') return next();
    const id = String(context.id);
    const run = async (trx: Knex.Transaction) => {
      const admins = (await trx('users').where('role', 'admin').forUpdate().pluck('id')) as string[];
      const target = (await trx('users').where('id', id).first('role')) as { role: string } | undefined;
      const params: EndSessionsParams = { ...context.params, transaction: trx };
      if (target) {
        const losesAdmin = target.role === 'admin' && (method === 'remove' || role !== 'admin');
        // A patch's message is on its role field, where the editor shows it.
        const onField = (key: string) => (method === 'patch' ? { errors: { [roleField]: key } } : undefined);
        if (losesAdmin && !admins.some((other) => other !== id)) throw new Conflict(LAST_ADMIN, onField(LAST_ADMIN));
        const caller = context.params.user as Caller;
        if (losesAdmin && context.params.provider && caller !== undefined && String(caller._id) === id)
          throw new BadRequest(NOT_YOURSELF, onField(NOT_YOURSELF));
        if (options.endSessionsOnChange && method === 'patch' && role !== target.role)
          params.endSessions = { keepCurrent: false };
      }
      context.params = params;
      await next();
    };
    const outer = context.params.transaction as Knex.Transaction | undefined;
    if (outer) await run(outer);
    else await (context.app.get('knex') as Knex).transaction(run);
  };
}
