import { z } from '../zod.ts';
import { emailSchema, withRule } from './fields.ts';
import { FORM_MESSAGES, type FormErrors, type FormFields } from './messages.ts';
import { requiredPassword } from './profile.ts';
import { REGISTRATION_MESSAGES } from './registration-fields.ts';

/*
 * A forgotten password (decision 026): the member asks for a link with their email, then sets a new
 * password, typed twice, by the password rules of registration and profile. Checked in the page and
 * again by the `passwordResets` service.
 */

/** Asking for a link: the account's email. */
export const passwordResetRequestSchema = z.object({ email: emailSchema });

/** The link's token as mailed: 43 base64url characters; a little room either side. */
export const RESET_TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

/** The new password, twice. The common breached passwords are refused by the server. */
export const passwordResetSchema = withRule(
  z.object({
    password: requiredPassword,
    passwordConfirm: z.string().min(1, FORM_MESSAGES.required),
  }),
  (answers): FormErrors =>
    answers.password === answers.passwordConfirm ? {} : { passwordConfirm: REGISTRATION_MESSAGES.passwordMismatch },
);

export const PASSWORD_RESET_FIELDS = ['password', 'passwordConfirm'] as const;

/** The new password's answers from a form, taken as typed (spaces count). */
export function passwordResetFromForm(form: FormFields): Record<(typeof PASSWORD_RESET_FIELDS)[number], string> {
  const text = (name: string) => (typeof form.get(name) === 'string' ? String(form.get(name)) : '');
  return { password: text('password'), passwordConfirm: text('passwordConfirm') };
}
