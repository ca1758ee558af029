import { BadRequest, Conflict, NotFound } from '@feathersjs/errors';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { textOfHtml } from '../../../domain/admin/export-cells.ts';
import { clipText } from '../../../domain/format.ts';
import { STAFF_ROLES } from '../../../domain/entities/types.ts';
import type { FacebookPostState } from '../../../domain/news/constants.ts';
import { type I18nText, type Locale } from '../../../domain/locales.ts';
import type { Clock } from '../../clock.ts';
import { FacebookError, type FacebookPhoto, type FacebookProvider } from '../../facebook/provider.ts';
import { useCustomService } from '../custom-service.ts';
import type { JobAttempt, JobQueue } from '../../jobs/queue.ts';
import { describeService } from '../../openapi/registry.ts';
import type { ServerApp } from '../types.ts';
import type { News, PublicationEffect } from './news.ts';
import { RECORD_ID } from '../../db/ids.ts';

/*
 * A news item's post on the company's Facebook page (decision 059). The first publication of an
 * item marked "Post to Facebook" queues a job in its own transaction (at the item's `publishFrom`
 * when that is later) and marks the item `pending`. The job claims the item (`posting`), posts
 * through the provider and keeps the post's id (`posted`). A passing failure (a rate limit,
 * Facebook's own trouble) puts it back to `pending` with the error, and pg-boss tries again with
 * a growing wait; a final one, or the last try, leaves it `failed` with the error, which staff
 * read on the item and clear by posting it again from its row (`facebookPosts`). A try that
 * stopped between asking Facebook and writing down the answer is not repeated: Facebook may
 * have the post, and a post twice on the company's page is worse than one staff post by hand.
 */

export const FACEBOOK_POST_JOB = 'news.facebook-post';

/** The languages a post is written in, in order: the page's readers in Hong Kong and Canada. */
const POST_LANGUAGES: readonly Locale[] = ['en', 'zh-hk'];
/** The beginning of the item's text given in a post, per language (characters). */
const EXCERPT_MAX = 400;

function excerpt(html: string | undefined): string {
  return html ? clipText(textOfHtml(html), EXCERPT_MAX) : '';
}

/**
 * A post's text: the item's title and the beginning of its text in English, then in Traditional
 * Chinese when the item has them there, a blank line between each.
 */
export function facebookPostText(news: Pick<News, 'title' | 'content'>): string {
  const title = news.title as I18nText;
  const content = news.content as I18nText;
  const parts: string[] = [];
  for (const locale of POST_LANGUAGES) {
    const heading = title[locale];
    if (!heading) continue;
    parts.push(heading.trim());
    const text = excerpt(content[locale]);
    if (text) parts.push(text);
  }
  return parts.join('\n\n');
}

