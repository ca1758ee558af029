import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { JobQueue } from './queue.ts';
import type { ServerApp } from '../services/types.ts';

/**
 * The app's durable job queue (mail today; purchases and exports next). Every queue is declared
 * (`jobs.define`) while the services are configured; the queue starts working them when the app
 * is set up, after every service exists, and stops when it is torn down.
 */
export function configureJobs(
  app: ServerApp,
  knex: Knex,
  logger: Logger,
  options: { heartbeatSeconds?: number } = {},
): JobQueue {
  const jobs = new JobQueue(knex, logger, options);
  app.hooks({
    setup: [
      async (_context: HookContext, next: NextFunction) => {
        await next();
        await jobs.start();
      },
    ],
    teardown: [
      async (_context: HookContext, next: NextFunction) => {
        await jobs.stop();
        await next();
      },
    ],
  });
  return jobs;
}

/**
 * Asks for a periodic job every `seconds` once the app is set up (the first time after one
 * period: a restart loop never runs it), and stops asking when it is torn down. Every instance
 * asks; the singleton key makes it one job per period, run by one instance.
 */
export function askPeriodically(app: ServerApp, jobs: JobQueue, name: string, seconds: number, logger: Logger): void {
  let timer: NodeJS.Timeout | undefined;
  app.hooks({
    setup: [
      async (_context: HookContext, next: NextFunction) => {
        await next();
        const ask = () => {
          jobs
            .send(name, {}, { singletonKey: name, singletonSeconds: seconds })
            .catch((error: unknown) => logger.warn({ err: error, queue: name }, 'periodic job not scheduled'));
        };
        timer = setInterval(ask, seconds * 1000);
        timer.unref();
      },
    ],
    teardown: [
      async (_context: HookContext, next: NextFunction) => {
        clearInterval(timer);
        await next();
      },
    ],
  });
}
