import { z } from '../zod.ts';
import { FORM_MESSAGES, type FormErrors } from './messages.ts';

/** A required line of text. */
export const requiredText = (max: number) =>
  z.string().trim().min(1, FORM_MESSAGES.required).max(max, FORM_MESSAGES.tooBig);
/** An optional longer text. */
export const optionalText = (max: number) => z.string().trim().max(max, FORM_MESSAGES.tooBig).optional();

export const emailSchema = z
  .string()
  .trim()
  .min(1, FORM_MESSAGES.required)
  .max(254, FORM_MESSAGES.tooBig)
  .pipe(z.email(FORM_MESSAGES.email))
  .transform((email) => email.toLowerCase());

/** A local phone number: 6 to 15 digits, spaces and hyphens allowed between them. */
export const PHONE = /^\+?\d[\d -]{4,18}\d$/;
export const phoneSchema = z
  .string()
  .trim()
  .min(1, FORM_MESSAGES.required)
  .regex(PHONE, FORM_MESSAGES.phone)
  .refine((phone) => {
    const digits = phone.replace(/\D/g, '').length;
    return digits >= 6 && digits <= 15;
  }, FORM_MESSAGES.phone);

const nothingGiven = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * One answer from a list, required: nothing chosen reads 'Required' and anything else outside the
 * list 'not valid', the same in the browser and in an API error.
 */
export const requiredChoice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (issue) => (nothingGiven(issue.input) ? FORM_MESSAGES.required : FORM_MESSAGES.invalid) });

/** A required line of text in a fixed format: empty reads 'Required', anything else that misses the pattern `message`. */
export const requiredPattern = (pattern: RegExp, message: string) =>
  z.string().trim().min(1, FORM_MESSAGES.required).regex(pattern, message);

/** An optional answer that an empty text leaves unanswered (an API client may send '' for a field left blank). */
export const blankAsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

/**
 * A schema with a rule that reads its answers together (what one needs depends on another): the
 * rule's message keys become issues at the answers they name. Zod runs it after each answer's own
 * schema, unless one was of the wrong type.
 */
export function withRule<S extends z.ZodType>(schema: S, rule: (answers: z.output<S>) => FormErrors): S {
  return schema.superRefine((answers, ctx) => {
    for (const [field, message] of Object.entries(rule(answers)))
      ctx.addIssue({ code: 'custom', message, path: [field] });
  });
}
