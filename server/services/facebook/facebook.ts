import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { BadRequest } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { z } from '../../../domain/zod.ts';
import { definitions } from '../../../domain/entities/index.ts';
import { FACEBOOK_FAILURES_KEPT, FACEBOOK_SOURCES, type FacebookFailure } from '../../../domain/entities/facebook.ts';
import type { RecordOf } from '../../../domain/entities/types.ts';
import { contentOf, ExportRefused, languageOf, titleOf, type FacebookPost } from '../../../domain/facebook/posts.ts';
import { formatIsoDate } from '../../../domain/format.ts';
import { isLocale, type Locale } from '../../../domain/locales.ts';
import { NEWS_REGIONS } from '../../../domain/news/constants.ts';
import { clockOf } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { newId } from '../../db/ids.ts';
import { hiddenFields, stripResult } from '../../hooks/clean-output.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { uploadsOf } from '../attachments/attachments.ts';
import type { ReceivedFile } from '../attachments/receive.ts';
import { exportStorageOf } from '../exports/exports.ts';
import type { EntityParams } from '../entity/entity-service.ts';
import { registerEntityService } from '../entity/register.ts';
import { sanitizeNewsData } from '../news/news.ts';
import type { ServerApp } from '../types.ts';
import {
  GraphUnavailable,
  graphImportAvailable,
  isPicture,
  readExport,
  readGraph,
  temporaryFile,
  type ReadExport,
} from './source.ts';

export type FacebookImport = RecordOf<(typeof definitions)['facebook']>;

export const FACEBOOK_IMPORT_JOB = 'facebook-import';

/** The rules of an import (decision 060). */
export const FACEBOOK_RULES = {
  /** The largest export file taken (a page's archive with its pictures). */
  maxUploadBytes: 512 * 1024 * 1024,
  /** Progress is announced at most this often (and at the start and the end). */
  progressMs: 250,
  /** A job running this long is taken for lost (its process died) and tried again, from where it was. */
  expireSeconds: 60 * 60,
} as const;

/** What `create` takes: where the posts come from, and the region the news are for. */
export const facebookCreateSchema = z
  .object({
    source: z.enum(FACEBOOK_SOURCES),
    region: z.enum(NEWS_REGIONS).optional(),
  })
  .strict();

/** The uploaded export, handed to `create` by the upload route in its params (never in data). */
export type FacebookUploadParams = EntityParams & { facebookUpload?: ReceivedFile };

interface ImportRow {
  id: string;
  source: 'export' | 'graph';
  file_name: string | null;
  file_key: string | null;
  region: string;
  locale: Locale;
  state: string;
  total: number | null;
  done: number;
  added: number;
  skipped: number;
  failed: number;
  failures: FacebookFailure[];
  user_id: string;
}

const refusal = (key: string) => new BadRequest(key, { errors: { file: key } });

/**
 * The Facebook import's own rules around the generic entity service: `create` records the import
 * (an uploaded export is read whole first: a file that is not a page's posts is refused then, and
 * nothing is written), keeps its file and sends its job; the job does the rest.
 */
function createImport(app: ServerApp, deps: { config: Config; knex: Knex; jobs: JobQueue }) {
  return async (context: HookContext, next: NextFunction): Promise<void> => {
    if (context.method !== 'create') return next();
    const params = context.params as FacebookUploadParams;
    const parsed = facebookCreateSchema.safeParse(context.data);
    if (!parsed.success) throw new BadRequest('validation.invalid');
    const request = parsed.data;
    const user = params.user as { _id?: unknown; locale?: unknown } | undefined;
    // In-process calls name their staff member in the params as outside ones do.
    if (typeof user?._id !== 'string') throw new BadRequest('validation.invalid');
    const id = newId();
    let fileKey: string | null = null;
    let fileName: string | null = null;
    if (request.source === 'export') {
      const upload = params.facebookUpload;
      if (!upload) throw refusal('facebook.errors.noFile');
      let read: ReadExport;
      try {
        read = await readExport(upload.path);
      } catch (error) {
        if (error instanceof ExportRefused) throw refusal(error.key);
        throw error;
      }
      await read.pictures.close();
      fileName = upload.name;
      fileKey = `facebook-${id}/export`;
      await exportStorageOf(app).putFile(fileKey, upload.path, 'application/octet-stream');
    } else if (!graphImportAvailable(deps.config.facebook)) {
      throw refusal('facebook.errors.graphNotConfigured');
    }
    const headerLocale = (params.headers as Record<string, unknown> | undefined)?.['x-locale'];
    const locale: Locale = isLocale(headerLocale) ? headerLocale : isLocale(user.locale) ? user.locale : 'en';
    const now = clockOf(app)();
    try {
      await deps.knex.transaction(async (trx) => {
        await trx(definitions.facebook.table).insert({
          id,
          source: request.source,
          file_name: fileName,
          file_key: fileKey,
          region: request.region ?? 'hk',
          locale,
          state: 'queued',
          user_id: user._id,
          created_at: now,
          updated_at: now,
        });
        await deps.jobs.send(FACEBOOK_IMPORT_JOB, { id }, trx);
      });
    } catch (error) {
      if (fileKey) await exportStorageOf(app).removeAll(`facebook-${id}`);
      throw error;
    }
    deps.jobs.wake(FACEBOOK_IMPORT_JOB);
    const record = await app.service('facebook').get(id);
    app.service('facebook').emit('created', announced(record));
    context.result = record;
  };
}

