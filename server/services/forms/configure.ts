import type { Application, HookContext, NextFunction } from '@feathersjs/feathers';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { entities } from '../../../domain/entities/index.ts';
import { FORM_MESSAGES } from '../../../domain/forms/messages.ts';
import { createLimiter } from '../../auth/limits.ts';
import type { Config } from '../../config.ts';
import { JobQueue } from '../../jobs/queue.ts';
import { formRules } from './forms.ts';
import { defineStaffMailJob } from './staff-mail-job.ts';

type Rules = (context: HookContext, next: NextFunction) => Promise<void>;

/**
 * The public forms' rules for the entity services, the job queue and its staff-mail job. The
 * queue starts with the app's `setup` and stops with its `teardown`.
 */
export function configureForms(deps: { app: Application; config: Config; knex: Knex; logger: Logger; redis: Redis | null }) {
  const { app, config, knex, logger, redis } = deps;
  const jobs = new JobQueue(knex, logger);
  const limiter = createLimiter(redis, `${config.redisPrefix}:limit:forms`, config.formLimit);
  const rules: Record<string, Rules> = {
    [entities.contactForms.service]: formRules(entities.contactForms, { knex, jobs, limiter, incomplete: FORM_MESSAGES.failed }),
    [entities.enquiries.service]: formRules(entities.enquiries, { knex, jobs, limiter, incomplete: FORM_MESSAGES.incomplete }),
  };
  return {
    jobs,
    rules,
    /** After every service is registered: the mail job needs the outbox service. */
    start() {
      defineStaffMailJob(app, jobs, config, logger);
    },
  };
}
