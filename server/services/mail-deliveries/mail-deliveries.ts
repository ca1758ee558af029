import { randomUUID } from 'node:crypto';
import { BadRequest, Conflict, NotFound } from '@feathersjs/errors';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { type Definitions, definitions } from '../../../domain/entities/index.ts';
import type { RecordOf } from '../../../domain/entities/types.ts';
import { clockOf } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { MailDeliveries, MailJobs } from '../../mail/deliveries.ts';
import { createMailer } from '../../mail/mailer.ts';
import { auditChange } from '../audit-logs/audit-trail.ts';
import type { EntityParams } from '../entity/entity-service.ts';
import { registerEntityService } from '../entity/register.ts';
import type { ServerApp } from '../types.ts';
import { RECORD_ID } from '../../db/ids.ts';

const TABLE = definitions.mailDeliveries.table;

/** Messages of a refused retry (locales: `mail.*`). */
export const MAIL_QUEUE_MESSAGES = {
  notFailed: 'mail.notFailed',
  unknownKind: 'mail.unknownKind',
} as const;

/**
 * `mailRetries` create `{delivery}` (admins): a mail that failed on its last attempt is sent again
 * as a new job of its kind with the job's data as first sent; its row goes back to `queued` and
 * follows the new job (decision 035). Any other state is a 409 `mail.notFailed`.
 */
export class MailRetriesService {
  private readonly app: ServerApp;
  private readonly knex: Knex;
  private readonly jobs: JobQueue;

  constructor(app: ServerApp, knex: Knex, jobs: JobQueue) {
    this.app = app;
    this.knex = knex;
    this.jobs = jobs;
  }

  async create(data: unknown, params: EntityParams = {}): Promise<RecordOf<Definitions['mailDeliveries']>> {
    const deliveryId =
      typeof data === 'object' && data !== null && !Array.isArray(data)
        ? (data as { delivery?: unknown }).delivery
        : undefined;
    if (typeof deliveryId !== 'string' || !RECORD_ID.test(deliveryId) || Object.keys(data as object).length !== 1) {
      throw new BadRequest('validation.failed', { errors: { delivery: 'validation.invalid' } });
    }
    const kind = await this.knex.transaction(async (trx) => {
      const row = (await trx(TABLE)
        .where({ id: deliveryId })
        .forUpdate()
        .first('kind', 'state', 'job_id', 'job_data')) as
        { kind: string; state: string; job_id: string; job_data: object } | undefined;
      if (!row) throw new NotFound(`No record found for id '${deliveryId}'`);
      if (row.state !== 'failed')
        throw new Conflict(MAIL_QUEUE_MESSAGES.notFailed, {
          errors: { delivery: MAIL_QUEUE_MESSAGES.notFailed },
          state: row.state,
        });
      if (!this.jobs.defines(row.kind))
        throw new Conflict(MAIL_QUEUE_MESSAGES.unknownKind, { errors: { delivery: MAIL_QUEUE_MESSAGES.unknownKind } });
      // The row names its new job first, so the queue's observer keeps this row rather than adding one.
      const jobId = randomUUID();
      await trx(TABLE)
        .where({ id: deliveryId })
        .update({ state: 'queued', job_id: jobId, updated_at: clockOf(this.app)() });
      await this.jobs.send(row.kind, row.job_data, trx, { id: jobId });
      await auditChange(this.app, trx, params, {
        service: definitions.mailDeliveries.service,
        method: 'patch',
        recordId: deliveryId,
        changes: { state: { before: row.state, after: 'queued' }, jobId: { before: row.job_id, after: jobId } },
      });
      return row.kind;
    });
    this.jobs.wake(kind);
    const deliveries = this.app.service('mailDeliveries');
    // No field of a delivery is hidden: the record as read is what every client may see.
    const record = await deliveries.get(deliveryId);
    deliveries.emit('patched', record);
    return record;
  }
}

/** The reference's word on `mailRetries` (decision 058). */
export const mailRetriesDescription = describeService('mailRetries', {
  summary: 'An admin sends a failed mail again',
  description:
    'The answer is the mail’s `mailDeliveries` record, back in `queued`; 409 for a mail that has not failed.',
  access: { find: 'none', get: 'none', create: ['admin'], patch: 'none', remove: 'none' },
  methods: {
    create: {
      summary: 'Retry a failed mail',
      request: { type: 'object', required: ['delivery'], properties: { delivery: { type: 'string' } } },
      answer: { entity: 'mailDeliveries' },
      statuses: [404, 409],
    },
  },
});

/**
 * The mail queue (decision 035): the mailer every mail job hands its mail to, the `mailDeliveries`
 * rows that follow each job (staff read them), and `mailRetries`, by which an admin sends a failed
 * mail again. Needs the outbox service, where mail goes when there is no SMTP server.
 */
export function configureMailQueue(
  app: ServerApp,
  deps: { config: Config; knex: Knex; logger: Logger; jobs: JobQueue },
): MailJobs {
  const { config, knex, logger, jobs } = deps;
  registerEntityService(app, definitions.mailDeliveries);
  useCustomService(app, 'mailRetries', new MailRetriesService(app, knex, jobs), mailRetriesDescription, {
    methods: ['create'],
  });
  return new MailJobs({
    jobs,
    deliveries: new MailDeliveries(knex, () => clockOf(app)()),
    mailer: createMailer(config.mail, app.service('outbox')),
    options: config.mail,
    logger,
  });
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    mailRetries: MailRetriesService;
  }
}