const announced = (record: unknown) => stripResult(record, hiddenFields(definitions.facebook));

/**
 * Works one import (decision 060): reads its posts (the stored export, or the Graph API), then
 * adds each post not added before as a draft news item, its pictures stored through the uploads,
 * writing the item and the import's counts in one transaction. A job started again goes on from
 * the first post not yet counted; a post added meanwhile by another import is skipped by its
 * unique source id.
 */
export class FacebookImporter {
  private readonly app: ServerApp;
  private readonly deps: { config: Config; knex: Knex; logger: Logger };

  constructor(app: ServerApp, deps: { config: Config; knex: Knex; logger: Logger }) {
    this.app = app;
    this.deps = deps;
  }

  private async announce(id: string): Promise<void> {
    const record = await this.app.service('facebook').get(id);
    this.app.service('facebook').emit('patched', announced(record));
  }

  async work(id: string): Promise<void> {
    const { knex, logger, config } = this.deps;
    const storage = exportStorageOf(this.app);
    const now = () => clockOf(this.app)();
    const [started] = (await knex(definitions.facebook.table)
      .where({ id })
      .whereIn('state', ['queued', 'running'])
      .update({ state: 'running', updated_at: now() })
      .returning('*')) as ImportRow[];
    if (!started) return;
    await this.announce(id);
    const tempDir = config.uploads.tempDir;
    let exportFile: string | undefined;
    let read: ReadExport | undefined;
    try {
      if (started.source === 'export') {
        const stored = started.file_key ? await storage.get(started.file_key) : null;
        if (!stored) throw new ExportRefused('noPostsFile');
        exportFile = await temporaryFile(tempDir, '.export');
        await pipeline(stored.body, createWriteStream(exportFile));
        read = await readExport(exportFile);
      } else {
        read = await readGraph(config.facebook);
      }
      const posts = read.posts;
      await knex(definitions.facebook.table).where({ id }).update({ total: posts.length, updated_at: now() });
      await this.announce(id);
      let announcedAt = Date.now();
      for (let index = started.done; index < posts.length; index += 1) {
        const post = posts[index] as FacebookPost;
        await this.importPost(started, post, read);
        if (Date.now() - announcedAt >= FACEBOOK_RULES.progressMs) {
          announcedAt = Date.now();
          await this.announce(id);
        }
      }
      await knex(definitions.facebook.table)
        .where({ id })
        .update({ state: 'done', finished_at: now(), updated_at: now(), file_key: null });
      if (started.file_key) await storage.removeAll(`facebook-${id}`).catch(() => undefined);
      logger.info({ import: id, posts: posts.length }, 'facebook import done');
    } catch (error) {
      const key = error instanceof ExportRefused || error instanceof GraphUnavailable ? error.key : 'errors.generic';
      logger.warn({ err: error, import: id }, 'facebook import failed');
      await knex(definitions.facebook.table)
        .where({ id })
        .update({ state: 'failed', error: key, finished_at: now(), updated_at: now() });
    } finally {
      await read?.pictures.close().catch(() => undefined);
      if (exportFile) await rm(exportFile, { force: true });
    }
    await this.announce(id);
  }

