import { z } from '../zod.ts';

/**
 * The microsites' currency selector: the currency chosen (one the site offers, checked against the
 * site's market by the page) and the page to go back to.
 */
export const currencyChoiceSchema = z.object({ currency: z.string().catch(''), redirectTo: z.string().catch('') });
