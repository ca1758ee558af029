import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { definitions } from '../../domain/entities/index.ts';
import type { MailDeliveryState, MailKind } from '../../domain/entities/mail-deliveries.ts';
import type { Locale } from '../../domain/locales.ts';
import type { Clock } from '../clock.ts';
import { newId } from '../db/ids.ts';
import type { JobAttempt, JobObserver, JobQueue, QueueOptions } from '../jobs/queue.ts';
import type { Mail, Mailer } from './mailer.ts';

const TABLE = definitions.mailDeliveries.table;

/** The longest `last_error` kept. */
const ERROR_LENGTH = 300;

/**
 * An error as staff may read it: its code and the first line of its message, without a URL's
 * credentials (`smtp://user:secret@host`), cut short. Never a stack.
 */
export function safeErrorText(error: unknown): string {
  const { code, message } = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as {
    code?: unknown;
    message?: unknown;
  };
  const line = (typeof message === 'string' ? message : 'unknown error').split('\n')[0]?.trim() ?? '';
  const text = [typeof code === 'string' && !line.includes(code) ? code : '', line]
    .filter(Boolean)
    .join(': ')
    .replace(/\/\/[^/\s:@]*:[^/\s@]*@/g, '//***@');
  return text.length > ERROR_LENGTH ? `${text.slice(0, ERROR_LENGTH - 1)}…` : text;
}

/**
 * The mail queue's rows (`mailDeliveries`, decision 035): one per mail job, written as the job is
 * sent (in the sender's transaction), started, delivered or failed. It observes the mail queues
 * (server/jobs/queue.ts), which log its failures and go on: a row can lag behind its job, a job
 * never fails or runs twice because of its row.
 */
export class MailDeliveries implements JobObserver {
  private readonly knex: Knex;
  private readonly clock: Clock;
  /** Jobs whose current attempt handed its mail to the transport, in this process. */
  private readonly mailed = new Set<string>();

  constructor(knex: Knex, clock: Clock) {
    this.knex = knex;
    this.clock = clock;
  }

  async sent(queue: string, id: string, data: object, trx: Knex.Transaction): Promise<void> {
    const now = this.clock();
    // A retry names its job on the row before sending it (`retry`): that row stays the one.
    await trx(TABLE)
      .insert({
        id: newId(),
        kind: queue,
        state: 'queued',
        attempts: 0,
        job_id: id,
        job_data: JSON.stringify(data),
        created_at: now,
        updated_at: now,
      })
      .onConflict('job_id')
      .ignore();
  }

  async started(_queue: string, job: JobAttempt): Promise<void> {
    this.mailed.delete(job.id);
    await this.update(job.id, { state: 'sending', attempts: this.knex.raw('attempts + 1') });
  }

  async finished(_queue: string, job: JobAttempt, error?: unknown): Promise<void> {
    const mailed = this.mailed.delete(job.id);
    if (error !== undefined) {
      await this.update(job.id, { state: job.last ? 'failed' : 'retrying', last_error: safeErrorText(error) });
    } else {
      await this.update(job.id, mailed ? { state: 'sent', sent_at: this.clock() } : { state: 'skipped' });
    }
  }

  /**
   * Hands a job's mail to the transport, the row first told to whom and what: a failed attempt
   * shows them too. A failure to write the row does not stop the mail.
   */
  async deliver(job: JobAttempt, mail: Mail, locale: Locale, mailer: Mailer, logger: Logger): Promise<void> {
    await this.update(job.id, { recipient: mail.to.slice(0, 1000), subject: mail.subject.slice(0, 500), locale }).catch(
      (error: unknown) => logger.error({ err: error, job: job.id }, 'mail delivery row not written'),
    );
    await mailer(mail);
    this.mailed.add(job.id);
  }

  private async update(jobId: string, values: Record<string, unknown> & { state?: MailDeliveryState }): Promise<void> {
    await this.knex(TABLE)
      .where({ job_id: jobId })
      .update({ ...values, updated_at: this.clock() });
  }
}

/** A mail job's work: compose the mail from the job's data and hand it to `send`, or return without one. */
export type MailJobHandler<T> = (data: T, send: (mail: Mail, locale: Locale) => Promise<void>) => Promise<void>;

/**
 * The mail queues: each kind of mail a job queue with the mail settings' retries, one mailer for
 * all, and every job seen by `MailDeliveries`.
 */
export class MailJobs {
  readonly deliveries: MailDeliveries;
  private readonly jobs: JobQueue;
  private readonly mailer: Mailer;
  private readonly options: QueueOptions;
  private readonly logger: Logger;

  constructor(deps: {
    jobs: JobQueue;
    deliveries: MailDeliveries;
    mailer: Mailer;
    options: QueueOptions;
    logger: Logger;
  }) {
    this.jobs = deps.jobs;
    this.deliveries = deps.deliveries;
    this.mailer = deps.mailer;
    this.options = deps.options;
    this.logger = deps.logger;
  }

  define<T>(kind: MailKind, handler: MailJobHandler<T>): void {
    const settings = {
      retryLimit: this.options.retryLimit,
      retryDelay: this.options.retryDelay,
      retryDelayMax: this.options.retryDelayMax,
    };
    this.jobs.define<T>(
      kind,
      settings,
      (data, job) =>
        handler(data, (mail, locale) => this.deliveries.deliver(job, mail, locale, this.mailer, this.logger)),
      this.deliveries,
    );
  }
}