/** The item's page on the site, which the post links to (its first language's). */
export function newsPageUrl(siteUrl: string, id: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/${POST_LANGUAGES[0]}/news/${encodeURIComponent(id)}`;
}

/** How far one run of the job went. */
export type PostResult = 'posted' | 'failed' | 'waiting' | 'skipped';

export interface PosterOptions {
  knex: Knex;
  provider: FacebookProvider;
  jobs: JobQueue;
  clock: Clock;
  logger: Logger;
  /** The site's address, which links are made of. */
  siteUrl: string;
  /** The item's image as the post's picture (none when it cannot be read: the post goes without). */
  photoOf: (attachmentId: string) => Promise<FacebookPhoto | undefined>;
  /** Told that an item's posting changed, to announce it. */
  changed: (newsId: string) => void;
}

interface PostingRow {
  id: string;
  status: string;
  title: I18nText;
  content: I18nText;
  image_id: string | null;
  publish_from: Date | null;
}

export class FacebookPoster {
  readonly provider: FacebookProvider;
  private readonly options: PosterOptions;

  constructor(options: PosterOptions) {
    this.options = options;
    this.provider = options.provider;
  }

  /**
   * In the publication's transaction: the item is `pending` and its job is sent, to start at its
   * `publishFrom` when that is later than now.
   */
  async queue(trx: Knex.Transaction, news: News): Promise<PublicationEffect> {
    const now = this.options.clock();
    await trx('news').where({ id: news._id }).update({ facebook_status: 'pending', facebook_error: null });
    const from = news.publishFrom ? new Date(news.publishFrom) : null;
    await this.options.jobs.send(
      FACEBOOK_POST_JOB,
      { news: news._id },
      trx,
      from && from > now ? { startAfter: from } : undefined,
    );
    return {
      record: { facebookStatus: 'pending', facebookError: null },
      committed: () => this.options.jobs.wake(FACEBOOK_POST_JOB),
    };
  }

  private async mark(id: string, state: FacebookPostState, fields: Record<string, unknown> = {}): Promise<void> {
    await this.options
      .knex('news')
      .where({ id })
      .update({ facebook_status: state, ...fields });
    this.options.changed(id);
  }

  /** One try of an item's post (the job's attempt, which says whether another follows a failure). */
  async work(id: string, attempt: JobAttempt): Promise<PostResult> {
    const { knex, clock, logger } = this.options;
    const [row] = (await knex('news')
      .where({ id, facebook_status: 'pending' })
      .update({ facebook_status: 'posting' })
      .returning(['id', 'status', 'title', 'content', 'image_id', 'publish_from'])) as PostingRow[];
    if (!row) {
      const current = (await knex('news').where({ id }).first('facebook_status')) as
        { facebook_status: FacebookPostState | null } | undefined;
      if (current?.facebook_status !== 'posting') return 'skipped';
      await this.mark(id, 'failed', {
        facebook_error:
          'Interrupted: an earlier try stopped before Facebook’s answer was written down. Look on the page before posting it again.',
      });
      logger.warn({ news: id }, 'facebook post interrupted; not tried again');
      return 'failed';
    }
    if (row.status !== 'published') {
      await this.mark(id, 'failed', {
        facebook_error: 'Not posted: the item was a draft when its post was due. Publish it, then post it again.',
      });
      return 'failed';
    }
    const now = clock();
    if (row.publish_from && row.publish_from > now) {
      // Its window was moved later since: the post waits for it again.
      await knex.transaction(async (trx) => {
        await trx('news').where({ id }).update({ facebook_status: 'pending' });
        await this.options.jobs.send(FACEBOOK_POST_JOB, { news: id }, trx, { startAfter: row.publish_from as Date });
      });
      return 'waiting';
    }
    const photo = row.image_id
      ? await this.options.photoOf(row.image_id).catch((error: unknown) => {
          logger.warn({ err: error, news: id }, 'news image not read; posted without it');
          return undefined;
        })
      : undefined;
    try {
      const { postId } = await this.provider.post({
        message: facebookPostText(row),
        link: newsPageUrl(this.options.siteUrl, id),
        photo,
      });
      await this.mark(id, 'posted', { facebook_post_id: postId, facebook_error: null });
      logger.info({ news: id, post: postId }, 'news item posted to facebook');
      return 'posted';
    } catch (caught) {
      const error =
        caught instanceof FacebookError
          ? caught
          : new FacebookError(caught instanceof Error ? caught.message : String(caught), { retry: true });
      if (error.retry && !attempt.last) {
        await this.mark(id, 'pending', { facebook_error: `${error.message} (try ${attempt.attempt}; trying again)` });
        throw error;
      }
      await this.mark(id, 'failed', { facebook_error: error.message });
      logger.error({ err: error, news: id, attempts: attempt.attempt }, 'news item not posted to facebook');
      return 'failed';
    }
  }

  /**
   * Staff's "post again" of a published item whose post failed: `pending` again, its job sent in
   * the same transaction. False when the item is in no state for it.
   */
  async retry(id: string): Promise<boolean> {
    const queued = await this.options.knex.transaction(async (trx) => {
      const [row] = (await trx('news')
        .where({ id, status: 'published', facebook_status: 'failed' })
        .update({ facebook_status: 'pending', facebook_error: null })
        .returning('id')) as { id: string }[];
      if (!row) return false;
      await this.options.jobs.send(FACEBOOK_POST_JOB, { news: id }, trx);
      return true;
    });
    if (queued) {
      this.options.jobs.wake(FACEBOOK_POST_JOB);
      this.options.changed(id);
    }
    return queued;
  }
}

export interface FacebookPostAnswer {
  news: string;
  facebookStatus: FacebookPostState;
}

/** The reference's word on `facebookPosts` (decision 058). */
export const facebookPostsDescription = describeService('facebookPosts', {
  summary: 'Staff post a news item to Facebook again',
  description:
    '`{news}`: a published item whose post to the company’s Facebook page failed is queued again (its ' +
    '`facebookStatus` is `pending`, then `posted` or `failed` with `facebookError`). Any other item is a 409 ' +
    '(decision 059).',
  access: { find: 'none', get: 'none', create: STAFF_ROLES, patch: 'none', remove: 'none' },
  methods: {
    create: {
      summary: 'Post a news item again',
      request: { type: 'object', required: ['news'], properties: { news: { type: 'string' } } },
      answer: {
        type: 'object',
        required: ['news', 'facebookStatus'],
        properties: { news: { type: 'string' }, facebookStatus: { const: 'pending' } },
      },
      statuses: [404, 409],
    },
  },
});

/** `POST /api/facebookPosts {news}` (staff): a failed post tried again. */
export class FacebookPostsService {
  private readonly knex: Knex;
  private readonly poster: FacebookPoster;

  constructor(knex: Knex, poster: FacebookPoster) {
    this.knex = knex;
    this.poster = poster;
  }

  async create(data: unknown): Promise<FacebookPostAnswer> {
    const id =
      typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as { news?: unknown }).news : undefined;
    if (typeof id !== 'string' || !RECORD_ID.test(id) || Object.keys(data as object).length !== 1)
      throw new BadRequest('validation.failed', { errors: { news: 'validation.invalid' } });
    if (await this.poster.retry(id)) return { news: id, facebookStatus: 'pending' };
    if (!(await this.knex('news').where({ id }).first('id'))) throw new NotFound('facebook.newsNotFound');
    throw new Conflict('facebook.postNotFailed', { errors: { news: 'facebook.postNotFailed' } });
  }
}

export function configureFacebookPosts(app: ServerApp, knex: Knex, poster: FacebookPoster): void {
  useCustomService(app, 'facebookPosts', new FacebookPostsService(knex, poster), facebookPostsDescription, {
    methods: ['create'],
  });
}

declare module '../types.ts' {
  interface ServerServices {
    facebookPosts: FacebookPostsService;
  }
}
