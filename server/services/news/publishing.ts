import { buffer } from 'node:stream/consumers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { clockOf } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { GraphFacebookProvider } from '../../facebook/graph.ts';
import { LocalFacebookProvider } from '../../facebook/local.ts';
import type { FacebookPhoto, FacebookProvider } from '../../facebook/provider.ts';
import { askPeriodically } from '../../jobs/jobs.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { PUSH_SEND_JOB } from '../../push/sender.ts';
import { uploadsOf } from '../attachments/attachments.ts';
import { siteBaseUrl } from '../email-verifications/verification-mail-job.ts';
import { pushSenderOf } from '../push-messages/push-messages.ts';
import type { ServerApp } from '../types.ts';
import { configureFacebookPosts, FACEBOOK_POST_JOB, FacebookPoster } from './facebook-posts.ts';
import type { NewsPublished } from './news.ts';
import { EVENT_REMINDERS_JOB, EventReminders, notifyOnPublication } from './notification.ts';

/** The provider the settings name: the Graph API when the page and its token are configured, else the local one. */
export function facebookProviderOf(settings: Config['facebook']): FacebookProvider {
  return settings.provider === 'graph' && settings.page
    ? new GraphFacebookProvider({ graphUrl: settings.graphUrl, page: settings.page })
    : new LocalFacebookProvider();
}

/** The item's image as a post's picture: a JPEG at most 2000 pixels wide, as the site serves it. */
function photoReader(app: ServerApp) {
  return async (attachmentId: string): Promise<FacebookPhoto | undefined> => {
    const uploads = uploadsOf(app);
    const row = await uploads.find(attachmentId);
    if (!row) return undefined;
    const served = await uploads.variant(row, 'exlarge', 'jpg');
    return { bytes: await buffer(served.body), mime: served.mime, filename: `${attachmentId}.jpg` };
  };
}

/** The app's Facebook poster (for the services, the jobs and tests). */
export function facebookPosterOf(app: ServerApp): FacebookPoster {
  const poster = app.get('facebookPoster') as FacebookPoster | undefined;
  if (!poster) throw new Error('news publishing is not configured');
  return poster;
}

/** The app's event reminders (the periodic job and tests). */
export function eventRemindersOf(app: ServerApp): EventReminders {
  const reminders = app.get('eventReminders') as EventReminders | undefined;
  if (!reminders) throw new Error('news publishing is not configured');
  return reminders;
}

/**
 * What publishing a news item sends (decision 059): its push notification and its Facebook post,
 * once each, written in the publication's transaction (the listeners it answers, for
 * `configureNews`); the Facebook post's job and staff's `facebookPosts`; and the periodic look at
 * the events whose registrants are to be reminded. Push messages must be configured first.
 */
export function configureNewsPublishing(
  app: ServerApp,
  deps: { config: Config; knex: Knex; logger: Logger; jobs: JobQueue },
): NewsPublished[] {
  const { config, knex, logger, jobs } = deps;
  const clock = () => clockOf(app)();
  const sender = pushSenderOf(app);
  const announce = async (path: 'pushMessages' | 'news', event: 'created' | 'patched', id: string) => {
    const record = path === 'news' ? await app.service('news').get(id) : await app.service('pushMessages').get(id);
    app.service(path).emit(event, record);
  };
  // A message written here, once committed: its job woken and its record shown on staff's tables.
  const written = (id: string) => {
    jobs.wake(PUSH_SEND_JOB);
    announce('pushMessages', 'created', id).catch((error: unknown) =>
      logger.warn({ err: error, message: id }, 'push message not announced'),
    );
  };

  const poster = new FacebookPoster({
    knex,
    provider: facebookProviderOf(config.facebook),
    jobs,
    clock,
    logger,
    siteUrl: siteBaseUrl(config),
    photoOf: photoReader(app),
    changed: (id) =>
      void announce('news', 'patched', id).catch((error: unknown) =>
        logger.warn({ err: error, news: id }, 'news item not announced'),
      ),
  });
  app.set('facebookPoster', poster);
  jobs.define<{ news: string }>(FACEBOOK_POST_JOB, config.facebook.retry, async ({ news }, attempt) => {
    const result = await poster.work(news, attempt);
    logger.info({ news, result }, 'news facebook post');
  });
  configureFacebookPosts(app, knex, poster);

  const reminders = new EventReminders({ knex, sender, jobs, clock, logger, written });
  app.set('eventReminders', reminders);
  jobs.define(EVENT_REMINDERS_JOB, { retryLimit: 0, retryDelay: 0, retryDelayMax: 0 }, async () => {
    await reminders.due();
  });
  askPeriodically(app, jobs, EVENT_REMINDERS_JOB, config.push.dueSeconds, logger);

  const notify = notifyOnPublication({ jobs, clock, written });
  const post: NewsPublished = async (news, trx) => (news.postToFacebook ? poster.queue(trx, news) : undefined);
  return [notify, post];
}
