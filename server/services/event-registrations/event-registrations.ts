import { Conflict, NotFound } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { definitions, type Definitions } from '../../../domain/entities/index.ts';
import type { RecordOf } from '../../../domain/entities/types.ts';
import { localeOf } from '../../../domain/locales.ts';
import { clockOf } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { MailJobs } from '../../mail/deliveries.ts';
import { eventRegistrationMail } from '../../mail/event-registration-mail.ts';
import { callerRoleOf } from '../../hooks/caller.ts';
import type { EntityParams } from '../entity/entity-service.ts';
import { registerEntityService } from '../entity/register.ts';
import { invalid } from '../entity/validate.ts';
import type { ServerApp } from '../types.ts';

type News = RecordOf<Definitions['news']>;
type Registration = RecordOf<Definitions['eventRegistrations']>;

export const EVENT_REGISTRATION_MAIL_JOB = 'event-registration-mail';
export interface EventRegistrationMailJob {
  registration: string;
}

const NEWS = definitions.news.table;
const REGISTRATIONS = definitions.eventRegistrations.table;

/** The registrant as the registration keeps them: their name and address when they registered. */
interface Registrant {
  name: string;
  email: string;
}

/**
 * The rows of news items whose event takes registrations at `now`: published, in their window,
 * with an event whose registration has not closed (at its closing time, else its start).
 */
function openEvents(db: Knex | Knex.Transaction, now: Date): Knex.QueryBuilder {
  return db(NEWS)
    .where({ status: 'published', has_event: true })
    .where((q) => q.whereNull('publish_from').orWhere('publish_from', '<=', now))
    .where((q) => q.whereNull('publish_to').orWhere('publish_to', '>', now))
    .where((q) => q.whereNull('expiry').orWhere('expiry', '>', now))
    .whereRaw('coalesce(event_closes_at, event_start_date) > ?', [now]);
}

/**
 * Takes a place at an item's event, in the registration's own transaction: one conditional update
 * of the item's count (`event_registered + 1` where a place is left and registration is open),
 * which PostgreSQL runs under the item's row lock and checks again after waiting for it, so a
 * hundred registrations at once for the last ten places take exactly ten. Why one is refused is
 * read afterwards, in the same transaction.
 */
async function takePlace(trx: Knex.Transaction, newsId: string, now: Date): Promise<void> {
  const taken = (await openEvents(trx, now)
    .where({ id: newsId })
    .where((q) => q.whereNull('event_capacity').orWhereRaw('event_registered < event_capacity'))
    .update({ event_registered: trx.raw('event_registered + 1') })
    .returning('id')) as { id: string }[];
  if (taken.length > 0) return;
  const open = (await openEvents(trx, now).where({ id: newsId }).first('id')) as { id: string } | undefined;
  if (open) throw new Conflict('events.full');
  const visible = (await trx(NEWS)
    .where({ id: newsId, status: 'published', has_event: true })
    .where((q) => q.whereNull('publish_from').orWhere('publish_from', '<=', now))
    .where((q) => q.whereNull('publish_to').orWhere('publish_to', '>', now))
    .where((q) => q.whereNull('expiry').orWhere('expiry', '>', now))
    .first('id')) as { id: string } | undefined;
  // An item the caller cannot read, or without an event, is not there for them.
  if (!visible) throw new NotFound('events.notFound');
  throw new Conflict('events.closed');
}

/**
 * The registrations' own rules. Registering: the caller's place is taken under the item's row
 * lock, the registration written with their name and address, and the confirmation mail queued,
 * all in one transaction (the mail exists only if the place does). Cancelling frees the place in
 * the same transaction; an app user cancels until the event starts.
 */
