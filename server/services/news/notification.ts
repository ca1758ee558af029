import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { textOfHtml } from '../../../domain/admin/export-cells.ts';
import { clipText, formatDateTime } from '../../../domain/format.ts';
import { type I18nText, LOCALES, type Locale, localized } from '../../../domain/locales.ts';
import {
  EVENT_REMINDER_HOUR,
  EVENT_TIME_ZONES,
  type EventLocation,
  NEWS_REGION_DEVICE_REGIONS,
  type NewsRegion,
} from '../../../domain/news/constants.ts';
import type { PushOrigin } from '../../../domain/entities/push-messages.ts';
import type { Clock } from '../../clock.ts';
import { newId } from '../../db/ids.ts';
import { translate } from '../../i18n.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { PUSH_SEND_JOB, type PushSender } from '../../push/sender.ts';
import type { News, PublicationEffect } from './news.ts';

/*
 * The push messages the server writes for a news item (decision 059): the item's notification,
 * when it is first published with `sendNotification`, and its event's reminder, the day before the
 * event. Each is an ordinary push message (staff see it among the others, linked to its item,
 * with its statistics), sent by the push messages' own durable job (decision 055), and written at
 * most once per item: a unique index on the message's item and origin, besides the conditions
 * that lead to it (the first publication; no reminder yet).
 */

/** Each instance asks this often whether an event's reminder is due (one runs per period). */
export const EVENT_REMINDERS_JOB = 'news.event-reminders';

const TITLE_MAX = 100;
const BODY_MAX = 178;

/** A translated text built language by language: English always, the others where `of` answers one. */
function eachLanguage(of: (locale: Locale) => string | undefined): I18nText {
  const text: Record<string, string> = {};
  for (const locale of LOCALES) {
    const value = of(locale);
    if (value) text[locale] = value;
  }
  return { ...text, en: text.en ?? '' } as I18nText;
}

/**
 * What an item's notification says, in each language the item has a title in (a device in
 * another language reads English): the title, and the beginning of the item's text in that
 * language (or a line inviting to read it, when the item has none there).
 */
export function newsNotificationText(news: Pick<News, 'title' | 'content'>): { title: I18nText; body: I18nText } {
  const title = news.title as I18nText;
  const content = news.content as I18nText;
  const has = (locale: Locale) => Boolean(title[locale]);
  return {
    title: eachLanguage((locale) => (has(locale) ? clipText(title[locale] as string, TITLE_MAX) : undefined)),
    body: eachLanguage((locale) => {
      if (!has(locale)) return undefined;
      const text = content[locale] ? textOfHtml(content[locale] as string) : '';
      return text ? clipText(text, BODY_MAX) : translate(locale, 'push.news.readMore');
    }),
  };
}

/** The fields of an item its event's reminder is written from. */
export interface ReminderSource {
  title: I18nText;
  eventTitle: I18nText | null;
  eventStartDate: Date;
  eventLocation: EventLocation;
  eventRegion: string | null;
}

/** What an event's reminder says: its title, when it starts on its own clock, and where. */
export function reminderText(event: ReminderSource): { title: I18nText; body: I18nText } {
  const zone = EVENT_TIME_ZONES[event.eventLocation] ?? EVENT_TIME_ZONES.hk;
  const name = (locale: Locale) => localized(event.eventTitle ?? event.title, locale);
  return {
    title: eachLanguage((locale) =>
      clipText(translate(locale, 'events.reminder.title', { title: name(locale) }), TITLE_MAX),
    ),
    body: eachLanguage((locale) => {
      const when = translate(locale, 'events.reminder.starts', {
        when: formatDateTime(event.eventStartDate, locale, zone),
      });
      const place = translate(locale, `resources.news.values.eventLocation.${event.eventLocation}`);
      const where = [event.eventRegion, place].filter(Boolean).join(', ');
      return clipText([when, where].join(' · '), BODY_MAX);
    }),
  };
}

/** A push message about a news item, as the server writes it. */
interface ServerMessage {
  news: string;
  origin: Exclude<PushOrigin, 'staff'>;
  text: { title: I18nText; body: I18nText };
  audience: { audience: 'region'; audience_region: string } | { audience: 'registrants' };
  /** When it goes: now (`sending`, its job sent with it), or later (`scheduled`, the due look starts it). */
  sendAt: Date;
  now: Date;
}

/**
 * Writes the message in the caller's transaction, unless the item has one of this origin already
 * (the unique index decides, whoever writes at the same moment); answers its id, or null. A
 * message due now gets its send job in the same transaction.
 */
async function writeMessage(trx: Knex.Transaction, jobs: JobQueue, message: ServerMessage): Promise<string | null> {
  const sending = message.sendAt <= message.now;
  const [row] = (await trx('push_messages')
    .insert({
      id: newId(),
      title: JSON.stringify(message.text.title),
      body: JSON.stringify(message.text.body),
      ...message.audience,
      news_id: message.news,
      origin: message.origin,
      status: sending ? 'sending' : 'scheduled',
      send_at: message.sendAt,
      urgent: false,
      created_at: message.now,
      updated_at: message.now,
    })
    .onConflict(trx.raw(`(news_id, origin) where origin <> 'staff'`))
    .ignore()
    .returning('id')) as { id: string }[];
  if (!row) return null;
  if (sending) await jobs.send(PUSH_SEND_JOB, { message: row.id }, trx);
  return row.id;
}

export interface NotificationDependencies {
  jobs: JobQueue;
  clock: Clock;
  /** Told of a message written, once its transaction has committed (to announce it, wake its job). */
  written: (messageId: string) => void;
}

