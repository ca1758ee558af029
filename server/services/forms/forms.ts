import { BadRequest, Forbidden, TooManyRequests } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { type EntityDef, writtenByCreator } from '../../../domain/entities/types.ts';
import { formSummary, HONEYPOT_FIELD } from '../../../domain/forms/messages.ts';
import { callerAddressKey } from '../../auth/address.ts';
import { consume } from '../../auth/limits.ts';
import { newId } from '../../db/ids.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { validateCreate } from '../entity/validate.ts';
import type { ServerApp } from '../types.ts';

/** The job that mails staff about a new enquiry or contact form. */
export const STAFF_MAIL_JOB = 'staff-mail';
export interface StaffMailJob {
  service: string;
  id: string;
}

/** Submissions this close together, from the same email with the same answers, are one. */
export const DUPLICATE_WINDOW_MS = 60_000;

type Data = Record<string, unknown>;

function sameAnswers(def: EntityDef, a: Data, b: Data): boolean {
  return Object.entries(def.fields)
    .filter(([, field]) => writtenByCreator(field))
    .every(([name]) => JSON.stringify(a[name] ?? null) === JSON.stringify(b[name] ?? null));
}

export interface FormRulesOptions {
  knex: Knex;
  jobs: JobQueue;
  limiter: RateLimiterAbstract;
  /** The message above the fields when answers are missing. */
  incomplete: string;
}

/**
 * What the public forms add to the entity service on `create`: closed while the contact-form
 * feature is off, limited per address, a filled honeypot succeeds without storing anything, a
 * repeat within a minute answers the first record, and every stored submission queues its staff
 * mail in the same transaction.
 */
export function formRules(def: EntityDef, { knex, jobs, limiter, incomplete }: FormRulesOptions) {
  return async (context: HookContext<ServerApp>, next: NextFunction) => {
    if (context.method !== 'create') return next();
    const { params } = context;
    if (params.provider) {
      const features = await context.app.service('features').find();
      if (!features.contactForm) throw new Forbidden('forms.closed');
      const wait = await consume(limiter, callerAddressKey(params));
      if (wait !== null) throw new TooManyRequests('forms.tooMany', { retryAfter: wait });
    }
    if (typeof context.data !== 'object' || context.data === null || Array.isArray(context.data))
      throw new BadRequest('validation.invalid');
    const { [HONEYPOT_FIELD]: honeypot, ...answers } = context.data as Data;
    // Checked here, once: the service writes these very answers without checking them again.
    let valid: Readonly<Data>;
    try {
      valid = validateCreate(def, answers);
    } catch (error) {
      if (error instanceof BadRequest) {
        const errors = (error.errors ?? {}) as Record<string, string>;
        throw new BadRequest(formSummary(errors, incomplete), { errors });
      }
      throw error;
    }
    if (typeof honeypot === 'string' ? honeypot.trim() !== '' : honeypot !== undefined && honeypot !== null) {
      // A robot filled the field people never see: it is told all went well, and nothing is kept.
      context.result = { _id: newId(), ...valid, createdAt: new Date() };
      return;
    }
    context.data = valid;
    let queued = false;
    await knex.transaction(async (trx) => {
      // One submission per email at a time, so two identical ones cannot both pass the check.
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`${def.table}:${String(valid.email)}`]);
      const recent = (await context.service.find({
        query: { email: valid.email, createdAt: { $gt: new Date(Date.now() - DUPLICATE_WINDOW_MS) }, $limit: 20 },
        paginate: false,
        transaction: trx,
      })) as Data[];
      const duplicate = recent.find((record) => sameAnswers(def, record, valid));
      if (duplicate) {
        context.result = duplicate;
        return;
      }
      context.params = { ...params, transaction: trx };
      await next();
      const job: StaffMailJob = { service: def.service, id: String((context.result as Data)._id) };
      await jobs.send(STAFF_MAIL_JOB, job, trx);
      queued = true;
    });
    // Committed: the mail goes out now rather than at the queue's next poll.
    if (queued) jobs.wake(STAFF_MAIL_JOB);
  };
}
