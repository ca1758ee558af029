import type { Knex } from 'knex';
import { PgBoss, type JobWithMetadata } from 'pg-boss';
import type { Logger } from 'pino';

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

/** A job that exceeds this is taken for lost (its process died) and retried by any instance. */
export const JOB_EXPIRY_SECONDS = 300;

export type JobHandler<T> = (data: T) => Promise<void>;

/**
 * Durable jobs in PostgreSQL (decision 009): a job survives a restart, is retried with backoff
 * and is worked by one instance at a time.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly workers = new Map<string, { options: QueueOptions; handler: JobHandler<never> }>();
  /** The id of this process's worker of each queue. */
  private readonly workIds = new Map<string, string>();
  private started: Promise<void> | undefined;
  private readonly logger: Logger;

  constructor(knex: Knex, logger: Logger) {
    this.logger = logger;
    this.boss = new PgBoss({ db: knexDatabase(knex), schema: jobsSchemaOf(knex), schedule: false });
    this.boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  }

  /** Declares a queue and the function that works its jobs (before `start`). */
  define<T>(name: string, options: QueueOptions, handler: JobHandler<T>): void {
    this.workers.set(name, { options, handler: handler as JobHandler<never> });
  }

  start(): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      for (const [name, { options, handler }] of this.workers) {
        const settings = { retryLimit: options.retryLimit, retryDelay: options.retryDelay, retryDelayMax: options.retryDelayMax, retryBackoff: true, expireInSeconds: options.expireInSeconds ?? JOB_EXPIRY_SECONDS };
        // Creating does nothing to a queue that exists: the update makes it follow the configuration.
        await this.boss.createQueue(name, settings);
        await this.boss.updateQueue(name, settings);
        const workId = await this.boss.work(name, { pollingIntervalSeconds: 1, includeMetadata: true }, async ([job]: JobWithMetadata<never>[]) => {
          if (!job) return;
          try {
            await handler(job.data);
          } catch (error) {
            // The last attempt is an error an operator must see: nothing will try the job again.
            // (The job's own limit: it was set when the job was sent, under the settings of then.)
            if (job.retryCount >= job.retryLimit) {
              this.logger.error({ err: error, queue: name, job: job.id, data: job.data, attempts: job.retryCount + 1 }, 'job failed on its last attempt; it will not be retried');
            } else {
              this.logger.warn({ err: error, queue: name, job: job.id, attempt: job.retryCount + 1 }, 'job failed; it will be retried');
            }
            throw error;
          }
        });
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
   * Adds a job; with `transaction`, the job exists only if that transaction commits. With
   * `singletonKey` and `singletonSeconds`, one such job per period is kept (a periodic job that
   * every instance asks for runs once).
   */
  async send(name: string, data: object, transaction?: Knex.Transaction): Promise<void>;
  async send(name: string, data: object, once: { singletonKey: string; singletonSeconds: number }): Promise<void>;
  async send(name: string, data: object, option?: Knex.Transaction | { singletonKey: string; singletonSeconds: number }): Promise<void> {
    if (option && 'singletonKey' in option) {
      await this.boss.send(name, data, { singletonKey: option.singletonKey, singletonSeconds: option.singletonSeconds });
      return;
    }
    await this.boss.send(name, data, option ? { db: knexDatabase(option) } : {});
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

  /** Stops taking jobs and waits (up to 10 s) for those being worked. */
  async stop(): Promise<void> {
    if (!this.started) return;
    await this.started.catch(() => undefined);
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
