import { z } from '../zod.ts';
import { LOCALES } from '../locales.ts';
import { passwordSchema } from '../validation/password.ts';
import { emailSchema, phoneSchema, requiredChoice, requiredText, withRule } from './fields.ts';
import { FORM_MESSAGES, type FormErrors } from './messages.ts';
import { REGISTRATION_MESSAGES } from './registration-fields.ts';

export * from './registration-fields.ts';

/** A contact number's digits (and its leading +): how two spellings of one number compare. */
const phoneDigits = (phone: string) => phone.replace(/[\s-]/g, '');

/** A required password: nothing typed reads 'Required', then the password rules. Never trimmed. */
const requiredPassword = z.string().min(1, FORM_MESSAGES.required).pipe(passwordSchema);

/**
 * The registration form (spec sections 4 and 5), checked in the browser and again by the
 * `registrations` service. One more rule runs on the server only: a common breached password is
 * refused (`validation.passwordBreached`, server/auth/breached-passwords.ts), so the list of them
 * never ships in a page.
 */
export const registrationSchema = withRule(
  z.object({
    email: emailSchema,
    /** The account's name. */
    name: requiredText(120),
    companyName: requiredText(200),
    companyAddress: requiredText(500),
    phone: phoneSchema,
    phoneConfirm: z.string().trim().min(1, FORM_MESSAGES.required),
    password: requiredPassword,
    passwordConfirm: z.string().min(1, FORM_MESSAGES.required),
    /** The language the account's mail is written in: the page's own. */
    locale: requiredChoice(LOCALES),
  }),
  (answers): FormErrors => {
    const errors: FormErrors = {};
    if (phoneDigits(answers.phone) !== phoneDigits(answers.phoneConfirm))
      errors.phoneConfirm = REGISTRATION_MESSAGES.phoneMismatch;
    if (answers.password !== answers.passwordConfirm) errors.passwordConfirm = REGISTRATION_MESSAGES.passwordMismatch;
    return errors;
  },
);

export type RegistrationInput = z.input<typeof registrationSchema>;
export type Registration = z.output<typeof registrationSchema>;
