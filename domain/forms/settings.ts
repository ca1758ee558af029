import { z } from '../zod.ts';
import type { Region } from '../features';
import { isCurrency } from '../money';

/** The most markets the settings form offers rows for. */
export const REGION_ROWS = 20;

/**
 * The back office's settings form (the features payload): the answers as sent. The features
 * service checks them (`featuresPatchSchema`) and answers its refusal in the page's language.
 */
export const settingsSchema = z.object({
  contactForm: z.boolean().catch(false),
  subscription: z.boolean().catch(false),
  regions: z.array(z.object({ code: z.string(), name: z.string(), region: z.string(), url: z.string() })).catch([]),
  region: z.string().catch(''),
  currencies: z
    .array(z.string())
    .catch([])
    .transform((codes) => codes.filter(isCurrency)),
  currency: z.string().catch(''),
});

/** The markets as the form sends them: one row per index, a row with nothing in it or ticked for removal left out. */
function regionsOf(form: FormData): Region[] {
  const regions: Region[] = [];
  for (let index = 0; index < REGION_ROWS; index += 1) {
    const read = (name: string) => String(form.get(`regions.${index}.${name}`) ?? '').trim();
    const region = { code: read('code'), name: read('name'), region: read('region'), url: read('url') };
    if (form.has(`regions.${index}.remove`) || Object.values(region).every((value) => value === '')) continue;
    regions.push(region);
  }
  return regions;
}

/** The settings form's answers: its switches, its markets' rows, the currencies ticked and the defaults. */
export function settingsFromForm(form: FormData): Record<string, unknown> {
  return {
    contactForm: form.get('contactForm') === 'on',
    subscription: form.get('subscription') === 'on',
    regions: regionsOf(form),
    region: String(form.get('region') ?? ''),
    currencies: form.getAll('currencies').map(String),
    currency: String(form.get('currency') ?? ''),
  };
}
