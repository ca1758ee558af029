import { BadRequest, Conflict } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import { definitions } from '../../../domain/entities/index.ts';
import { writtenValues } from '../../../domain/entities/scope.ts';
import type { LoginLimits } from '../../auth/limits.ts';
import type { Verifications } from '../email-verifications/verifications.ts';
import { registerEntityService } from '../entity/register.ts';
import type { ServerApp } from '../types.ts';
import { staffRules } from '../users/staff.ts';
import { userRules, userWrite } from '../users/users.ts';

/**
 * What the users service hears of its accounts' changes, from a change made through `admins`: the
 * account as the users service shows it (`role`, not `type`; never the password). The users
 * service's listeners end the account's sockets when its sessions ended or move them to the new
 * role's channel (channels.ts), and forget its cached sessions (auth/strategies.ts), on this
 * instance and, through the sync, on the others; staff watching the users table see the change.
 */
function accountOf(record: Record<string, unknown>): Record<string, unknown> {
  const { type, password: _password, ...rest } = record;
  return { ...rest, role: type };
}

/** The message of one's own email or password changed here without the current password. */
export const OWN_CREDENTIALS = 'validation.ownCredentials';

function relayToUsers(app: ServerApp) {
  return async (context: HookContext, next: NextFunction) => {
    await next();
    const result = context.result as Record<string, unknown> | undefined;
    if (!result || typeof result !== 'object') return;
    if (context.method === 'patch') app.service('users').emit('patched', accountOf(result));
    if (context.method === 'remove') app.service('users').emit('removed', accountOf(result));
  };
}

/** A second account with the address: the same message as a registration's. */
async function accountExists(context: HookContext, next: NextFunction): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (error instanceof Conflict && context.method === 'patch' && error.errors?.email)
      throw new Conflict('validation.accountExists', { errors: { email: 'validation.accountExists' } });
    throw error;
  }
}

/**
 * One's own email or password changed through `admins` without the current password (which the
 * back office's editor does not ask for): said on the field, pointing to the profile page, where
 * it is asked. With `currentPassword` given (an API client), the users service's rule checks it.
 */
async function ownCredentials(context: HookContext, next: NextFunction): Promise<void> {
  const caller = context.params.user as { _id?: unknown } | undefined;
  const data = context.data as Record<string, unknown> | undefined;
  if (
    context.params.provider &&
    context.method === 'patch' &&
    caller &&
    String(caller._id) === String(context.id) &&
    data &&
    typeof data === 'object' &&
    data.currentPassword === undefined
  ) {
    const written = writtenValues(data);
    const errors = Object.fromEntries(
      ['email', 'password'].filter((name) => name in written).map((name) => [name, OWN_CREDENTIALS]),
    );
    if (Object.keys(errors).length > 0) throw new BadRequest(OWN_CREDENTIALS, { errors });
  }
  await next();
}

/**
 * `admins` (decision 052): the staff accounts, the generic entity service over the users table
 * narrowed to the staff types (the definition's scope). The users service's rules apply as they
 * are: a password is checked against the breached ones and hashed, never answered; one's own email
 * or password needs the current password; a changed email is verified again. Besides, the last
 * admin stays, an admin does not demote or remove themselves, and a new type or password ends the
 * account's sessions (staff.ts).
 */
export function configureAdmins(app: ServerApp, limits: LoginLimits, verifications?: Verifications): void {
  registerEntityService(app, definitions.admins, {
    beforeWrite: userWrite,
    hooks: [
      relayToUsers(app),
      accountExists,
      ownCredentials,
      userRules(limits, verifications),
      staffRules('type', { endSessionsOnChange: true }),
    ],
  });
}
