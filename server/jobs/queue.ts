import type { Knex } from 'knex';
import { PgBoss, type JobWithMetadata } from 'pg-boss';
import type { Logger } from 'pino';
import { JOB_HEARTBEAT_SECONDS } from '../config.ts';

/** A `pg` connection as knex hands it out: pg-boss sends its own SQL with `$1` parameters through it. */
interface PgConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}
interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
  config: { searchPath?: string | string[] };
}

/**
 * pg-boss over the app's own knex pool (or an open transaction: knex hands out the
 * transaction's connection), so jobs need no second pool and a job can be written in the same
 * transaction as the record it is about.
 */
type BossDatabase = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

function knexDatabase(knex: Knex | Knex.Transaction): BossDatabase {
  const client = knex.client as unknown as KnexClient;
  const inTransaction = 'isTransaction' in knex && knex.isTransaction === true;
  return {
    async executeSql(text, values) {
      const connection = await client.acquireConnection();
      try {
        return await connection.query(text, values);
      } catch (error) {
        // pg-boss sends some work as one text with its own BEGIN and COMMIT, and takes some of its
        // failures for granted (two instances installing its schema at once: the second one's
        // CREATE fails and is ignored). Such a failure leaves the connection inside an aborted
        // transaction; ended here, it goes back to the pool clean (pg's own pool would drop it).
        if (!inTransaction) await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        await client.releaseConnection(connection);
      }
    },
  };
}

/**
 * pg-boss keeps its tables in a schema of its own: `pgboss`, or beside a test's own schema
 * (`t_1234_jobs`), so each test file's jobs stay apart like its records.
 */
export function jobsSchemaOf(knex: Knex): string {
  const searchPath = (knex.client as unknown as KnexClient).config.searchPath;
  const first = Array.isArray(searchPath) ? searchPath[0] : searchPath;
  return first ? `${first}_jobs` : 'pgboss';
}

export interface QueueOptions {
  retryLimit: number;
  /** Seconds before the first retry; each later one waits about twice as long (pg-boss adds jitter). */
  retryDelay: number;
  /** The longest wait between two attempts, in seconds. */
  retryDelayMax: number;
  /** Seconds after which a job still being worked is taken for lost; JOB_EXPIRY_SECONDS unless given. */
  expireInSeconds?: number;
}

/** A job still being worked after this long is taken for lost and retried by any instance (a queue may allow more). */
export const JOB_EXPIRY_SECONDS = 300;

/** How often an instance looks for lost jobs: a fifth of the heartbeat, so one is retried within 1.2 heartbeats of its last. */
export const supervisionSeconds = (heartbeatSeconds: number): number => Math.max(1, Math.round(heartbeatSeconds / 5));

/** One attempt at a job, as its handler and observer see it. */
export interface JobAttempt {
  /** pg-boss's id of the job (a uuid). */
  id: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** No attempt follows this one if it fails. */
  last: boolean;
}

export type JobHandler<T> = (data: T, job: JobAttempt) => Promise<void>;

/**
 * Told of a queue's jobs as they go: sent (inside the sending transaction), started, and finished
 * (with the error of a failed attempt). A failure of the observer is logged and never changes what
 * happens to the job: it neither fails a send or an attempt, nor makes one happen twice.
 */
export interface JobObserver {
  sent(queue: string, id: string, data: object, trx: Knex.Transaction): Promise<void>;
  started(queue: string, job: JobAttempt): Promise<void>;
  finished(queue: string, job: JobAttempt, error?: unknown): Promise<void>;
}

interface Worker {
  options: QueueOptions;
  handler: JobHandler<never>;
  observer: JobObserver | undefined;
}

