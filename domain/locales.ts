/** The product's languages. English is the default and the fallback. */
export const LOCALES = ['en', 'zh-hk', 'zh-cn'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Text stored once per language; travels as an object keyed by locale. */
export type I18nText = { en: string } & Partial<Record<Exclude<Locale, 'en'>, string>>;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** A route's `lang` parameter as a language (English for anything else). */
export function localeOf(value: unknown): Locale {
  return isLocale(value) ? value : 'en';
}

/** The text in one language, falling back to English where it is missing. */
export function localized(text: I18nText | null | undefined, locale: Locale): string {
  if (!text) return '';
  return text[locale] || text.en;
}

function isI18nText(value: object): value is Record<string, unknown> {
  const keys = Object.keys(value);
  return (
    keys.length > 0 &&
    'en' in value &&
    keys.every((key) => isLocale(key) && typeof (value as Record<string, unknown>)[key] === 'string')
  );
}

/**
 * Data for a page in one language: every translatable text (`{ en, zh-hk, zh-cn }`) keeps only
 * that language, already fallen back to English, so a page does not carry the other two to the
 * browser. `localized` reads the result as before. Dates and other class instances are kept.
 */
export function forLocale<T>(value: T, locale: Locale): T {
  if (Array.isArray(value)) return value.map((item: unknown) => forLocale(item, locale)) as T;
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  if (isI18nText(value)) return { [locale]: localized(value as unknown as I18nText, locale) } as T;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, forLocale(item, locale)])) as T;
}

/** Language tags for `<html lang>` and `hreflang` (BCP 47): English is Hong Kong English (`en-HK`), as the spec names it. */
export const HTML_LANG: Record<Locale, string> = { en: 'en-HK', 'zh-hk': 'zh-Hant-HK', 'zh-cn': 'zh-Hans-CN' };

/** The codes some back-end services use for each language (spec section 9). */
export const SERVICE_LOCALE: Record<Locale, 'en' | 'cht' | 'chs'> = { en: 'en', 'zh-hk': 'cht', 'zh-cn': 'chs' };
