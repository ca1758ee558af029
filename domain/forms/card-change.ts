import { z } from '../zod.ts';

/**
 * Replacing the card on file (the portal's card page): the subscription and the token the
 * provider's card fields answered. The `cardChanges` service checks them and the card itself.
 */
export const cardChangeSchema = z.object({ subscription: z.string(), paymentMethodId: z.string() });
