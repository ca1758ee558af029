import { z } from '../zod.ts';
import { contactFormSchema } from '../forms/contact-form.ts';
import { fieldsFromForm } from './form-fields.ts';
import { followUpFields } from './follow-up.ts';
import { defineEntity, patchableBy, STAFF_ROLES } from './types.ts';

const shown = { searchable: true, sortable: true, listed: true, exported: true } as const;

/**
 * A contact form sent from the home page. Anyone sends one (while the contact-form feature is
 * on); staff read them and follow them up (status and notes, nothing else); admins remove them. Existing clients may mark a try-out with `testing`.
 */
export const contactForms = defineEntity({
  service: 'contactForms',
  table: 'contact_forms',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    // What the visitor sent stays as sent: staff change only the follow-up.
    ...patchableBy([], {
      ...fieldsFromForm(
        contactFormSchema,
        { email: 'email' },
        {
          name: { ...shown, hints: { column: 1 } },
          email: { ...shown, filterable: true },
          phone: { ...shown },
          companyName: shown,
        },
      ),
      testing: { kind: 'boolean', schema: z.boolean(), filterable: true, exported: true },
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
  defaultSort: { createdAt: -1 },
  access: {
    find: ['editor', 'admin'],
    get: ['editor', 'admin'],
    create: 'public',
    patch: STAFF_ROLES,
    remove: ['admin'],
  },
});
