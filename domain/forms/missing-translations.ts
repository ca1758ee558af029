import { z } from '../zod.ts';

/** The back office's list of missing translations: one entry removed (`id`), or all (`intent=clear`). */
export const missingTranslationsSchema = z.object({ intent: z.string().catch(''), id: z.string().catch('') });
