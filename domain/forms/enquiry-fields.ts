import { type FormFields, listOf, textOf } from './messages.ts';

/*
 * The enquiry form's choices and how its answers are read, without the schema: the page ships
 * these, and loads the schema (and its validation library) only when the form is used.
 */

export const SALUTATIONS = ['mr', 'mrs', 'ms'] as const;
export const CUSTOMER_TYPES = ['existing', 'new'] as const;
export const BUSINESS_TYPES = ['retail', 'restaurant', 'service', 'ecommerce', 'others'] as const;
export const CONTACT_METHODS = ['email', 'phone'] as const;
export const CONSULTATION_TYPES = ['consultation', 'demonstration', 'liveChat'] as const;
/** Dialling codes offered first: the markets the company serves. */
export const COUNTRY_CODES = ['+852', '+65', '+853', '+86', '+886', '+60', '+61', '+66', '+84', '+81'] as const;

/** The fields in the order the form shows them (and the schema declares them). */
export const ENQUIRY_FIELDS = [
  'salutation',
  'firstName',
  'lastName',
  'companyName',
  'customerType',
  'businessType',
  'planNeeded',
  'companyWebsite',
  'contactMethods',
  'email',
  'countryCode',
  'phone',
  'needDescription',
  'customFeatures',
  'advancedFeatures',
  'consultationType',
  'personalDataConsent',
] as const;

/** The enquiry form's answers from a browser form or a POST body. */
export function enquiryFromForm(form: FormFields): Record<string, unknown> {
  const text = (name: string) => textOf(form, name);
  const advanced = listOf(form, 'advancedFeatures');
  return {
    salutation: text('salutation'),
    firstName: text('firstName'),
    lastName: text('lastName'),
    companyName: text('companyName'),
    customerType: text('customerType'),
    businessType: text('businessType'),
    planNeeded: text('planNeeded'),
    companyWebsite: text('companyWebsite'),
    contactMethods: listOf(form, 'contactMethods'),
    email: text('email'),
    countryCode: text('countryCode'),
    phone: text('phone'),
    needDescription: text('needDescription'),
    customFeatures: text('customFeatures'),
    advancedFeatures: advanced.length ? advanced : undefined,
    consultationType: text('consultationType'),
    personalDataConsent: ['on', 'true'].includes(String(form.get('personalDataConsent'))),
  };
}
