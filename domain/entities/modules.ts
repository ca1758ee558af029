import { z } from '../zod.ts';
import { CURRENCY_CODES } from '../money.ts';
import { defineEntity, idSchema, STAFF_ROLES } from './types.ts';

export const MODULE_BILLING = ['monthly', 'yearly', 'one_time'] as const;

/** An add-on module (KDS, QR self-order, ...), priced per month, year or once. */
export const modules = defineEntity({
  service: 'modules',
  table: 'modules',
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
    shortDesc: { kind: 'i18n', defaulted: true, searchable: true, exported: true },
    description: { kind: 'i18n', defaulted: true, exported: true },
    counter: { kind: 'boolean', defaulted: true, filterable: true, listed: true, exported: true },
    monthPrice: {
      kind: 'integer',
      schema: z.number().int().min(0).max(100_000_000),
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { widget: 'money' },
    },
    currency: { kind: 'enum', enum: CURRENCY_CODES, defaulted: true, filterable: true, exported: true },
    billing: { kind: 'enum', enum: MODULE_BILLING, defaulted: true, filterable: true, listed: true, exported: true },
    released: { kind: 'boolean', defaulted: true, filterable: true, listed: true, exported: true },
    /** The industries it is sold to (their ids); none: every industry. */
    industries: {
      kind: 'list',
      item: idSchema,
      column: 'industry_ids',
      defaulted: true,
      filterable: true,
      exported: true,
    },
    order: { kind: 'integer', column: 'display_order', defaulted: true, filterable: true, sortable: true },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { order: 1 },
  access: { find: 'public', get: 'public', create: STAFF_ROLES, patch: STAFF_ROLES, remove: ['admin'] },
});
