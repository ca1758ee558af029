import { z } from '../zod.ts';

/**
 * Signing in with a password (the login page, and the purchase flow's account step): the address
 * and the password as typed. Their rules are the sign-in's own (server/auth/strategies.ts), which
 * answers an unknown account and a wrong password alike; `from` is where the member goes next.
 */
export const signInSchema = z.object({
  email: z.string().catch(''),
  password: z.string().catch(''),
  from: z.string().catch(''),
});
export type SignInAnswers = z.output<typeof signInSchema>;
