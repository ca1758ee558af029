import { z } from '../zod.ts';

/** Message keys; each exists in every locale under `validation.*`. */
export const PASSWORD_MESSAGES = {
  min: 'validation.passwordMin',
  digit: 'validation.passwordDigit',
  lower: 'validation.passwordLower',
  upper: 'validation.passwordUpper',
} as const;

/** Longer than this, or with a control character (a line break, a tab): 'Invalid password'. */
export const PASSWORD_MAX_LENGTH = 200;
export const PASSWORD_INVALID = 'validation.passwordInvalid';
/**
 * A password found in the list of common breached passwords. Checked by the server only
 * (server/auth/breached-passwords.ts): the list stays out of the pages' scripts.
 */
export const PASSWORD_BREACHED = 'validation.passwordBreached';

/**
 * The spec's password rule: 8+ characters with a digit, a lower-case and an upper-case letter. Long
 * passphrases (spaces and any script included) pass up to 200 characters.
 */
export const passwordSchema = z
  .string()
  .max(PASSWORD_MAX_LENGTH, PASSWORD_INVALID)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, PASSWORD_INVALID)
  .min(8, PASSWORD_MESSAGES.min)
  .regex(/[0-9]/, PASSWORD_MESSAGES.digit)
  .regex(/[a-z]/, PASSWORD_MESSAGES.lower)
  .regex(/[A-Z]/, PASSWORD_MESSAGES.upper);
