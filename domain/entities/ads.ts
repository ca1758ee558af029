import { z } from '../zod.ts';
import { CURRENCY_CODES } from '../money.ts';
import { defineEntity, i18nTextOf, idSchema, STAFF_ROLES } from './types.ts';

/*
 * What the company's apps advertise (spec section 3, decision 057): ads, the campaigns that group
 * them, and the products the apps' shop lists. Staff write them in the back office; the apps read
 * ads through `adPicks` (one ad of a type, picked by weight and probability) and report views and
 * clicks through `adReports`; they list published products through `products` itself.
 */

export const AD_TYPES = ['article', 'footer', 'fullscreen', 'list', 'video'] as const;
export type AdType = (typeof AD_TYPES)[number];

/** `meet`: published, and a target (views or clicks) is reached; only the server sets it. */
export const AD_STATUSES = ['draft', 'published', 'meet'] as const;
export type AdStatus = (typeof AD_STATUSES)[number];
/** What staff may set an ad's status to: the server alone says when a target is met. */
export const AD_STAFF_STATUSES = ['draft', 'published'] as const;

export const CAMPAIGN_STATUSES = ['draft', 'published'] as const;
export const PRODUCT_STATUSES = ['draft', 'published'] as const;

/** Where a tap on an ad or a product goes: an https address, a path on the site, or the apps' own link. */
export const targetLinkSchema = z
  .string()
  .trim()
  .max(500)
  .regex(/^(?:https:\/\/|\/(?![/\\])|tillpoint:\/\/)[^\s"'<>\\]+$/, 'validation.targetLink');

/** A campaign's key in its microsite's address (`/campaign/23hkrace`): lower-case letters, digits, hyphens. */
export const campaignKeySchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'validation.invalid')
  .max(40);

/** The most ads a campaign groups. */
export const MAX_CAMPAIGN_ADS = 50;

const count = z.number().int().min(0).max(1_000_000_000);

/** Both ends of a publish window, when both are given: the expiry after the publish. */
function windowProblems(record: Readonly<Record<string, unknown>>): Record<string, string> {
  const { publish, expiry } = record;
  if (publish instanceof Date && expiry instanceof Date && expiry.getTime() <= publish.getTime())
    return { expiry: 'validation.expiryBeforePublish' };
  return {};
}

/**
 * An ad of the apps. Shown while published and inside its window (publish ≤ now < expiry; an end
 * left empty is open), by `weight` and `probability` (decision 057). `views` and `clicks` are
 * counted by the server, once per device, ad and hour; when one reaches its target (a target of 0
 * is none) the ad's status becomes `meet` and it is no longer served. A target raised above the
 * count returns it to `published`; the database holds that rule (migration 037), so it holds on
 * every path that writes the table.
 */
export const ads = defineEntity({
  service: 'ads',
  table: 'ads',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    name: {
      kind: 'i18n',
      schema: i18nTextOf(120),
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    adType: {
      kind: 'enum',
      enum: AD_TYPES,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 2 },
    },
    status: {
      kind: 'enum',
      enum: AD_STATUSES,
      // Staff write draft or published; the table sets `meet` (and takes it back) by the counts.
      schema: z.enum(AD_STAFF_STATUSES),
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 3 },
    },
    /** The picture (or a video's poster) shown: an upload in the `ads` folder. */
    media: { kind: 'ref', ref: 'attachments', column: 'media_id', listed: true, hints: { widget: 'image', column: 4 } },
    /** The small picture of list and footer placements. */
    smallImage: { kind: 'ref', ref: 'attachments', column: 'small_image_id', hints: { widget: 'image' } },
    targetLink: { kind: 'string', schema: targetLinkSchema, exported: true },
    /** Among the ads shown at once, the relative share of this one (1 to 1000). */
    weight: {
      kind: 'integer',
      schema: z.number().int().min(1).max(1000),
      defaulted: true,
      filterable: true,
      sortable: true,
      exported: true,
    },
    /** The chance, in percent, that the ad takes part in a pick at all (0 to 100). */
    probability: {
      kind: 'integer',
      schema: z.number().int().min(0).max(100),
      defaulted: true,
      filterable: true,
      sortable: true,
      exported: true,
    },
    publish: { kind: 'date', filterable: true, sortable: true, listed: true, exported: true },
    expiry: { kind: 'date', filterable: true, sortable: true, listed: true, exported: true },
    views: {
      kind: 'integer',
      column: 'view_count',
      readonly: true,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 5 },
    },
    targetViews: {
      kind: 'integer',
      column: 'target_view_count',
      schema: count,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 6 },
    },
    clicks: {
      kind: 'integer',
      column: 'click_count',
      readonly: true,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 7 },
    },
    targetClicks: {
      kind: 'integer',
      column: 'target_click_count',
      schema: count,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 8 },
    },
    remarks: { kind: 'string', schema: z.string().trim().max(2000), exported: true, hints: { widget: 'textarea' } },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  recordRules: windowProblems,
  // The apps never read the table: they ask `adPicks` for an ad, which answers what they show.
  access: { find: STAFF_ROLES, get: STAFF_ROLES, create: STAFF_ROLES, patch: STAFF_ROLES, remove: ['admin'] },
});

