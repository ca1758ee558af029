import { createHash, randomBytes } from 'node:crypto';
import { BadRequest, Gone, TooManyRequests } from '@feathersjs/errors';
import type { Params } from '@feathersjs/feathers';
import { z } from '../../../domain/zod.ts';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { MailKind } from '../../../domain/entities/mail-deliveries.ts';
import type { PasswordResetAnswer } from '../../../domain/entities/services.ts';
import { definitions } from '../../../domain/entities/index.ts';
import { formErrors } from '../../../domain/forms/messages.ts';
import { passwordResetRequestSchema, RESET_TOKEN } from '../../../domain/forms/password-reset.ts';
import { requiredPassword } from '../../../domain/forms/profile.ts';
import { localeOf, type Locale } from '../../../domain/locales.ts';
import { PASSWORD_BREACHED } from '../../../domain/validation/password.ts';
import { callerAddressKey } from '../../auth/address.ts';
import { isBreachedPassword } from '../../auth/breached-passwords.ts';
import { consume, createLimiter } from '../../auth/limits.ts';
import type { Clock } from '../../clock.ts';
import { clockOf } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { newId } from '../../db/ids.ts';
import { hiddenFields, stripResult } from '../../hooks/clean-output.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import { localeFromHeaders } from '../../i18n.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { MailJobs } from '../../mail/deliveries.ts';
import {
  passwordResetLink,
  passwordResetMail,
  type ResetMailMessages,
  type ResetPage,
} from '../../mail/password-reset-mail.ts';
import { siteBaseUrl } from '../email-verifications/verification-mail-job.ts';
import type { EndSessionsParams } from '../users/users.ts';
import type { ServerApp } from '../types.ts';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** The rules of a password reset (decision 026). */
export const PASSWORD_RESET_RULES = {
  /** A link works this long after it was made; a request older than this is not mailed at all. */
  ttlMs: 60 * 60_000,
} as const;

/** Limits; production values, read by the tests. */
export const PASSWORD_RESET_LIMITS = {
  /** Links asked for from one address, whatever the email. */
  requestsPerAddress: { points: 10, duration: 15 * 60 },
  /** Links asked for one email, from every address together (the same for an address no account uses). */
  requestsPerEmail: { points: 3, duration: 60 * 60 },
  /** New passwords set from one address (a link cannot be guessed; this keeps scanners off). */
  resetsPerAddress: { points: 30, duration: 10 * 60 },
} as const;

/** The durable job that makes a link and mails it, when an account uses the address. */
export const PASSWORD_RESET_MAIL_JOB = 'password-reset-mail';
/** The same job for the users of the company's apps. */
export const APP_PASSWORD_RESET_MAIL_JOB = 'app-password-reset-mail';

/**
 * Whose passwords a reset service sets: the members and staff (`users`), or the users of the
 * company's apps (`appUsers`, decision 053). Each population has its own accounts, its own table
 * of links, its own job, mail, page and limits, so a link, a request or a limit of one never
 * reaches the other, even for the same address. The rules are the same (decision 026).
 */
export interface ResetPopulation {
  /** The reset service's path. */
  path: 'passwordResets' | 'appPasswordResets';
  /** The accounts' table. */
  accounts: 'users' | 'app_users';
  /** The links' table, and its column naming the account. */
  links: 'password_resets' | 'app_password_resets';
  account: 'user_id' | 'app_user_id';
  job: MailKind;
  /** The page the link opens, and the mail's messages. */
  page: ResetPage;
  mail: ResetMailMessages;
  /**
   * Writes the new password through the accounts' own service, in the reset's transaction: hashed,
   * the breached ones refused, and every session of the account ended by a new session version.
   */
  setPassword(app: ServerApp, id: string, password: string, trx: Knex.Transaction): Promise<unknown>;
  /** Announces the account as patched again, once the reset is committed (see `reset`). */
  announce(app: ServerApp, id: string): Promise<void>;
}

