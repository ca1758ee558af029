import { BadRequest, Conflict, TooManyRequests } from '@feathersjs/errors';
import type { Application, Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { type FormErrors, formErrors, formSummary } from '../../../domain/forms/messages.ts';
import { REGISTRATION_MESSAGES, registrationSchema } from '../../../domain/forms/registration.ts';
import { PASSWORD_BREACHED, passwordSchema } from '../../../domain/validation/password.ts';
import { callerAddressKey } from '../../auth/address.ts';
import { isBreachedPassword } from '../../auth/breached-passwords.ts';
import { consume, type LoginLimits } from '../../auth/limits.ts';
import type { EntityParams } from '../entity/entity-service.ts';
import type { VerificationState, Verifications } from '../email-verifications/verifications.ts';

/** The fields of the new account that the registration answers (never the password or session fields). */
const ANSWERED_FIELDS = ['_id', 'email', 'name', 'companyName', 'companyAddress', 'phone', 'locale', 'role', 'emailVerifiedAt', 'createdAt', 'updatedAt'] as const;

export interface RegistrationResult {
  user: Record<string, unknown>;
  verification: VerificationState;
}

/**
 * `registrations` create: a business owner registers themselves (decision 020). The answers are
 * checked with the registration form's own schema (the browser's), plus the common-password list;
 * the account is made through `users.create` (a member, unverified) and its first code is queued
 * in the same transaction. Limited per address together with `users.create`.
 */
export class RegistrationsService {
  private readonly app: Application;
  private readonly knex: Knex;
  private readonly limits: LoginLimits;
  private readonly verifications: Verifications;

  constructor(app: Application, deps: { knex: Knex; limits: LoginLimits; verifications: Verifications }) {
    this.app = app;
    this.knex = deps.knex;
    this.limits = deps.limits;
    this.verifications = deps.verifications;
  }

  async create(data: unknown, params: Params = {}): Promise<RegistrationResult> {
    if (params.provider) {
      const wait = await consume(this.limits.registrations, callerAddressKey(params));
      if (wait !== null) throw new TooManyRequests('auth.tooManyRegistrations', { retryAfter: wait });
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new BadRequest('validation.invalid');
    const answers = data as Record<string, unknown>;
    const parsed = registrationSchema.safeParse(answers);
    const errors: FormErrors = parsed.success ? {} : formErrors(parsed.error, answers);
    // The one rule the browser does not check: the list stays on the server.
    if (!errors.password && typeof answers.password === 'string' && passwordSchema.safeParse(answers.password).success && isBreachedPassword(answers.password)) {
      errors.password = PASSWORD_BREACHED;
    }
    if (!parsed.success || Object.keys(errors).length > 0) throw new BadRequest(formSummary(errors, REGISTRATION_MESSAGES.incomplete), { errors });
    const { email, name, companyName, companyAddress, phone, password, locale } = parsed.data;

    const result = await this.knex.transaction(async (trx) => {
      const accountExists = () => new Conflict(REGISTRATION_MESSAGES.accountExists, { errors: { email: REGISTRATION_MESSAGES.accountExists } });
      // Said before the password is hashed: a taken address costs no hashing (the insert still decides a race).
      if (await trx('users').where({ email }).first('id')) throw accountExists();
      let user: Record<string, unknown>;
      try {
        user = (await this.app.service('users').create({ email, name, companyName, companyAddress, phone, password, locale }, { transaction: trx } as EntityParams)) as Record<string, unknown>;
      } catch (error) {
        if (error instanceof Conflict) throw accountExists();
        throw error;
      }
      const verification = await this.verifications.start(trx, { _id: String(user._id), email: String(user.email) }, 'registration');
      return { user: Object.fromEntries(ANSWERED_FIELDS.map((field) => [field, user[field] ?? null])), verification };
    });
    this.verifications.wake();
    return result;
  }
}

export function configureRegistrations(app: Application, deps: { knex: Knex; limits: LoginLimits; verifications: Verifications }): void {
  app.use('registrations', new RegistrationsService(app, deps), { methods: ['create'], events: [] });
}
