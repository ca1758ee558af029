import { useRouteLoaderData } from 'react-router';
import { DEFAULT_MARKET, type MarketState } from '../domain/features';
import { LOCALES, type Locale } from '../domain/locales';
import type { Role } from '../domain/entities/types';
import type { SiteSettings } from '../domain/site';
import type { LocaleData } from './i18n/messages';

/** A message for the global snackbars, carried across a redirect (its text is a message key). */
export interface Flash {
  type: 'success' | 'error';
  key: string;
}

/** What every page of a language knows: who is signed in, the site's features, a pending flash. */
export interface ShellData extends LocaleData {
  /** `picture`: the address of the user's picture, or null while they have none. */
  user: { name: string; email: string; role: Role; picture: string | null } | null;
  market: MarketState;
  flash: Flash | null;
}

export function useShell(): ShellData {
  const data = useRouteLoaderData('routes/locale-layout') as ShellData | undefined;
  return data ?? { locale: 'en', messages: {}, user: null, market: DEFAULT_MARKET, flash: null };
}

export interface RootData {
  site: SiteSettings;
  /** The site's origin for canonical and alternate links. */
  origin: string;
}

const FALLBACK_SITE: SiteSettings = {
  brandName: 'Tillpoint',
  brandSlug: 'tillpoint',
  gtmId: undefined,
  chatUrl: '',
  supportEmail: '',
  supportPhone: '',
  publicUrl: undefined,
};

export function useSite(): RootData {
  const data = useRouteLoaderData('root') as RootData | undefined;
  return data ?? { site: FALLBACK_SITE, origin: '' };
}

/** A path of the site without its language prefix (`/zh-hk/pricing` → `/pricing`, `/en` → ``). */
export function unprefixed(pathname: string): string {
  const [, first = '', ...rest] = pathname.split('/');
  if (!(LOCALES as readonly string[]).includes(first)) return pathname === '/' ? '' : pathname;
  return rest.length ? `/${rest.join('/')}` : '';
}

/**
 * A page's canonical URL: its language and path on the site's origin, without a trailing slash
 * (`/en/` and `/en` are one page).
 */
export function canonicalUrl(origin: string, pathname: string): string {
  const [, lang = ''] = pathname.split('/');
  return `${origin}/${lang}${unprefixed(pathname).replace(/\/+$/, '')}`;
}

/** The same page in another language. */
export function inLocale(pathname: string, locale: Locale): string {
  return `/${locale}${unprefixed(pathname)}`;
}

/** The language cookie (spec: `i18n_redirected`, 365 days). */
export const LOCALE_COOKIE = 'i18n_redirected';
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export function rememberLocale(locale: Locale): void {
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE}; SameSite=Lax`;
}

/** The main links of the marketing site, in header, drawer and footer. */
export function siteLinks(locale: Locale, brandSlug: string) {
  const base = `/${locale}`;
  return {
    home: base,
    restaurant: `${base}/${brandSlug}Restaurant`,
    store: `${base}/${brandSlug}Store`,
    payments: `${base}/${brandSlug}Pay`,
    features: `${base}/advancedFeature`,
    useCases: `${base}/usecase`,
    featureList: `${base}/feature_list`,
    results: `${base}/graph`,
    pricing: `${base}/pricing`,
    blog: `${base}/blogs`,
    enquiry: `${base}/enquiryForm`,
    terms: `${base}/terms`,
    developers: `${base}/developers/api`,
    login: `${base}/login`,
    portal: `${base}/portal`,
    subscription: `${base}/subscription`,
  };
}

/** A plan template's own page (`/{locale}/plan/{id}`). */
export function planPath(locale: Locale, id: string): string {
  return `/${locale}/plan/${encodeURIComponent(id)}`;
}
