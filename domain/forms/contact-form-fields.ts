import { type FormFields, textOf } from './messages.ts';

/** The contact form's fields and how its answers are read, without the schema (see enquiry-fields.ts). */
export const CONTACT_FORM_FIELDS = ['name', 'phone', 'email', 'companyName'] as const;

/** The contact form's answers from a browser form or a POST body. */
export function contactFormFromForm(form: FormFields): Record<string, unknown> {
  return Object.fromEntries(CONTACT_FORM_FIELDS.map((name) => [name, textOf(form, name)]));
}
