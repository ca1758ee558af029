import { type FormFields, textOf } from './messages.ts';

/*
 * The registration form's fields and how its answers are read, without the schema (see
 * enquiry-fields.ts): the page ships these and loads the schema when the form is used.
 */

/** The fields in the order the form shows them (and the schema declares them). */
export const REGISTRATION_FIELDS = [
  'email',
  'name',
  'companyName',
  'companyAddress',
  'phone',
  'phoneConfirm',
  'password',
  'passwordConfirm',
  'locale',
] as const;
export type RegistrationField = (typeof REGISTRATION_FIELDS)[number];

/** Message keys of the registration form (spec section 5); each exists in every locale. */
export const REGISTRATION_MESSAGES = {
  /** 'Please fill in the blanks.': above the form when an answer is missing. */
  incomplete: 'registration.incomplete',
  /** 'Account already exist': the email has an account (any letter case); a 409 from the server. */
  accountExists: 'registration.accountExists',
  /** The two passwords differ (at `passwordConfirm`). */
  passwordMismatch: 'validation.passwordMismatch',
  /** The two contact numbers differ (at `phoneConfirm`). */
  phoneMismatch: 'validation.phoneMismatch',
} as const;

/**
 * The registration form's answers from a browser form or a POST body. Passwords are taken as typed
 * (spaces count); an empty one is left out, so it reads 'Required'.
 */
export function registrationFromForm(form: FormFields): Record<string, string | undefined> {
  const answers: Record<string, string | undefined> = {};
  for (const name of REGISTRATION_FIELDS) {
    if (name === 'password' || name === 'passwordConfirm') {
      const value = form.get(name);
      answers[name] = typeof value === 'string' && value !== '' ? value : undefined;
    } else {
      answers[name] = textOf(form, name);
    }
  }
  return answers;
}
