import { z } from 'zod';
import { LOCALES } from '../locales.ts';
import { NEWSLETTER_CAMPAIGNS } from '../validation/newsletter.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

/** A newsletter subscription from a campaign microsite. Anyone subscribes; staff read the list. */
export const subscribers = defineEntity({
  service: 'subscribers',
  table: 'subscribers',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    email: {
      kind: 'string',
      schema: z.string().trim().min(1).max(254),
      required: true,
      searchable: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { widget: 'email', column: 1 },
    },
    name: { kind: 'string', schema: z.string().trim().max(120), searchable: true, listed: true, exported: true },
    companyName: { kind: 'string', schema: z.string().trim().max(160), searchable: true, listed: true, exported: true },
    phone: { kind: 'string', schema: z.string().trim().max(40), exported: true },
    campaign: { kind: 'enum', enum: NEWSLETTER_CAMPAIGNS, required: true, filterable: true, sortable: true, listed: true, exported: true },
    locale: { kind: 'enum', enum: LOCALES, filterable: true, exported: true },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true, listed: true, exported: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  access: { find: STAFF_ROLES, get: STAFF_ROLES, create: 'public', patch: ['admin'], remove: ['admin'] },
});