/**
 * The listener of an item's first publication that writes its push notification, when the item
 * asks for one: to the devices of the item's region, each in its own language (else English), not
 * urgent (quiet hours hold it until the morning), sent now, or at the item's `publishFrom` when
 * that is later (a scheduled message, which staff may move or cancel like any).
 */
export function notifyOnPublication(deps: NotificationDependencies) {
  return async (news: News, trx: Knex.Transaction): Promise<PublicationEffect | void> => {
    if (!news.sendNotification) return;
    const now = deps.clock();
    const from = news.publishFrom ? new Date(news.publishFrom) : null;
    const id = await writeMessage(trx, deps.jobs, {
      news: news._id,
      origin: 'news',
      text: newsNotificationText(news),
      audience: { audience: 'region', audience_region: NEWS_REGION_DEVICE_REGIONS[news.region as NewsRegion] },
      sendAt: from && from > now ? from : now,
      now,
    });
    if (id) return { committed: () => deps.written(id) };
  };
}

/** The time zones of the events' locations, as a VALUES list the reminders' look joins. */
function zonesTable(knex: Knex): Knex.Raw {
  const entries = Object.entries(EVENT_TIME_ZONES);
  return knex.raw(
    `(values ${entries.map(() => '(?::text, ?::text)').join(', ')}) as z (location, zone)`,
    entries.flat(),
  );
}

interface UpcomingEvent {
  id: string;
  title: I18nText;
  event_title: I18nText | null;
  event_start_date: Date;
  event_location: EventLocation;
  event_region: string | null;
}

/**
 * The reminders of events (decision 059): the day before an event starts, at EVENT_REMINDER_HOUR
 * on the event's own clock (Hong Kong's, Vancouver's), its registrants' devices that take pushes
 * get a reminder, once. One push message per event (origin `reminder`, the audience its
 * registrants), written by the periodic look once its time has come and the event has not
 * started; a registration made after its deliveries were written gets its own delivery at the next
 * look, until the event starts. A registrant who cancelled is not reminded (the send checks it
 * again, device by device). Only published items' events are reminded of.
 */
export class EventReminders {
  private readonly knex: Knex;
  private readonly sender: PushSender;
  private readonly jobs: JobQueue;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly written: (messageId: string) => void;

  constructor(deps: NotificationDependencies & { knex: Knex; sender: PushSender; logger: Logger }) {
    this.knex = deps.knex;
    this.sender = deps.sender;
    this.jobs = deps.jobs;
    this.clock = deps.clock;
    this.logger = deps.logger;
    this.written = deps.written;
  }

  /** Writes the reminders that are due, and adds the registrants that came since to those written. */
  async due(): Promise<{ written: string[]; added: number }> {
    const now = this.clock();
    const knex = this.knex;
    const events = (await knex('news as n')
      .join(zonesTable(knex), 'z.location', 'n.event_location')
      .where({ 'n.status': 'published', 'n.has_event': true })
      .where('n.event_start_date', '>', now)
      // EVENT_REMINDER_HOUR on the day before the start, on the event's clock.
      .whereRaw(`((n.event_start_date at time zone z.zone)::date - 1 + make_time(?, 0, 0)) at time zone z.zone <= ?`, [
        EVENT_REMINDER_HOUR,
        now,
      ])
      .whereExists((registrations) =>
        registrations.select(knex.raw('1')).from('event_registrations as r').whereRaw('r.news_id = n.id'),
      )
      .whereNotExists((messages) =>
        messages
          .select(knex.raw('1'))
          .from('push_messages as m')
          .whereRaw('m.news_id = n.id')
          .where('m.origin', 'reminder'),
      )
      .select(
        'n.id',
        'n.title',
        'n.event_title',
        'n.event_start_date',
        'n.event_location',
        'n.event_region',
      )) as UpcomingEvent[];
    const written: string[] = [];
    for (const event of events) {
      const id = await knex.transaction((trx) =>
        writeMessage(trx, this.jobs, {
          news: event.id,
          origin: 'reminder',
          text: reminderText({
            title: event.title,
            eventTitle: event.event_title,
            eventStartDate: event.event_start_date,
            eventLocation: event.event_location,
            eventRegion: event.event_region,
          }),
          audience: { audience: 'registrants' },
          sendAt: now,
          now,
        }),
      );
      if (id) written.push(id);
    }
    for (const id of written) this.written(id);
    if (written.length > 0) this.logger.info({ messages: written }, 'event reminders written');

    // Reminders already written whose event has registrants' devices they have not reached yet.
    const later = (await knex('news as n')
      .join('push_messages as m', 'm.news_id', 'n.id')
      .where({ 'n.status': 'published', 'n.has_event': true })
      .where('n.event_start_date', '>', now)
      .where('m.origin', 'reminder')
      .whereIn('m.status', ['sending', 'sent'])
      .whereNotNull('m.targets_at')
      .whereExists((devices) =>
        devices
          .select(knex.raw('1'))
          .from('event_registrations as r')
          .join('app_devices as d', 'd.app_user_id', 'r.app_user_id')
          .whereRaw('r.news_id = m.news_id')
          .where('d.push_enabled', true)
          .whereNotNull('d.push_token')
          .whereNotExists((deliveries) =>
            deliveries
              .select(knex.raw('1'))
              .from('push_deliveries as p')
              .whereRaw('p.message_id = m.id')
              .whereRaw('p.device_id = d.id'),
          ),
      )
      .pluck('m.id')) as string[];
    let added = 0;
    for (const id of later) added += await this.sender.addTargets(id);
    return { written, added };
  }
}
