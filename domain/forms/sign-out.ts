import { z } from '../zod.ts';

/** Signing out: `reason=expired` when the portal's live connection lost the session, not the member. */
export const signOutSchema = z.object({ reason: z.string().catch('') });
