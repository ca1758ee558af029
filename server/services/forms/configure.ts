import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { definitions } from '../../../domain/entities/index.ts';
import { FORM_MESSAGES } from '../../../domain/forms/messages.ts';
import { createLimiter } from '../../auth/limits.ts';
import type { Config } from '../../config.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { MailJobs } from '../../mail/deliveries.ts';
import { registerEntityService } from '../entity/register.ts';
import { formRules } from './forms.ts';
import { defineStaffMailJob } from './staff-mail-job.ts';
import type { ServerApp } from '../types.ts';

/**
 * The public forms (contact forms, enquiries): generic entity services with the forms' rules, one
 * per-address limit for both, and the job that mails staff each submission. Needs the outbox
 * service, where the job keeps mail when there is no SMTP server.
 */
export function configureForms(
  app: ServerApp,
  deps: { config: Config; knex: Knex; logger: Logger; redis: Redis | null; jobs: JobQueue; mail: MailJobs },
): void {
  const { config, knex, logger, redis, jobs, mail } = deps;
  const limiter = createLimiter(redis, `${config.redisPrefix}:limit:forms`, config.formLimit);
  registerEntityService(app, definitions.contactForms, {
    hooks: [formRules(definitions.contactForms, { knex, jobs, limiter, incomplete: FORM_MESSAGES.failed })],
  });
  registerEntityService(app, definitions.enquiries, {
    hooks: [formRules(definitions.enquiries, { knex, jobs, limiter, incomplete: FORM_MESSAGES.incomplete })],
  });
  defineStaffMailJob(app, mail, config, logger);
}
