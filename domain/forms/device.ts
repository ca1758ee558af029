import { z } from '../zod.ts';

/**
 * The portal's device forms (an app's page): register a device (`name`), rename one (`device`,
 * `name`), remove one. Read as sent; the `devices` service checks the name by its definition.
 */
export const deviceFormSchema = z.object({
  intent: z.enum(['register', 'rename', 'remove']).optional().catch(undefined),
  name: z.string().catch(''),
  device: z.string().catch(''),
});
