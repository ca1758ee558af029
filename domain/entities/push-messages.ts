import { z } from '../zod.ts';
import { LOCALES } from '../locales.ts';
import { regionCodeSchema } from './app-users.ts';
import { defineEntity, i18nTextOf, STAFF_ROLES } from './types.ts';

/**
 * Who a push message goes to: every installation of the apps, those with an app user signed in,
 * those in one language or one region, one device (a test device staff keep for themselves), or
 * the devices of the app users registered for a news item's event (`registrants`, with `news`).
 */
export const PUSH_AUDIENCES = ['all', 'users', 'locale', 'region', 'device', 'registrants'] as const;
export type PushAudience = (typeof PUSH_AUDIENCES)[number];

/**
 * A message's life (decision 055): written as a `draft`; `scheduled` for its date; `sending` once
 * its date has come (or staff sent it now) until every delivery is done; `sent`. A scheduled
 * message may be `cancelled` by staff before it goes. Only the server moves a message to `sending`
 * and `sent`.
 */
export const PUSH_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] as const;
export type PushStatus = (typeof PUSH_STATUSES)[number];

/**
 * Who wrote a message (decision 059): staff, or the server for a news item, once each: the
 * item's notification when it is first published (`news`), its event's reminder (`reminder`).
 */
export const PUSH_ORIGINS = ['staff', 'news', 'reminder'] as const;
export type PushOrigin = (typeof PUSH_ORIGINS)[number];

/** The states in which staff may still change what a message says and who it goes to. */
export const PUSH_EDITABLE: readonly PushStatus[] = ['draft', 'scheduled'];
/** The states a staff member may set by a patch, from the states each may be set in. */
export const PUSH_TRANSITIONS: Readonly<Record<PushStatus, readonly PushStatus[]>> = {
  draft: ['draft', 'scheduled'],
  scheduled: ['draft', 'scheduled', 'cancelled'],
  sending: [],
  sent: [],
  cancelled: [],
};
/** The states in which an admin may remove a message: it never reached anyone. */
export const PUSH_REMOVABLE: readonly PushStatus[] = ['draft', 'cancelled'];

/** Statistics the server keeps: read by staff, written by no one from outside. */
const counter = { kind: 'integer', readonly: true, defaulted: true, sortable: true, exported: true } as const;

/**
 * A push message to the apps' devices (spec section 3: title, body, date, delivery and click
 * statistics; decision 055). Title and body in the three languages (English required); each
 * device gets its own language, else English. The counters are updated in SQL by the send job and
 * by the devices' reports (`pushReceipts`); the open rate is opened / sent, as a whole percentage.
 */
export const pushMessages = defineEntity({
  service: 'pushMessages',
  table: 'push_messages',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    title: {
      kind: 'i18n',
      // A notification's title: what a lock screen shows in one line or two.
      schema: i18nTextOf(100),
      required: true,
      searchable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    body: { kind: 'i18n', schema: i18nTextOf(1000), required: true, exported: true, hints: { widget: 'textarea' } },
    audience: { kind: 'enum', enum: PUSH_AUDIENCES, defaulted: true, filterable: true, exported: true },
    /** The language of the devices addressed when the audience is `locale`. */
    audienceLocale: { kind: 'enum', enum: LOCALES, filterable: true, exported: true },
    /** The region of the devices addressed when the audience is `region`. */
    audienceRegion: { kind: 'string', schema: regionCodeSchema, filterable: true, exported: true },
    /** The test device: a test send goes to it, and the audience `device` is it alone. */
    device: { kind: 'ref', ref: 'appDevices', column: 'device_id', filterable: true, exported: true },
    /**
     * The news item it is about: the apps open it when the message is tapped (its id is in the
     * push's data), and the audience `registrants` is its event's registrants.
     */
    news: { kind: 'ref', ref: 'news', column: 'news_id', filterable: true, exported: true },
    /** Staff's, or written once by the server for a news item (its notification, its event's reminder). */
    origin: { kind: 'enum', enum: PUSH_ORIGINS, readonly: true, defaulted: true, filterable: true, exported: true },
    /** When a scheduled message goes. */
    date: {
      kind: 'date',
      column: 'send_at',
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 3, widget: 'dateTime' },
    },
    /** Delivered even in the device's quiet hours (22:00 to 08:00 on its own clock). */
    urgent: { kind: 'boolean', defaulted: true, filterable: true, exported: true },
    status: {
      kind: 'enum',
      enum: PUSH_STATUSES,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 2 },
    },
    targeted: { ...counter, listed: true, hints: { column: 4 } },
    sent: { ...counter, listed: true, hints: { column: 5 } },
    failed: { ...counter },
    received: { ...counter, listed: true, hints: { column: 6 } },
    opened: { ...counter, listed: true, hints: { column: 7 } },
    /** Opened / sent, in whole percent; none before anything is sent. */
    openRate: { kind: 'integer', readonly: true, sortable: true, listed: true, exported: true, hints: { column: 8 } },
    /** When the last delivery was done. */
    sentAt: { kind: 'date', readonly: true, filterable: true, sortable: true, exported: true },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  // Who each audience needs, and a date for a scheduled message (on every write, every path).
  recordRules: (record) => {
    const problems: Record<string, string> = {};
    if (record.audience === 'locale' && !record.audienceLocale) problems.audienceLocale = 'validation.required';
    if (record.audience === 'region' && !record.audienceRegion) problems.audienceRegion = 'validation.required';
    if (record.audience === 'device' && !record.device) problems.device = 'validation.required';
    if (record.audience === 'registrants' && !record.news) problems.news = 'validation.required';
    if (record.status === 'scheduled' && !record.date) problems.date = 'validation.required';
    return problems;
  },
  access: {
    find: STAFF_ROLES,
    get: STAFF_ROLES,
    create: STAFF_ROLES,
    patch: STAFF_ROLES,
    // Only drafts and cancelled messages (the service's rule), by an admin.
    remove: ['admin'],
  },
});

/** What a device's report of a push says (`pushReceipts`). */
export const PUSH_EVENTS = ['received', 'opened'] as const;
export type PushEvent = (typeof PUSH_EVENTS)[number];

/** What staff ask of a message through `pushSends`. */
export const PUSH_SEND_ACTIONS = ['test', 'now', 'schedule', 'cancel'] as const;
export type PushSendAction = (typeof PUSH_SEND_ACTIONS)[number];

export const pushSendSchema = z
  .object({ message: z.string().min(1).max(64), action: z.enum(PUSH_SEND_ACTIONS) })
  .strict();
