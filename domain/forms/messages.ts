import type { z } from '../zod.ts';

/** Message keys of the forms (spec section 5); each exists in every locale. */
export const FORM_MESSAGES = {
  required: 'validation.required',
  invalid: 'validation.invalid',
  tooBig: 'validation.tooBig',
  incomplete: 'validation.enquiryIncomplete',
  email: 'validation.emailFormat',
  phone: 'validation.phoneFormat',
  consent: 'validation.consentRequired',
  failed: 'validation.failed',
} as const;

export type FormErrors = Record<string, string>;

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * Whether a schema's message is a message key (`validation.required`, `newsletter.sgEmail`), as the
 * forms' schemas give them, rather than one of zod's own sentences.
 */
export function isMessageKey(message: string): boolean {
  return /^[a-z]+\.[A-Za-z.]+$/.test(message);
}

/**
 * Per-field message keys for a failed parse, the first problem of each field. The server's
 * entity validation maps issues the same way, so a field reads the same in the browser and in
 * an API error.
 */
export function formErrors(error: z.ZodError, input: Record<string, unknown>): FormErrors {
  const errors: FormErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '_');
    if (errors[field]) continue;
    if (isMessageKey(issue.message)) errors[field] = issue.message;
    else errors[field] = isEmpty(input[field]) ? FORM_MESSAGES.required : FORM_MESSAGES.invalid;
  }
  return errors;
}

/** The one message a failed form shows above its fields: missing answers first. */
export function formSummary(errors: FormErrors, incomplete: string = FORM_MESSAGES.incomplete): string {
  const messages = Object.values(errors);
  if (messages.includes(FORM_MESSAGES.required)) return incomplete;
  return messages[0] ?? FORM_MESSAGES.failed;
}

/** What a browser form or an urlencoded POST hands over: `FormData` and `URLSearchParams` both fit. */
export interface FormFields {
  get(name: string): unknown;
  getAll(name: string): unknown[];
}

/** A text answer, or undefined when left empty (so optional fields stay unset). */
export function textOf(form: FormFields, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function listOf(form: FormFields, name: string): string[] {
  return form.getAll(name).filter((value): value is string => typeof value === 'string' && value !== '');
}

/** The hidden field that people leave empty and form-filling robots do not. */
export const HONEYPOT_FIELD = 'website_url';