/** The members' and staff's resets: `passwordResets`, links in `password_resets`. */
export const MEMBER_RESETS: ResetPopulation = {
  path: 'passwordResets',
  accounts: 'users',
  links: 'password_resets',
  account: 'user_id',
  job: PASSWORD_RESET_MAIL_JOB,
  page: 'reset-password',
  mail: 'members',
  setPassword: (app, id, password, trx) => {
    // No caller's session is kept: the link may be sent from anywhere, signed in as anyone.
    const ending: EndSessionsParams = { transaction: trx, endSessions: { keepCurrent: false } };
    return app.service('users').patch(id, { password }, ending);
  },
  announce: async (app, id) => {
    const users = app.service('users');
    users.emit('patched', stripResult(await users.get(id), hiddenFields(definitions.users)));
  },
};

/** The apps' users' resets: `appPasswordResets`, links in `app_password_resets` (migration 035). */
export const APP_USER_RESETS: ResetPopulation = {
  path: 'appPasswordResets',
  accounts: 'app_users',
  links: 'app_password_resets',
  account: 'app_user_id',
  job: APP_PASSWORD_RESET_MAIL_JOB,
  page: 'app/reset-password',
  mail: 'appUsers',
  // A new password gives the app user a new session version (server/services/app-users).
  setPassword: (app, id, password, trx) => app.service('appUsers').patch(id, { password }, { transaction: trx }),
  announce: async (app, id) => {
    const appUsers = app.service('appUsers');
    appUsers.emit('patched', stripResult(await appUsers.get(id), hiddenFields(definitions.appUsers)));
  },
};

export interface PasswordResetMailJob {
  email: string;
  /** The language of the page that asked: the mail's when the account has none. */
  locale: Locale;
  /** When it was asked for (ISO): a request the mail could not follow within the link's life is dropped. */
  requestedAt: string;
}

/** The link's token as stored: its SHA-256 (the token is 256 random bits). */
export function resetTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

interface ResetRow {
  id: string;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  replaced_at: Date | null;
}

type Limiters = {
  requestsPerAddress: RateLimiterAbstract;
  requestsPerEmail: RateLimiterAbstract;
  resetsPerAddress: RateLimiterAbstract;
};

type Request = { email: unknown } | { token: unknown; password: unknown };

/** What was asked for: `{email}` (a link) or `{token, password}` (a new password), nothing else. */
function requestOf(data: unknown): Request {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new BadRequest('validation.invalid');
  const keys = Object.keys(data).sort().join(',');
  if (keys === 'email') return data as { email: unknown };
  if (keys === 'password,token') return data as { token: unknown; password: unknown };
  throw new BadRequest('validation.invalid');
}

const newPassword = z.object({ password: requiredPassword });

const tooMany = (retryAfter: number) => new TooManyRequests('reset.tooManyRequests', { retryAfter });
const invalidLink = () => new BadRequest('reset.invalidLink', { errors: { token: 'reset.invalidLink' } });

/**
 * `passwordResets` and `appPasswordResets` create, each for its population: `{email}` asks for a
 * link, and answers `{requested: true}` whether or not an account uses the address (the lookup and
 * the mail are the job's, so the answer takes the same path and time either way); `{token, password}`
 * sets a new password with the mailed link, once, ends every session of the account and every other
 * link, and answers `{reset: true, email}`.
 */
export class PasswordResetsService {
  private readonly app: ServerApp;
  private readonly knex: Knex;
  private readonly jobs: JobQueue;
  private readonly limiters: Limiters;
  private readonly population: ResetPopulation;

  constructor(app: ServerApp, deps: { knex: Knex; jobs: JobQueue; limiters: Limiters; population?: ResetPopulation }) {
    this.app = app;
    this.knex = deps.knex;
    this.jobs = deps.jobs;
    this.limiters = deps.limiters;
    this.population = deps.population ?? MEMBER_RESETS;
  }

  private now(): Date {
    return clockOf(this.app)();
  }

  async create(data: unknown, params: Params = {}): Promise<PasswordResetAnswer> {
    const request = requestOf(data);
    return 'email' in request
      ? this.request(request.email, params)
      : this.reset(request.token, request.password, params);
  }