/**
 * Durable jobs in PostgreSQL (decision 009): a job survives a restart, is retried with backoff
 * and is worked by one instance at a time.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly knex: Knex;
  private readonly workers = new Map<string, Worker>();
  /** The id of this process's worker of each queue. */
  private readonly workIds = new Map<string, string>();
  private started: Promise<void> | undefined;
  private readonly logger: Logger;

  private readonly heartbeatSeconds: number;

  constructor(knex: Knex, logger: Logger, options: { heartbeatSeconds?: number } = {}) {
    this.knex = knex;
    this.logger = logger;
    this.heartbeatSeconds = options.heartbeatSeconds ?? JOB_HEARTBEAT_SECONDS;
    // Lost jobs (heartbeat and expiry) are found by pg-boss's supervision, one instance at a time.
    const supervision = supervisionSeconds(this.heartbeatSeconds);
    this.boss = new PgBoss({
      db: knexDatabase(knex),
      schema: jobsSchemaOf(knex),
      schedule: false,
      superviseIntervalSeconds: supervision,
      monitorIntervalSeconds: supervision,
    });
    this.boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  }

  /** Declares a queue and the function that works its jobs (before `start`), and who is told of them. */
  define<T>(name: string, options: QueueOptions, handler: JobHandler<T>, observer?: JobObserver): void {
    this.workers.set(name, { options, handler: handler as JobHandler<never>, observer });
  }

  /** Whether a queue was declared in this process. */
  defines(name: string): boolean {
    return this.workers.has(name);
  }

  /** Runs an observer's call; its failure is logged, never passed on to the job. */
  private async tell(name: string, job: string, call: () => Promise<void>): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.logger.error({ err: error, queue: name, job }, 'job observer failed');
    }
  }

  start(): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      for (const [name, { options, handler, observer }] of this.workers) {
        const settings = {
          retryLimit: options.retryLimit,
          retryDelay: options.retryDelay,
          retryDelayMax: options.retryDelayMax,
          retryBackoff: true,
          expireInSeconds: options.expireInSeconds ?? JOB_EXPIRY_SECONDS,
          // Each job carries it from its queue; the worker writes it every half of it.
          heartbeatSeconds: this.heartbeatSeconds,
        };
        // Creating does nothing to a queue that exists: the update makes it follow the configuration.
        await this.boss.createQueue(name, settings);
        await this.boss.updateQueue(name, settings);
        const workId = await this.boss.work(
          name,
          { pollingIntervalSeconds: 1, includeMetadata: true },
          async ([job]: JobWithMetadata<never>[]) => {
            if (!job) return;
            const attempt: JobAttempt = {
              id: job.id,
              attempt: job.retryCount + 1,
              last: job.retryCount >= job.retryLimit,
            };
            if (observer) await this.tell(name, job.id, () => observer.started(name, attempt));
            try {
              await handler(job.data, attempt);
            } catch (error) {
              if (observer) await this.tell(name, job.id, () => observer.finished(name, attempt, error));
              // The last attempt is an error an operator must see: nothing will try the job again.
              // (The job's own limit: it was set when the job was sent, under the settings of then.)
              if (job.retryCount >= job.retryLimit) {
                this.logger.error(
                  { err: error, queue: name, job: job.id, data: job.data, attempts: job.retryCount + 1 },
                  'job failed on its last attempt; it will not be retried',
                );
              } else {
                this.logger.warn(
                  { err: error, queue: name, job: job.id, attempt: job.retryCount + 1 },
                  'job failed; it will be retried',
                );
              }
              throw error;
            }
            if (observer) await this.tell(name, job.id, () => observer.finished(name, attempt));
          },
        );
        this.workIds.set(name, workId);
      }
    })();
    return this.started;
  }

  /**
   * Has this process's worker of a queue look for jobs now rather than at its next poll (up to a
   * second later). Call it once the transaction that sent a job has committed: before, the worker
   * would not see the job yet.
   */
  wake(name: string): void {
    const workId = this.workIds.get(name);
    if (workId) this.boss.notifyWorker(workId);
  }

  /**
   * Adds a job and answers its id; with `transaction`, the job exists only if that transaction
   * commits. With `singletonKey` and `singletonSeconds`, one such job per period is kept (a periodic
   * job that every instance asks for runs once). With `id`, the job takes that id (a uuid); with
   * `startAfter`, it is not worked before then. A queue's observer hears of the job in the same
   * transaction (one of its own when none is given).
   */
  async send(
    name: string,
    data: object,
    transaction?: Knex.Transaction,
    options?: { id?: string; startAfter?: Date },
  ): Promise<string | null>;
  async send(
    name: string,
    data: object,
    once: { singletonKey: string; singletonSeconds: number },
  ): Promise<string | null>;
  async send(
    name: string,
    data: object,
    option?: Knex.Transaction | { singletonKey: string; singletonSeconds: number },
    options?: { id?: string; startAfter?: Date },
  ): Promise<string | null> {
    if (option && 'singletonKey' in option) {
      return this.boss.send(name, data, {
        singletonKey: option.singletonKey,
        singletonSeconds: option.singletonSeconds,
      });
    }
    const observer = this.workers.get(name)?.observer;
    const sendIn = async (trx: Knex.Transaction | undefined): Promise<string | null> => {
      const id = await this.boss.send(name, data, {
        ...(trx ? { db: knexDatabase(trx) } : {}),
        ...(options?.id ? { id: options.id } : {}),
        ...(options?.startAfter ? { startAfter: options.startAfter } : {}),
      });
      // In a savepoint: a failed write of the observer's leaves the job and the caller's transaction whole.
      if (id && observer && trx)
        await this.tell(name, id, () => trx.transaction((savepoint) => observer.sent(name, id, data, savepoint)));
      return id;
    };
    if (option) return sendIn(option);
    return observer ? this.knex.transaction(sendIn) : sendIn(undefined);
  }

  /** The jobs of a queue whose data contains `data`, oldest first: their state and retries so far. */
  async find(name: string, data: object): Promise<{ id: string; state: string; retryCount: number }[]> {
    const jobs = await this.boss.findJobs(name, { data });
    return jobs.map((job) => ({ id: job.id, state: job.state, retryCount: job.retryCount }));
  }

  /**
   * Resolves when the queue works on this instance: it started, and its tables answer (one read of
   * its queues). Rejects otherwise; `/health` reports it as `jobs` (decision 032).
   */
  async check(): Promise<void> {
    if (!this.started) throw new Error('the job queue has not started');
    await this.started;
    await this.boss.getQueues(undefined, { limit: 1 });
  }

  private stopRequested = false;

  /**
   * True once the queue is stopping: a long job (a push message's send) checks it between two of
   * its steps and returns, so the stop does not wait for it and the job goes on where it left off.
   */
  get stopping(): boolean {
    return this.stopRequested;
  }

  /** Stops taking jobs and waits (up to 10 s) for those being worked. */
  async stop(): Promise<void> {
    this.stopRequested = true;
    if (!this.started) return;
    await this.started.catch(() => undefined);
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
