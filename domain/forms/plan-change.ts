import { z } from '../zod.ts';

/**
 * A change to a member's plan (the portal's plan page): stop it at the end of its term, keep it,
 * remove an add-on (`module`), or end it now for the fee the member was shown (`expectedFee`,
 * as typed: a different fee today is refused). The services check the rest (decisions 031, 044).
 */
export const planChangeSchema = z.object({
  intent: z.enum(['cancel', 'resume', 'removeAddOn', 'terminate']),
  subscription: z.string(),
  module: z.string().catch(''),
  expectedFee: z.string().catch(''),
});
