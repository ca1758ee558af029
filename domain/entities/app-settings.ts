import { z } from '../zod.ts';
import { defineEntity, i18nTextOf, idSchema, STAFF_ROLES } from './types.ts';
import { colourSchema, dayRangeSchema, mapPointSchema } from './widget-values.ts';

/**
 * What the company's apps dress their home screen with (decision 046): the header and its photo,
 * the footer's two gradient colours, whether the events and the shop show, the sponsor and the days
 * it is shown, where the map opens in Hong Kong and in Canada, and the home screen's gallery. One record for every app: the
 * seed makes it, nobody adds or removes one. Anyone reads it (the apps show their home screen before
 * anyone signs in); staff change it, as the other content.
 */
/** The most pictures the home screen's gallery holds. */
export const MAX_GALLERY_PICTURES = 12;

export const appSettings = defineEntity({
  service: 'appSettings',
  table: 'app_settings',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    header: { kind: 'i18n', schema: i18nTextOf(120), required: true, listed: true, hints: { column: 1 } },
    /** An uploaded image (the `settings` folder), served at `/api/attachments/{id}` in every width. */
    headerPhoto: {
      kind: 'ref',
      ref: 'attachments',
      column: 'header_photo_id',
      listed: true,
      hints: { widget: 'image' },
    },
    footerColor1: { kind: 'string', schema: colourSchema, required: true, listed: true, hints: { widget: 'color' } },
    footerColor2: { kind: 'string', schema: colourSchema, required: true, listed: true, hints: { widget: 'color' } },
    showEvent: { kind: 'boolean', defaulted: true, listed: true },
    showShop: { kind: 'boolean', defaulted: true, listed: true },
    sponsorName: { kind: 'string', schema: z.string().trim().max(120), listed: true },
    /** The Hong Kong days the sponsor is shown, both included; none: whenever a sponsor is named. */
    sponsorShown: { kind: 'object', schema: dayRangeSchema, listed: true, hints: { widget: 'dateRange' } },
    mapHongKong: {
      kind: 'object',
      schema: mapPointSchema,
      required: true,
      listed: true,
      hints: { widget: 'mapPoint' },
    },
    mapCanada: { kind: 'object', schema: mapPointSchema, required: true, listed: true, hints: { widget: 'mapPoint' } },
    /** The home screen's gallery: uploaded pictures (the `settings` folder) by id, in the order shown. */
    homeGallery: {
      kind: 'list',
      item: idSchema,
      schema: z
        .array(idSchema)
        .max(MAX_GALLERY_PICTURES)
        .refine((ids) => new Set(ids).size === ids.length, { message: 'validation.duplicate' }),
      defaulted: true,
      hints: { widget: 'gallery' },
    },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true, listed: true },
  },
  defaultSort: { createdAt: 1 },
  access: { find: 'public', get: 'public', create: 'none', patch: STAFF_ROLES, remove: 'none' },
});
