import { type CurrencyCode, isCurrency } from './money.ts';

/** A market the product sells in; locale options derive from these. */
export interface Region {
  code: string;
  name: string;
  region: string;
  url: string;
}

/** What the `features` service answers: feature flags and the market state of the site. */
export interface FeaturesPayload {
  contactForm: boolean;
  subscription: boolean;
  regions?: Region[];
  region?: string;
  currencies?: CurrencyCode[];
  currency?: CurrencyCode;
}

export interface MarketState {
  contactForm: boolean;
  subscription: boolean;
  regions: Region[];
  region: string;
  currencies: CurrencyCode[];
  currency: CurrencyCode;
}

export const DEFAULT_REGIONS: Region[] = [
  { code: 'hk', name: 'Hong Kong', region: 'hk', url: '/' },
  { code: 'sg', name: 'Singapore', region: 'sg', url: '/' },
];

/** Spec defaults: region hk, currency HKD, currencies SGD and HKD. */
export const DEFAULT_MARKET: MarketState = {
  contactForm: true,
  subscription: true,
  regions: DEFAULT_REGIONS,
  region: 'hk',
  currencies: ['SGD', 'HKD'],
  currency: 'HKD',
};

/**
 * Applies a features payload to the current state. Flags always follow the payload; region and
 * currency values change only when present and non-empty (spec section 4).
 */
export function applyFeatures(state: MarketState, payload: Partial<FeaturesPayload> | null | undefined): MarketState {
  if (!payload) return state;
  const next: MarketState = { ...state };
  if (typeof payload.contactForm === 'boolean') next.contactForm = payload.contactForm;
  if (typeof payload.subscription === 'boolean') next.subscription = payload.subscription;
  if (Array.isArray(payload.regions) && payload.regions.length > 0) next.regions = payload.regions;
  if (typeof payload.region === 'string' && payload.region) next.region = payload.region;
  if (Array.isArray(payload.currencies)) {
    const valid = payload.currencies.filter(isCurrency);
    if (valid.length > 0) next.currencies = valid;
  }
  if (isCurrency(payload.currency)) next.currency = payload.currency;
  return next;
}
