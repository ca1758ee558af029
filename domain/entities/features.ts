import { z } from '../zod.ts';
import { DEFAULT_MARKET, type FeaturesPayload } from '../features.ts';
import { CURRENCY_CODES, type CurrencyCode } from '../money.ts';

const currencySchema = z.enum(CURRENCY_CODES as [CurrencyCode, ...CurrencyCode[]]);

export const regionSchema = z
  .object({
    code: z.string().regex(/^[a-z]{2,8}$/),
    name: z.string().trim().min(1).max(100),
    region: z.string().regex(/^[a-z]{2,8}$/),
    url: z.string().trim().max(500),
  })
  .strict();

/** A change to the site's feature flags and markets (staff only). */
export const featuresPatchSchema = z
  .object({
    contactForm: z.boolean(),
    subscription: z.boolean(),
    regions: z.array(regionSchema).min(1).max(20),
    region: z.string().regex(/^[a-z]{2,8}$/),
    currencies: z.array(currencySchema).min(1).max(10),
    currency: currencySchema,
  })
  .partial()
  .strict();

/** The stored features must stay coherent: the region and currency are among those offered. */
export function featuresProblems(features: FeaturesPayload): Record<string, string> {
  const problems: Record<string, string> = {};
  if (features.regions && features.region && !features.regions.some((region) => region.code === features.region)) {
    problems.region = 'validation.invalid';
  }
  if (features.currencies && features.currency && !features.currencies.includes(features.currency)) {
    problems.currency = 'validation.invalid';
  }
  return problems;
}

export const DEFAULT_FEATURES: FeaturesPayload = { ...DEFAULT_MARKET };
