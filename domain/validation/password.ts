import { z } from 'zod';

/** Message keys; each exists in every locale under `validation.*`. */
export const PASSWORD_MESSAGES = {
  min: 'validation.passwordMin',
  digit: 'validation.passwordDigit',
  lower: 'validation.passwordLower',
  upper: 'validation.passwordUpper',
} as const;

/** The spec's password rule: 8+ characters with a digit, a lower-case and an upper-case letter. */
export const passwordSchema = z
  .string()
  .max(200)
  .min(8, PASSWORD_MESSAGES.min)
  .regex(/[0-9]/, PASSWORD_MESSAGES.digit)
  .regex(/[a-z]/, PASSWORD_MESSAGES.lower)
  .regex(/[A-Z]/, PASSWORD_MESSAGES.upper);
