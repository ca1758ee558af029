import { BUSINESS_TYPES, CONSULTATION_TYPES, CUSTOMER_TYPES, enquirySchema, SALUTATIONS } from '../forms/enquiry.ts';
import { fieldsFromForm } from './form-fields.ts';
import { followUpFields } from './follow-up.ts';
import { defineEntity, patchableBy, STAFF_ROLES } from './types.ts';

const shown = { searchable: true, sortable: true, listed: true, exported: true } as const;
const choice = { filterable: true, sortable: true, listed: true, exported: true } as const;

/**
 * An enquiry from the enquiry form (spec section 3). Anyone sends one (while the contact-form
 * feature is on); staff read them and follow them up (status and notes, nothing else); admins remove them.
 */
export const enquiries = defineEntity({
  service: 'enquiries',
  table: 'enquiries',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    // What the visitor sent stays as sent: staff change only the follow-up.
    ...patchableBy(
      [],
      fieldsFromForm(
        enquirySchema,
        {
          salutation: 'enum',
          customerType: 'enum',
          businessType: 'enum',
          consultationType: 'enum',
          email: 'email',
          contactMethods: 'list',
          advancedFeatures: 'list',
          personalDataConsent: 'boolean',
        },
        {
          salutation: { enum: SALUTATIONS, exported: true },
          firstName: shown,
          lastName: shown,
          companyName: { ...shown, hints: { column: 1 } },
          customerType: { ...choice, enum: CUSTOMER_TYPES },
          businessType: { ...choice, enum: BUSINESS_TYPES },
          planNeeded: choice,
          companyWebsite: { exported: true },
          contactMethods: { filterable: true, exported: true },
          email: { ...shown, filterable: true },
          countryCode: { exported: true },
          phone: { searchable: true, exported: true },
          needDescription: { exported: true, hints: { widget: 'textarea' } },
          customFeatures: { exported: true, hints: { widget: 'textarea' } },
          advancedFeatures: { filterable: true, exported: true },
          consultationType: { ...choice, enum: CONSULTATION_TYPES },
          personalDataConsent: { exported: true },
        },
      ),
    ),
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
