import { z } from '../zod.ts';
import { defineEntity, i18nTextSchema, STAFF_ROLES } from './types.ts';

export const industryItemSchema = z
  .object({
    _id: z.string().max(64).optional(),
    name: i18nTextSchema,
    description: i18nTextSchema.optional(),
    icon: z.string().trim().max(64).optional(),
  })
  .strict();

/** A business type the product serves. Order 0 is the restaurant page, others the store page. */
export const industries = defineEntity({
  service: 'industries',
  table: 'industries',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    key: { kind: 'string', schema: z.string().regex(/^[a-z0-9-]{1,64}$/), filterable: true, listed: true },
    name: {
      kind: 'i18n',
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    description: { kind: 'i18n', defaulted: true, searchable: true, exported: true },
    order: {
      kind: 'integer',
      column: 'display_order',
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    major: { kind: 'boolean', defaulted: true, filterable: true, sortable: true, listed: true, exported: true },
    items: { kind: 'list', item: industryItemSchema, itemKey: '_id', defaulted: true },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { order: 1 },
  access: { find: 'public', get: 'public', create: STAFF_ROLES, patch: STAFF_ROLES, remove: ['admin'] },
});