  private async request(email: unknown, params: Params): Promise<PasswordResetAnswer> {
    if (params.provider) {
      const wait = await consume(this.limiters.requestsPerAddress, callerAddressKey(params));
      if (wait !== null) throw tooMany(wait);
    }
    const parsed = passwordResetRequestSchema.safeParse({ email });
    if (!parsed.success) throw new BadRequest('validation.failed', { errors: formErrors(parsed.error, { email }) });
    const address = parsed.data.email;
    if (params.provider) {
      const wait = await consume(this.limiters.requestsPerEmail, address);
      if (wait !== null) throw tooMany(wait);
    }
    const job: PasswordResetMailJob = {
      email: address,
      locale: localeFromHeaders(params.headers as Record<string, unknown> | undefined),
      requestedAt: this.now().toISOString(),
    };
    await this.jobs.send(this.population.job, job);
    this.jobs.wake(this.population.job);
    return { requested: true };
  }

  private async reset(token: unknown, password: unknown, params: Params): Promise<PasswordResetAnswer> {
    if (params.provider) {
      const wait = await consume(this.limiters.resetsPerAddress, callerAddressKey(params));
      if (wait !== null) throw tooMany(wait);
    }
    if (typeof token !== 'string' || !RESET_TOKEN.test(token)) throw invalidLink();
    const checked = newPassword.safeParse({ password });
    if (!checked.success)
      throw new BadRequest('validation.failed', { errors: formErrors(checked.error, { password }) });
    const chosen = checked.data.password;
    if (isBreachedPassword(chosen))
      throw new BadRequest('validation.failed', { errors: { password: PASSWORD_BREACHED } });
    const tokenHash = resetTokenHash(token);
    const population = this.population;
    const { links, accounts, account: owner } = population;
    const account = await this.knex.transaction(async (trx) => {
      const now = this.now();
      const found = (await trx(links).where({ token_hash: tokenHash }).first(owner)) as
        Record<string, string> | undefined;
      const id = found?.[owner];
      if (!id) throw invalidLink();
      // The account first, then its links, as the mail job takes them.
      const holder = (await trx(accounts).where({ id }).forUpdate().first('id', 'email')) as
        { id: string; email: string } | undefined;
      if (!holder) throw invalidLink();
      const row = (await trx(links).where({ token_hash: tokenHash }).forUpdate().first()) as ResetRow;
      if (row.used_at) throw new Gone('reset.linkUsed', { errors: { token: 'reset.linkUsed' } });
      if (row.replaced_at || now >= new Date(row.expires_at))
        throw new Gone('reset.expired', { errors: { token: 'reset.expired' } });
      await trx(links).where({ id: row.id }).update({ used_at: now });
      await trx(links)
        .where({ [owner]: holder.id })
        .whereNull('used_at')
        .whereNull('replaced_at')
        .update({ replaced_at: now });
      // Last, so nothing after it can undo what its event announced: the new password, and a new
      // session version that ends every session of the account (no caller's session is kept).
      await population.setPassword(this.app, holder.id, chosen, trx);
      return holder;
    });
    // Announced again once committed: a session looked up between the patch and the commit (and
    // cached for a few seconds with the old session version) is forgotten, here and elsewhere.
    await population.announce(this.app, account.id);
    return { reset: true, email: account.email };
  }
}

/**
 * Works the reset-mail jobs: when an account uses the address, makes a link (its earlier open links
 * stop working) and mails it in the account's language. A retried job makes a new link; a request
 * older than a link's life is dropped.
 */