export function registrationRules(app: ServerApp, knex: Knex, jobs: JobQueue) {
  return async (context: HookContext, next: NextFunction): Promise<void> => {
    const now = clockOf(app)();
    if (context.method === 'create') {
      const data = (typeof context.data === 'object' && context.data !== null ? context.data : {}) as Record<
        string,
        unknown
      >;
      const { news, appUser } = data;
      if (typeof news !== 'string' || news === '') throw invalid({ news: 'validation.required' });
      if (typeof appUser !== 'string' || appUser === '') throw invalid({ appUser: 'validation.required' });
      await knex.transaction(async (trx) => {
        const account = (await trx(definitions.appUsers.table).where({ id: appUser }).first('name', 'email')) as
          Registrant | undefined;
        if (!account) throw invalid({ appUser: 'validation.unknownReference' });
        const already = await trx(REGISTRATIONS).where({ news_id: news, app_user_id: appUser }).first('id');
        if (already) throw new Conflict('events.alreadyRegistered');
        await takePlace(trx, news, now);
        context.params = { ...context.params, transaction: trx, registrant: account };
        await next();
        const registration = context.result as Registration;
        await jobs.send(EVENT_REGISTRATION_MAIL_JOB, { registration: registration._id }, trx);
      });
      jobs.wake(EVENT_REGISTRATION_MAIL_JOB);
      return;
    }
    if (context.method === 'remove' && context.id !== null && context.id !== undefined) {
      await knex.transaction(async (trx) => {
        // The item's row first, as registering locks it first: the two never wait on each other in turn.
        const row = (await trx(REGISTRATIONS)
          .where({ id: String(context.id) })
          .first('news_id')) as { news_id: string } | undefined;
        const item = row
          ? ((await trx(NEWS).where({ id: row.news_id }).forUpdate().first('event_start_date')) as
              { event_start_date: Date | null } | undefined)
          : undefined;
        context.params = { ...context.params, transaction: trx };
        await next();
        if (!row) return;
        if (callerRoleOf(context.params) === 'appUser' && item?.event_start_date && item.event_start_date <= now)
          throw new Conflict('events.started');
        await trx(NEWS)
          .where({ id: row.news_id })
          .where('event_registered', '>', 0)
          .update({ event_registered: trx.raw('event_registered - 1') });
      });
      return;
    }
    await next();
  };
}

/** The registrant's name and address, written with the registration (read-only fields: the server's). */
async function withRegistrant(
  data: Record<string, unknown>,
  { params }: { params: EntityParams },
): Promise<Record<string, unknown>> {
  const registrant = (params as { registrant?: Registrant }).registrant;
  return registrant ? { ...data, name: registrant.name, email: registrant.email } : data;
}

/** Mails the confirmation of a place, in the registrant's language, with the event's calendar file. */
function defineRegistrationMailJob(app: ServerApp, mail: MailJobs, config: Config, logger: Logger): void {
  mail.define<EventRegistrationMailJob>(EVENT_REGISTRATION_MAIL_JOB, async ({ registration: id }, send) => {
    const registration = (await app
      .service('eventRegistrations')
      .get(id)
      .catch((error: unknown) => {
        if (error instanceof NotFound) return null;
        throw error;
      })) as Registration | null;
    // Cancelled before the mail went: nothing to confirm.
    if (!registration || !registration.appUser) return;
    const news = (await app.service('news').get(registration.news)) as News;
    const appUser = (await app.service('appUsers').get(registration.appUser)) as {
      name: string;
      email: string;
      locale?: string;
    };
    const locale = localeOf(appUser.locale);
    await send(
      eventRegistrationMail({
        registration,
        news,
        registrant: { email: appUser.email, name: appUser.name, locale },
        brand: config.site.brandName,
        now: clockOf(app)(),
      }),
      locale,
    );
    logger.info({ registration: id }, 'event registration confirmed by mail');
  });
}

/**
 * The event registrations service (decision 056): the generic entity service with the owner rule
 * of app users, its writes counted against the event's places, its confirmations mailed.
 */
export function configureEventRegistrations(
  app: ServerApp,
  deps: { knex: Knex; jobs: JobQueue; mail: MailJobs; config: Config; logger: Logger },
): void {
  registerEntityService(app, definitions.eventRegistrations, {
    beforeWrite: withRegistrant,
    hooks: [registrationRules(app, deps.knex, deps.jobs)],
  });
  defineRegistrationMailJob(app, deps.mail, deps.config, deps.logger);
}
