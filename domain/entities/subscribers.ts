import { newsletterSchema, NEWSLETTER_CAMPAIGNS, subscriptionRule } from '../forms/newsletter.ts';
import { LOCALES } from '../locales.ts';
import { fieldsFromForm } from './form-fields.ts';
import { followUpFields } from './follow-up.ts';
import { defineEntity, patchableBy, STAFF_ROLES } from './types.ts';

const shown = { searchable: true, listed: true, exported: true } as const;

/**
 * A newsletter subscription from a campaign microsite. Anyone subscribes; staff read the list and
 * follow it up; admins alone change a subscription's answers. Its answers are the newsletter form's, and its campaign's rule (the Singapore phone and email checks)
 * is the record's own: one validation, whether the browser form or any API client sends it.
 */
export const subscribers = defineEntity({
  service: 'subscribers',
  table: 'subscribers',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    // Admins correct a subscription; editors change only the follow-up.
    ...patchableBy(['admin'], {
      ...fieldsFromForm(
        newsletterSchema,
        {},
        {
          email: { ...shown, filterable: true, sortable: true, hints: { widget: 'email', column: 1 } },
          name: shown,
          companyName: shown,
          phone: { exported: true },
        },
      ),
      campaign: {
        kind: 'enum',
        enum: NEWSLETTER_CAMPAIGNS,
        required: true,
        filterable: true,
        sortable: true,
        listed: true,
        exported: true,
      },
      locale: { kind: 'enum', enum: LOCALES, filterable: true, exported: true },
    }),
    ...followUpFields,
    createdAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      sortable: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  recordRules: subscriptionRule,
  defaultSort: { createdAt: -1 },
  access: { find: STAFF_ROLES, get: STAFF_ROLES, create: 'public', patch: STAFF_ROLES, remove: ['admin'] },
});