export function definePasswordResetMailJob(deps: {
  mail: MailJobs;
  config: Config;
  logger: Logger;
  knex: Knex;
  now: Clock;
  population?: ResetPopulation;
}): void {
  const { mail, config, logger, knex, now, population = MEMBER_RESETS } = deps;
  const { accounts, links, account: owner } = population;
  mail.define<PasswordResetMailJob>(population.job, async ({ email, locale, requestedAt }, send) => {
    const start = now();
    if (start.getTime() - new Date(requestedAt).getTime() >= PASSWORD_RESET_RULES.ttlMs) {
      logger.info('password reset mail not sent: asked for too long ago');
      return;
    }
    const token = randomBytes(32).toString('base64url');
    const account = await knex.transaction(async (trx) => {
      const user = (await trx(accounts).where({ email }).forUpdate().first('id', 'email', 'locale')) as
        { id: string; email: string; locale: string | null } | undefined;
      if (!user) return undefined;
      await trx(links)
        .where({ [owner]: user.id })
        .whereNull('used_at')
        .whereNull('replaced_at')
        .update({ replaced_at: start });
      await trx(links).insert({
        id: newId(),
        [owner]: user.id,
        token_hash: resetTokenHash(token),
        created_at: start,
        expires_at: new Date(start.getTime() + PASSWORD_RESET_RULES.ttlMs),
      });
      return user;
    });
    if (!account) {
      logger.info('password reset mail not sent: no account uses the address');
      return;
    }
    const language = account.locale ? localeOf(account.locale) : locale;
    const link = passwordResetLink(siteBaseUrl(config), language, token, population.page);
    await send(
      passwordResetMail({
        to: account.email,
        locale: language,
        link,
        brand: config.site.brandName,
        minutes: PASSWORD_RESET_RULES.ttlMs / 60_000,
        messages: population.mail,
      }),
      language,
    );
    logger.info({ [population.accounts === 'users' ? 'user' : 'appUser']: account.id }, 'password reset mail sent');
  });
}

/** The reference's word on a reset service (decision 058): the same for both populations. */
function describeResets(path: ResetPopulation['path']) {
  return describeService(path, {
    summary: path === 'passwordResets' ? 'A member’s forgotten password' : 'A forgotten password of a user of the apps',
    description:
      '`{email}` asks for a mailed link (the same answer whether or not an account uses the address); ' +
      '`{token, password}` sets a new password with that link, once, and ends every session of the account. Limited per address (429).',
    access: { find: 'none', get: 'none', create: 'public', patch: 'none', remove: 'none' },
    methods: {
      create: {
        summary: 'Ask for a link, or set a new password',
        request: [passwordResetRequestSchema, newPassword.extend({ token: z.string().regex(RESET_TOKEN) }).strict()],
        answer: {
          oneOf: [
            { type: 'object', required: ['requested'], properties: { requested: { const: true } } },
            {
              type: 'object',
              required: ['reset', 'email'],
              properties: { reset: { const: true }, email: { type: 'string' } },
            },
          ],
        },
      },
    },
  });
}

/**
 * Registers a population's reset service and its mail job: the members' (`passwordResets`) unless
 * another is named (`APP_USER_RESETS`: `appPasswordResets`). Each keeps its own limits.
 */
export function configurePasswordResets(
  app: ServerApp,
  deps: { config: Config; knex: Knex; logger: Logger; jobs: JobQueue; mail: MailJobs; redis: Redis | null },
  population: ResetPopulation = MEMBER_RESETS,
): void {
  const { config, redis } = deps;
  const limiter = (name: keyof typeof PASSWORD_RESET_LIMITS) =>
    createLimiter(redis, `${config.redisPrefix}:limit:${population.path}:${name}`, PASSWORD_RESET_LIMITS[name]);
  const limiters: Limiters = {
    requestsPerAddress: limiter('requestsPerAddress'),
    requestsPerEmail: limiter('requestsPerEmail'),
    resetsPerAddress: limiter('resetsPerAddress'),
  };
  const service = new PasswordResetsService(app, { knex: deps.knex, jobs: deps.jobs, limiters, population });
  useCustomService(app, population.path, service, describeResets(population.path), { methods: ['create'] });
  definePasswordResetMailJob({
    mail: deps.mail,
    config,
    logger: deps.logger,
    knex: deps.knex,
    now: () => clockOf(app)(),
    population,
  });
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    passwordResets: PasswordResetsService;
    appPasswordResets: PasswordResetsService;
  }
}
