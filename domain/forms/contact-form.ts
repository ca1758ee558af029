import { z } from '../zod.ts';
import { emailSchema, phoneSchema, requiredText } from './fields.ts';

export * from './contact-form-fields.ts';

/** The contact form of the home page (spec section 3): every field is needed. */
export const contactFormSchema = z.object({
  name: requiredText(120),
  phone: phoneSchema,
  email: emailSchema,
  companyName: requiredText(200),
});

export type ContactFormInput = z.input<typeof contactFormSchema>;
