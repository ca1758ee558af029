import { z } from '../zod.ts';
import {
  blankAsAbsent,
  emailSchema,
  optionalText,
  phoneSchema,
  requiredChoice,
  requiredPattern,
  requiredText,
} from './fields.ts';
import { BUSINESS_TYPES, CONSULTATION_TYPES, CONTACT_METHODS, CUSTOMER_TYPES, SALUTATIONS } from './enquiry-fields.ts';
import { FORM_MESSAGES } from './messages.ts';

export * from './enquiry-fields.ts';

/** A plan template's or a module's key (`restaurant-flexi`, `kds`). */
const KEY = /^[a-z0-9-]{1,64}$/;

/** A company website: a host name with an optional http(s) scheme and path. */
const WEBSITE = /^(https?:\/\/)?[\w-]+(\.[\w-]+)+(:\d{1,5})?(\/\S*)?$/i;

/** The enquiry form (spec sections 3 and 5). Required answers, then the optional ones. */
export const enquirySchema = z.object({
  salutation: requiredChoice(SALUTATIONS),
  firstName: requiredText(60),
  lastName: requiredText(60),
  companyName: requiredText(200),
  customerType: requiredChoice(CUSTOMER_TYPES),
  businessType: requiredChoice(BUSINESS_TYPES),
  planNeeded: requiredPattern(KEY, FORM_MESSAGES.invalid),
  companyWebsite: blankAsAbsent(z.string().trim().max(300, FORM_MESSAGES.tooBig).regex(WEBSITE, FORM_MESSAGES.invalid)),
  contactMethods: z
    .array(z.enum(CONTACT_METHODS))
    .min(1, FORM_MESSAGES.required)
    .refine((methods) => new Set(methods).size === methods.length, FORM_MESSAGES.invalid),
  email: emailSchema,
  countryCode: requiredPattern(/^\+\d{1,4}$/, FORM_MESSAGES.phone),
  phone: phoneSchema,
  needDescription: optionalText(3000),
  customFeatures: optionalText(3000),
  advancedFeatures: z.array(z.string().regex(KEY, FORM_MESSAGES.invalid)).max(50, FORM_MESSAGES.tooBig).optional(),
  consultationType: requiredChoice(CONSULTATION_TYPES),
  personalDataConsent: z.literal(true, FORM_MESSAGES.consent),
});

export type EnquiryInput = z.input<typeof enquirySchema>;
export type Enquiry = z.output<typeof enquirySchema>;
