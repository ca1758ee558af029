import { z } from '../zod.ts';
import { EVENT_LOCATIONS, FACEBOOK_POST_STATES, NEWS_REGIONS, NEWS_STATUSES } from '../news/constants.ts';
import { coverImageSchema } from './blogs.ts';
import { defineEntity, i18nTextOf, STAFF_ROLES } from './types.ts';

export { EVENT_LOCATIONS, NEWS_REGIONS, NEWS_STATUSES };

/** An address the apps open: https only (a map, an online meeting). */
const httpsUrlSchema = z
  .string()
  .trim()
  .max(500)
  .regex(/^https:\/\/[^\s"'<>\\]+$/);

const instant = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const time = new Date(value as string).getTime();
  return Number.isNaN(time) ? null : time;
};

/**
 * A news item's rules across fields: an item with an event names the event, where and when it is,
 * and its end, closing time and publication window are in order.
 */
export function newsRule(record: Readonly<Record<string, unknown>>): Readonly<Record<string, string>> {
  const issues: Record<string, string> = {};
  if (record.hasEvent === true) {
    for (const field of ['eventTitle', 'eventStartDate', 'eventLocation'])
      if (record[field] === null || record[field] === undefined) issues[field] = 'validation.required';
  }
  const start = instant(record.eventStartDate);
  const end = instant(record.eventEndDate);
  if (start !== null && end !== null && end < start) issues.eventEndDate = 'validation.eventEndsBeforeStart';
  const closes = instant(record.eventClosesAt);
  if (start !== null && closes !== null && closes > start) issues.eventClosesAt = 'validation.eventClosesAfterStart';
  const from = instant(record.publishFrom);
  const to = instant(record.publishTo);
  if (from !== null && to !== null && to <= from) issues.publishTo = 'validation.publishToBeforeFrom';
  return issues;
}

/**
 * A news item of the company's apps (spec §3 News, decision 056), in three languages, with an
 * optional event that app users register for (`eventRegistrations`). Its event is held in the
 * item's own `event…` fields, so the generic editor, table, filters and indexes serve it as any
 * other field. The apps read published items only, between `publishFrom` and `publishTo` and
 * before `expiry`; staff read every item (`publicWhere`, `publicWindow`).
 */
export const news = defineEntity({
  service: 'news',
  table: 'news',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    title: {
      kind: 'i18n',
      schema: i18nTextOf(200),
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    // Staff's own short name for the item (a campaign's code, an internal reference).
    name: { kind: 'string', schema: z.string().trim().max(120), searchable: true, filterable: true, exported: true },
    content: { kind: 'i18n', schema: i18nTextOf(60_000), required: true, hints: { widget: 'richText' } },
    author: { kind: 'string', schema: z.string().trim().max(120), searchable: true, exported: true },
    category: { kind: 'ref', ref: 'categories', filterable: true, listed: true, exported: true },
    city: { kind: 'string', schema: z.string().trim().max(80), filterable: true, exported: true },
    region: {
      kind: 'enum',
      enum: NEWS_REGIONS,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    /** An uploaded picture (the `news` folder), served at `/api/attachments/{id}` in every width. */
    image: { kind: 'ref', ref: 'attachments', column: 'image_id', hints: { widget: 'image' } },
    // The date the item is dated (shown by the apps, the order of the list); the moment it is written when not given.
    date: { kind: 'date', defaulted: true, filterable: true, sortable: true, listed: true, exported: true },
    // Pinned: shown before every item that is not, newest pinned first.
    top: { kind: 'boolean', defaulted: true, filterable: true, sortable: true, listed: true, exported: true },
    publishFrom: {
      kind: 'date',
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { widget: 'dateTime' },
    },
    publishTo: { kind: 'date', filterable: true, sortable: true, exported: true, hints: { widget: 'dateTime' } },
    expiry: { kind: 'date', filterable: true, sortable: true, exported: true, hints: { widget: 'dateTime' } },
    status: {
      kind: 'enum',
      enum: NEWS_STATUSES,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    // When the item was first published: set once by the server (the seam for what publishing sends).
    publishedAt: { kind: 'date', readonly: true, filterable: true, sortable: true, exported: true },
    hasEvent: { kind: 'boolean', defaulted: true, filterable: true, listed: true, exported: true },
    eventTitle: { kind: 'i18n', schema: i18nTextOf(200), exported: true },
    eventContent: { kind: 'i18n', schema: i18nTextOf(20_000), hints: { widget: 'richText' } },
    eventEmail: { kind: 'email', exported: true },
    eventStartDate: { kind: 'date', filterable: true, sortable: true, exported: true, hints: { widget: 'dateTime' } },
    eventEndDate: { kind: 'date', filterable: true, sortable: true, exported: true, hints: { widget: 'dateTime' } },
    eventJoinUrl: { kind: 'string', schema: httpsUrlSchema, exported: true },
    eventLocation: { kind: 'enum', enum: EVENT_LOCATIONS, filterable: true, exported: true },
    eventMapUrl: { kind: 'string', schema: httpsUrlSchema, exported: true },
    eventNotes: { kind: 'i18n', schema: i18nTextOf(2000), hints: { widget: 'textarea' } },
    eventRegion: { kind: 'string', schema: z.string().trim().max(80), exported: true },
    // The most registrations the event takes; none: no limit.
    eventCapacity: { kind: 'integer', schema: z.number().int().min(1).max(100_000), exported: true },
    // When registration closes; none: at the event's start.
    eventClosesAt: { kind: 'date', filterable: true, sortable: true, exported: true, hints: { widget: 'dateTime' } },
    // How many app users are registered, counted by the registrations service as it writes them.
    eventRegistered: { kind: 'integer', readonly: true, defaulted: true, sortable: true, listed: true, exported: true },
    // Posted to the company's Facebook page once, when the item is first published (decision 059).
    postToFacebook: { kind: 'boolean', defaulted: true, filterable: true, exported: true },
    // The post on Facebook, as the Graph API names it (`{page}_{post}`): written by the server, a link for staff.
    facebookPostId: {
      kind: 'string',
      readonly: true,
      filterable: true,
      exported: true,
      hints: { widget: 'link', href: 'https://www.facebook.com/{value}' },
    },
    facebookStatus: { kind: 'enum', enum: FACEBOOK_POST_STATES, readonly: true, filterable: true, exported: true },
    // Why the last try to post failed, as Facebook said it (kept until a post succeeds).
    facebookError: { kind: 'string', readonly: true, exported: true },
    // The Instagram post the item belongs to, written by staff (nothing is posted to Instagram).
    postToInstagramID: {
      kind: 'string',
      column: 'post_to_instagram_id',
      schema: z.string().trim().max(120),
      exported: true,
    },
    // A push message to the devices of the item's region, once, when it is first published (decision 059).
    sendNotification: { kind: 'boolean', defaulted: true, filterable: true, exported: true },
    // The Facebook post an imported item came from (decision 060): unique, so a post is added once.
    facebookSourceId: { kind: 'string', readonly: true, filterable: true, exported: true },
    // The import that added it: the news list filtered by an import shows what it added.
    facebookImport: { kind: 'ref', ref: 'facebook', column: 'facebook_import_id', readonly: true, filterable: true },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  populate: {
    category: { service: 'categories', path: 'category' },
  },
  // Pinned first, then the newest (the apps' order); the id keeps a cursor's order whole.
  defaultSort: { top: -1, date: -1 },
  publicWhere: { status: 'published' },
  publicWindow: { from: ['publishFrom'], until: ['publishTo', 'expiry'] },
  recordRules: newsRule,
  access: { find: 'public', get: 'public', create: STAFF_ROLES, patch: STAFF_ROLES, remove: ['admin'] },
});

export { coverImageSchema };
