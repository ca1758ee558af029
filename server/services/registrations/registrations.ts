import { BadRequest, Conflict, TooManyRequests } from '@feathersjs/errors';
import type { Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { type FormErrors, formErrors, formSummary } from '../../../domain/forms/messages.ts';
import { REGISTRATION_MESSAGES, registrationSchema } from '../../../domain/forms/registration.ts';
import { describeService } from '../../openapi/registry.ts';
import { PASSWORD_BREACHED, passwordSchema } from '../../../domain/validation/password.ts';
import { callerAddressKey } from '../../auth/address.ts';
import { isBreachedPassword } from '../../auth/breached-passwords.ts';
import { consume, type LoginLimits } from '../../auth/limits.ts';
import type { Definitions } from '../../../domain/entities/index.ts';
import type { RegistrationAnswer } from '../../../domain/entities/services.ts';
import type { RecordOf } from '../../../domain/entities/types.ts';
import type { Verifications } from '../email-verifications/verifications.ts';
import type { ServerApp } from '../types.ts';

/**
 * `registrations` create: a business owner registers themselves (decision 020). The answers are
 * checked with the registration form's own schema (the browser's), plus the common-password list;
 * the account is made through `users.create` (a member, unverified) and its first code is queued
 * in the same transaction. Limited per address together with `users.create`.
 */
export class RegistrationsService {
  private readonly app: ServerApp;
  private readonly knex: Knex;
  private readonly limits: LoginLimits;
  private readonly verifications: Verifications;

  constructor(app: ServerApp, deps: { knex: Knex; limits: LoginLimits; verifications: Verifications }) {
    this.app = app;
    this.knex = deps.knex;
    this.limits = deps.limits;
    this.verifications = deps.verifications;
  }

  async create(data: unknown, params: Params = {}): Promise<RegistrationAnswer> {
    if (params.provider) {
      const wait = await consume(this.limits.registrations, callerAddressKey(params));
      if (wait !== null) throw new TooManyRequests('auth.tooManyRegistrations', { retryAfter: wait });
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new BadRequest('validation.invalid');
    const answers = data as Record<string, unknown>;
    const parsed = registrationSchema.safeParse(answers);
    const errors: FormErrors = parsed.success ? {} : formErrors(parsed.error, answers);
    // The one rule the browser does not check: the list stays on the server.
    if (
      !errors.password &&
      typeof answers.password === 'string' &&
      passwordSchema.safeParse(answers.password).success &&
      isBreachedPassword(answers.password)
    ) {
      errors.password = PASSWORD_BREACHED;
    }
    if (!parsed.success || Object.keys(errors).length > 0)
      throw new BadRequest(formSummary(errors, REGISTRATION_MESSAGES.incomplete), { errors });
    const { email, name, companyName, companyAddress, phone, password, locale } = parsed.data;

    const result = await this.knex.transaction(async (trx) => {
      const accountExists = () =>
        new Conflict(REGISTRATION_MESSAGES.accountExists, { errors: { email: REGISTRATION_MESSAGES.accountExists } });
      // Said before the password is hashed: a taken address costs no hashing (the insert still decides a race).
      if (await trx('users').where({ email }).first('id')) throw accountExists();
      let user: RecordOf<Definitions['users']>;
      try {
        user = await this.app
          .service('users')
          .create({ email, name, companyName, companyAddress, phone, password, locale }, { transaction: trx });
      } catch (error) {
        if (error instanceof Conflict) throw accountExists();
        throw error;
      }
      const verification = await this.verifications.start(trx, { _id: user._id, email: user.email }, 'registration');
      const answered: RegistrationAnswer['user'] = {
        _id: user._id,
        email: user.email,
        name: user.name,
        companyName: user.companyName,
        companyAddress: user.companyAddress,
        phone: user.phone,
        locale: user.locale,
        role: user.role,
        emailVerifiedAt: user.emailVerifiedAt,
        createdAt: user.createdAt,
        updatedAt: user.updatedAt,
      };
      return { user: answered, verification };
    });
    this.verifications.wake();
    return result;
  }
}

/** The reference's word on `registrations` (decision 058). */
export const registrationsDescription = describeService('registrations', {
  summary: 'A business owner registers themselves',
  description:
    'The registration form’s answers; a code is mailed to prove the address. Limited per address (429); 409 when the email has an account.',
  access: { find: 'none', get: 'none', create: 'public', patch: 'none', remove: 'none' },
  methods: {
    create: {
      summary: 'Register',
      request: registrationSchema,
      answer: {
        type: 'object',
        required: ['user', 'verification'],
        properties: { user: { type: 'object' }, verification: { type: 'object' } },
      },
      statuses: [409],
    },
  },
});

export function configureRegistrations(
  app: ServerApp,
  deps: { knex: Knex; limits: LoginLimits; verifications: Verifications },
): void {
  app.use('registrations', new RegistrationsService(app, deps), { methods: ['create'], events: [] });
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    registrations: RegistrationsService;
  }
}
