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
export function configureJobs(app: ServerApp, knex: Knex, logger: Logger): JobQueue {
  const jobs = new JobQueue(knex, logger);
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
