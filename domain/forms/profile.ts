import { z } from '../zod.ts';
import { LOCALES } from '../locales.ts';
import { passwordSchema } from '../validation/password.ts';
import { phoneSchema, requiredChoice, requiredText, withRule } from './fields.ts';
import { FORM_MESSAGES, type FormErrors, type FormFields } from './messages.ts';
import { REGISTRATION_MESSAGES } from './registration-fields.ts';

/*
 * The member's own profile (spec section 2, "Profile"): what they may change about themselves,
 * checked in the page and again by the `users` service, and the change of password.
 */

/** The profile form's fields, in the order the page shows them. */
export const PROFILE_FIELDS = [
  'name',
  'firstName',
  'lastName',
  'companyName',
  'phone',
  'companyAddress',
  'locale',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

const optionalLine = (max: number) => z.string().trim().max(max, FORM_MESSAGES.tooBig);

/** A contact number that may be left empty, else one in the format the registration asks for. */
export const optionalPhone = z
  .string()
  .trim()
  .refine((phone) => phone === '' || phoneSchema.safeParse(phone).success, FORM_MESSAGES.phone);

/**
 * The profile: the account's name is required (the header and the mails name the member by it);
 * everything else may be emptied. `locale` is the language of the member's mail.
 */
export const profileSchema = z.object({
  name: requiredText(120),
  firstName: optionalLine(60),
  lastName: optionalLine(60),
  companyName: optionalLine(200),
  phone: optionalPhone,
  companyAddress: optionalLine(500),
  locale: requiredChoice(LOCALES),
});
export type Profile = z.output<typeof profileSchema>;

/** The profile's answers from a form: every field, an empty one as '' (it clears what was there). */
export function profileFromForm(form: FormFields): Record<ProfileField, string> {
  return Object.fromEntries(
    PROFILE_FIELDS.map((name) => [name, typeof form.get(name) === 'string' ? String(form.get(name)) : '']),
  ) as Record<ProfileField, string>;
}

/** A required password: nothing typed reads 'Required', then the password rules. Never trimmed. */
export const requiredPassword = z.string().min(1, FORM_MESSAGES.required).pipe(passwordSchema);

/**
 * A change of password: the current one (the server checks it), the new one by the password rules,
 * typed twice. The common breached passwords are refused by the server, as at registration.
 */
export const passwordChangeSchema = withRule(
  z.object({
    currentPassword: z.string().min(1, FORM_MESSAGES.required).max(200, FORM_MESSAGES.tooBig),
    password: requiredPassword,
    passwordConfirm: z.string().min(1, FORM_MESSAGES.required),
  }),
  (answers): FormErrors =>
    answers.password === answers.passwordConfirm ? {} : { passwordConfirm: REGISTRATION_MESSAGES.passwordMismatch },
);

export const PASSWORD_CHANGE_FIELDS = ['currentPassword', 'password', 'passwordConfirm'] as const;

/** The password form's answers, taken as typed (spaces count). */
export function passwordChangeFromForm(form: FormFields): Record<(typeof PASSWORD_CHANGE_FIELDS)[number], string> {
  return Object.fromEntries(
    PASSWORD_CHANGE_FIELDS.map((name) => [name, typeof form.get(name) === 'string' ? String(form.get(name)) : '']),
  ) as Record<(typeof PASSWORD_CHANGE_FIELDS)[number], string>;
}
