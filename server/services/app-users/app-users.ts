import { Conflict, TooManyRequests } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import { definitions } from '../../../domain/entities/index.ts';
import { PASSWORD_BREACHED } from '../../../domain/validation/password.ts';
import { callerAddressKey } from '../../auth/address.ts';
import { isBreachedPassword } from '../../auth/breached-passwords.ts';
import { consume, type LoginLimits } from '../../auth/limits.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { newId } from '../../db/ids.ts';
import { fieldsWritten, type BeforeWrite } from '../entity/entity-service.ts';
import { registerEntityService } from '../entity/register.ts';
import { invalid } from '../entity/validate.ts';
import { checkCurrentPassword } from '../users/users.ts';
import type { ServerApp } from '../types.ts';

/** Fields that take over an account: changing one of one's own needs the current password. */
const CREDENTIALS = ['email', 'password'] as const;

/**
 * The app users' own rules, on top of the definition (decision 053): signing up is limited per
 * address as members' registrations are; an email is kept in lower case; an app user changing
 * their own email or password gives the current one (`currentPassword` beside the data), so a
 * stolen phone's session alone cannot take the account over; an email already in use is said so.
 */
export function appUserRules(limits: LoginLimits) {
  return async (context: HookContext, next: NextFunction) => {
    const { params, method } = context;
    const caller = params.appUser as { _id?: unknown } | null | undefined;
    if (params.provider && method === 'create' && !params.user) {
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
        caller?._id !== undefined &&
        context.id !== null &&
        context.id !== undefined &&
        String(context.id) === String(caller._id);
      if (
        params.provider &&
        method === 'patch' &&
        ownRecord &&
        CREDENTIALS.some((name) => fieldsWritten(data).has(name))
      ) {
        await checkCurrentPassword(context, currentPassword, limits, 'app_users');
      } else if (currentPassword !== undefined) {
        throw invalid({ currentPassword: 'validation.unknownField' });
      }
    }
    try {
      await next();
    } catch (error) {
      if (error instanceof Conflict && (method === 'create' || method === 'patch')) {
        throw new Conflict('validation.accountExists', { errors: { email: 'validation.accountExists' } });
      }
      throw error;
    }
  };
}

/**
 * Before an app user is written: a password is hashed (the breached ones refused), and a new
 * password or disabling the account ends its sessions everywhere (a new session version: every
 * token signed for the old one is refused, and its sockets are closed, on every instance).
 */
export const appUserWrite: BeforeWrite = async (data, { id }) => {
  const written = { ...data };
  if (typeof data.password === 'string' && isBreachedPassword(data.password))
    throw invalid({ password: PASSWORD_BREACHED });
  if (typeof data.password === 'string') written.password = await hashPassword(data.password);
  const disabling = data.disabledAt !== undefined && data.disabledAt !== null;
  if (id !== undefined && (typeof data.password === 'string' || disabling)) written.sessionVersion = newId();
  return written;
};

/** The app users service: the generic entity service with the rules above. */
export function configureAppUsers(app: ServerApp, limits: LoginLimits): void {
  registerEntityService(app, definitions.appUsers, { beforeWrite: appUserWrite, hooks: [appUserRules(limits)] });
}
