import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { definitions } from '../../../domain/entities/index.ts';
import type { Config } from '../../config.ts';
import { askPeriodically } from '../../jobs/jobs.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { FolderStorage } from '../../storage/folder-storage.ts';
import { S3Storage } from '../../storage/s3-storage.ts';
import type { Storage } from '../../storage/storage.ts';
import { registerEntityService } from '../entity/register.ts';
import { hiddenFields, stripResult } from '../../hooks/clean-output.ts';
import type { ServerApp } from '../types.ts';
import { CLEANUP_QUEUE, cleanUpAttachments } from './cleanup.ts';
import { Media } from './media.ts';
import { Uploads } from './uploads.ts';

export function createStorage(config: Config): Storage {
  const settings = config.uploads.storage;
  return settings.kind === 's3' ? new S3Storage(settings) : new FolderStorage(settings.root);
}

/** Removing an attachment record removes its files, every variant with it. */
function removeFiles(uploads: Uploads) {
  return async (context: HookContext, next: NextFunction) => {
    await next();
    if (context.method === 'remove' && context.id != null) await uploads.removeFiles(String(context.id));
  };
}

/**
 * Uploads (decision 022): the `attachments` entity service (staff list and remove, members read
 * their own), the storage and image work behind the upload routes (routes.ts, mounted by the
 * app before its JSON parser), and the cleanup job, asked for every hour by each instance and run
 * once per hour by the queue.
 */
export function configureAttachments(
  app: ServerApp,
  deps: { config: Config; knex: Knex; logger: Logger; jobs: JobQueue },
): Uploads {
  const { config, knex, logger, jobs } = deps;
  const media = new Media({ maxPixels: config.uploads.maxPixels, concurrency: config.uploads.concurrency });
  const uploads = new Uploads({
    knex,
    storage: createStorage(config),
    media,
    logger,
    // The account changed: its cached sessions are forgotten and its listeners (the owner, staff,
    // other instances) hear of it, as after a patch through the service.
    onPictureChanged: async (userId) => {
      const users = app.service('users');
      const record = await users.get(userId);
      users.emit('patched', stripResult(record, hiddenFields(definitions.users)));
    },
    // New files appear, and a replaced picture leaves, on every open list of attachments.
    onRowsChanged: async ({ created, removed }) => {
      const service = app.service('attachments');
      for (const id of created)
        service.emit('created', stripResult(await service.get(id), hiddenFields(definitions.attachments)));
      for (const id of removed) service.emit('removed', { _id: id });
    },
  });
  app.set('uploads', uploads);
  registerEntityService(app, definitions.attachments, { hooks: [removeFiles(uploads)] });

  jobs.define(CLEANUP_QUEUE, { retryLimit: 3, retryDelay: 60, retryDelayMax: 600 }, async () => {
    const removed = await cleanUpAttachments(uploads);
    logger.info(removed, 'attachments cleaned up');
  });
  askPeriodically(app, jobs, CLEANUP_QUEUE, config.jobs.attachmentCleanupSeconds, logger);
  app.hooks({
    teardown: [
      async (_context: HookContext, next: NextFunction) => {
        if (uploads.storage instanceof S3Storage) uploads.storage.close();
        await next();
      },
    ],
  });
  return uploads;
}

/** The app's uploads (set by configureAttachments). */
export function uploadsOf(app: { get(name: string): unknown }): Uploads {
  const uploads = app.get('uploads');
  if (!(uploads instanceof Uploads)) throw new Error('uploads are not configured');
  return uploads;
}
