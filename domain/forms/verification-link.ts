import { z } from '../zod.ts';

/** The mailed verification link's token, as its page's form sends it on; the service checks it. */
export const verificationLinkSchema = z.object({ token: z.string().catch('') });