  /** Adds one post (or counts it skipped, or failed), its item and the import's counts in one transaction. */
  private async importPost(row: ImportRow, post: FacebookPost, read: ReadExport): Promise<void> {
    const { knex, config, logger } = this.deps;
    const uploads = uploadsOf(this.app);
    const count = async (
      trx: Knex | Knex.Transaction,
      outcome: 'added' | 'skipped' | 'failed',
      failure?: FacebookFailure,
    ) => {
      const update: Record<string, unknown> = {
        done: knex.raw('done + 1'),
        [outcome]: knex.raw('?? + 1', [outcome]),
        updated_at: clockOf(this.app)(),
      };
      if (failure)
        update.failures = knex.raw(
          `case when jsonb_array_length(failures) < ? then failures || ?::jsonb else failures end`,
          [FACEBOOK_FAILURES_KEPT, JSON.stringify([failure])],
        );
      await trx(definitions.facebook.table).where({ id: row.id }).update(update);
    };
    const known = await knex(definitions.news.table).where({ facebook_source_id: post.sourceId }).first('id');
    if (known) {
      await count(knex, 'skipped');
      return;
    }
    const title = titleOf(post, `Facebook ${formatIsoDate(new Date(post.time))}`);
    const files: ReceivedFile[] = [];
    let stored: string[] = [];
    let added: string | undefined;
    try {
      for (const picture of post.pictures.filter(isPicture)) {
        const file = await temporaryFile(config.uploads.tempDir, '.picture');
        files.push({ path: file, name: picture.uri.split('/').pop()?.split('?')[0] || 'picture.jpg', size: 0 });
        if (!(await read.pictures.fetch(picture, file, config.uploads.maxBytes))) {
          await count(knex, 'failed', { post: post.sourceId, title, reason: 'facebook.errors.pictureMissing' });
          return;
        }
      }
      const infos = files.length > 0 ? await uploads.store(files, 'news', row.user_id) : [];
      stored = infos.map((info) => info.id);
      const language = languageOf(post.text);
      const html = contentOf(
        post,
        infos.map((info) => info.src),
      );
      const texts = (value: string) => (language === 'en' ? { en: value } : { en: value, [language]: value });
      const { content } = await sanitizeNewsData({ content: texts(html) });
      const newsId = newId();
      const now = clockOf(this.app)();
      const inserted = await knex.transaction(async (trx) => {
        const [added] = (await trx(definitions.news.table)
          .insert({
            id: newsId,
            title: JSON.stringify(texts(title)),
            name: `Facebook ${formatIsoDate(new Date(post.time))}`.slice(0, 120),
            content: JSON.stringify(content),
            region: row.region,
            image_id: stored[0] ?? null,
            date: new Date(post.time),
            status: 'draft',
            top: false,
            has_event: false,
            post_to_facebook: false,
            send_notification: false,
            facebook_source_id: post.sourceId,
            facebook_import_id: row.id,
            created_at: now,
            updated_at: now,
          })
          .onConflict('facebook_source_id')
          .ignore()
          .returning('id')) as { id: string }[];
        await count(trx, added ? 'added' : 'skipped');
        return Boolean(added);
      });
      if (!inserted) {
        // Added meanwhile by another import: its pictures here are not needed.
        for (const attachment of stored) await uploads.remove(attachment);
        return;
      }
      added = newsId;
    } catch (error) {
      logger.warn({ err: error, import: row.id, post: post.sourceId }, 'a facebook post was not imported');
      for (const attachment of stored) await uploads.remove(attachment).catch(() => undefined);
      const reason =
        typeof (error as { message?: unknown }).message === 'string' &&
        /^uploads\./.test((error as { message: string }).message)
          ? (error as { message: string }).message
          : 'errors.generic';
      await count(knex, 'failed', { post: post.sourceId, title, reason });
    } finally {
      await Promise.all(files.map((file) => rm(file.path, { force: true })));
    }
    // The new draft shows on staff's open news lists (written here, not through the service).
    if (added) {
      const news = this.app.service('news');
      await news
        .get(added)
        .then((record) => news.emit('created', stripResult(record, hiddenFields(definitions.news))))
        .catch((error: unknown) => logger.warn({ err: error, news: added }, 'an imported item was not announced'));
    }
  }
}

/** The Facebook import: its service (`facebook`), its job; the upload route is the app's (route.ts). */
export function configureFacebook(
  app: ServerApp,
  deps: { config: Config; knex: Knex; logger: Logger; jobs: JobQueue },
): void {
  const { jobs } = deps;
  registerEntityService(app, definitions.facebook, {
    hooks: [createImport(app, deps)],
    requests: { create: facebookCreateSchema },
  });
  const importer = new FacebookImporter(app, deps);
  // The job goes on from where it was when tried again (its process died): nothing is added twice.
  jobs.define<{ id: string }>(
    FACEBOOK_IMPORT_JOB,
    { retryLimit: 2, retryDelay: 5, retryDelayMax: 300, expireInSeconds: FACEBOOK_RULES.expireSeconds },
    async ({ id }) => importer.work(id),
  );
  app.set('facebookImporter', importer);
}

/** The app's importer (set by configureFacebook): tests work an import's job themselves through it. */
export function facebookImporterOf(app: { get(name: string): unknown }): FacebookImporter {
  const importer = app.get('facebookImporter');
  if (!(importer instanceof FacebookImporter)) throw new Error('the Facebook import is not configured');
  return importer;
}