/**
 * A campaign: ads grouped under a name and a window. While it is published and inside its window,
 * its ads are served in the apps (a pick may name it by `key`) and shown on its microsite
 * (`/campaign/{key}`); an ad in campaigns is served only while one of them is.
 */
export const campaigns = defineEntity({
  service: 'campaigns',
  table: 'campaigns',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    name: {
      kind: 'i18n',
      schema: i18nTextOf(120),
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    key: {
      kind: 'string',
      schema: campaignKeySchema,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 2, filter: 'exact' },
    },
    status: {
      kind: 'enum',
      enum: CAMPAIGN_STATUSES,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 3 },
    },
    /** The ads of the campaign, in order: picked by name in the editor, each one an ad that exists. */
    ads: {
      kind: 'list',
      ref: 'ads',
      item: idSchema,
      schema: z
        .array(idSchema)
        .max(MAX_CAMPAIGN_ADS)
        .refine((ids) => new Set(ids).size === ids.length, { message: 'validation.duplicate' }),
      defaulted: true,
      filterable: true,
      listed: true,
      exported: true,
      hints: { column: 4 },
    },
    publish: { kind: 'date', filterable: true, sortable: true, listed: true, exported: true },
    expiry: { kind: 'date', filterable: true, sortable: true, listed: true, exported: true },
    remarks: { kind: 'string', schema: z.string().trim().max(2000), exported: true, hints: { widget: 'textarea' } },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true, listed: true },
  },
  defaultSort: { createdAt: -1 },
  recordRules: windowProblems,
  access: { find: STAFF_ROLES, get: STAFF_ROLES, create: STAFF_ROLES, patch: STAFF_ROLES, remove: ['admin'] },
});

/** A discounted price above the price is refused, on every create and on the record a patch leaves. */
function productProblems(record: Readonly<Record<string, unknown>>): Record<string, string> {
  const { price, dprice } = record;
  if (typeof price === 'number' && typeof dprice === 'number' && dprice > price)
    return { dprice: 'validation.discountAbovePrice' };
  return {};
}

/**
 * A product of the apps' shop: a price and an optional discounted price (`dprice`, never above the
 * price), both integers of minor units in one currency, as the plans' prices are. Anyone reads the
 * published ones (the apps list them before anyone signs in); staff read and write every one.
 */
export const products = defineEntity({
  service: 'products',
  table: 'products',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    name: {
      kind: 'i18n',
      schema: i18nTextOf(120),
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    price: {
      kind: 'integer',
      schema: z.number().int().min(0).max(100_000_000),
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { widget: 'money', column: 2 },
    },
    dprice: {
      kind: 'integer',
      schema: z.number().int().min(0).max(100_000_000),
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { widget: 'money', column: 3 },
    },
    currency: { kind: 'enum', enum: CURRENCY_CODES, defaulted: true, filterable: true, listed: true, exported: true },
    media: { kind: 'ref', ref: 'attachments', column: 'media_id', listed: true, hints: { widget: 'image' } },
    /** Where a tap on the product goes (its page in the shop). */
    target: { kind: 'string', schema: targetLinkSchema, exported: true },
    status: {
      kind: 'enum',
      enum: PRODUCT_STATUSES,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    remarks: { kind: 'string', schema: z.string().trim().max(2000), exported: true, hints: { widget: 'textarea' } },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true, listed: true },
  },
  defaultSort: { createdAt: -1 },
  publicWhere: { status: 'published' },
  recordRules: productProblems,
  access: { find: 'public', get: 'public', create: STAFF_ROLES, patch: STAFF_ROLES, remove: ['admin'] },
});
