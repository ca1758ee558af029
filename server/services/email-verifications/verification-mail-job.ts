import type { Application } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { localeOf } from '../../../domain/locales.ts';
import type { Config } from '../../config.ts';
import type { MailJobs } from '../../mail/deliveries.ts';
import { verificationLink, verificationMail } from '../../mail/verification-mail.ts';
import {
  VERIFICATION_MAIL_JOB,
  VERIFICATION_RULES,
  type VerificationMailJob,
  type Verifications,
} from './verifications.ts';

/** Where links point when PUBLIC_URL is unset (development and tests). */
export function siteBaseUrl(config: Config): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/**
 * Works the verification-mail jobs: mails the code and the link in the account's language (SMTP
 * or outbox). A code that was used, replaced or has expired before its mail went is not sent.
 */
export function defineVerificationMailJob(
  app: Application,
  deps: { mail: MailJobs; config: Config; logger: Logger; knex: Knex; verifications: Verifications; now: () => Date },
): void {
  const { mail, config, logger, knex, verifications, now } = deps;
  mail.define<VerificationMailJob>(VERIFICATION_MAIL_JOB, async ({ verification, sealed }, send) => {
    const row = (await knex('email_verifications')
      .where({ id: verification })
      .first('user_id', 'email', 'expires_at', 'used_at', 'replaced_at')) as
      { user_id: string; email: string; expires_at: Date; used_at: Date | null; replaced_at: Date | null } | undefined;
    if (!row || row.used_at || row.replaced_at || now() >= new Date(row.expires_at)) {
      logger.info({ verification }, 'verification mail not sent: the code is no longer open');
      return;
    }
    const user = (await knex('users').where({ id: row.user_id }).first('email', 'locale')) as
      { email: string; locale: string | null } | undefined;
    if (!user || user.email !== row.email) return;
    const locale = localeOf(user.locale);
    const { code, token } = verifications.unseal(sealed);
    const link = verificationLink(siteBaseUrl(config), locale, token);
    await send(
      verificationMail({
        to: row.email,
        locale,
        code,
        link,
        brand: config.site.brandName,
        minutes: VERIFICATION_RULES.ttlMs / 60_000,
      }),
      locale,
    );
    logger.info({ verification }, 'verification mail sent');
  });
}
