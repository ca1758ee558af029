import { z } from '../zod.ts';
import { CURRENCY_CODES } from '../money.ts';
import { defineEntity, idSchema, STAFF_ROLES } from './types.ts';

export const PLAN_TYPES = ['lite', 'flexi', 'enterprise'] as const;

export const templateModuleSchema = z
  .object({
    id: idSchema,
    monthPrice: z.number().int().min(0).max(100_000_000),
    count: z.number().int().min(0).max(1000).default(1),
  })
  .strict();

/** An industry's pricing plan (Lite, Flexi, Flexi+) with its included add-on modules. */
export const appTemplates = defineEntity({
  service: 'appTemplates',
  table: 'app_templates',
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
    type: {
      kind: 'enum',
      enum: PLAN_TYPES,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    monthPrice: {
      kind: 'integer',
      schema: z.number().int().min(0).max(100_000_000),
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { widget: 'money' },
    },
    currency: { kind: 'enum', enum: CURRENCY_CODES, defaulted: true, filterable: true, exported: true },
    prepayMonth: {
      kind: 'integer',
      schema: z.number().int().min(0).max(120),
      defaulted: true,
      filterable: true,
      sortable: true,
      exported: true,
    },
    contractMonths: {
      kind: 'integer',
      schema: z.number().int().min(0).max(120),
      defaulted: true,
      filterable: true,
      exported: true,
    },
    showOnHome: { kind: 'boolean', defaulted: true, filterable: true, listed: true, exported: true },
    industry: { kind: 'ref', ref: 'industries', column: 'industry_id', required: true, filterable: true, listed: true },
    modules: {
      kind: 'list',
      item: templateModuleSchema,
      itemKey: 'id',
      defaulted: true,
      hints: { itemWidgets: { monthPrice: 'money' } },
    },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  populate: {
    industry: { service: 'industries', path: 'industry' },
    'modules.id': { service: 'modules', path: 'modules.id' },
  },
  defaultSort: { monthPrice: 1 },
  access: { find: 'public', get: 'public', create: STAFF_ROLES, patch: STAFF_ROLES, remove: ['admin'] },
});
