import { CURRENCIES, type Money } from './money.ts';
import { HTML_LANG, type Locale } from './locales.ts';

const INTL_LOCALE: Record<Locale, string> = { en: 'en-HK', 'zh-hk': 'zh-HK', 'zh-cn': 'zh-CN' };

/** Building an Intl formatter costs far more than using one: each is built once per locale and options. */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cachedFormat<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, build: () => T): T {
  let format = formatters.get(key) as T | undefined;
  if (!format) {
    format = build();
    formatters.set(key, format);
  }
  return format;
}

function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return cachedFormat(`n|${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cachedFormat(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

/** Formats integer minor units with the currency's own symbol (HK$, S$, RM, ...). */
export function formatMoney(money: Money, locale: Locale): string {
  const currency = CURRENCIES[money.currency];
  const value = money.amount / 100;
  const number = numberFormat(INTL_LOCALE[locale], {
    minimumFractionDigits: Number.isInteger(value) ? 0 : currency.decimals,
    maximumFractionDigits: currency.decimals,
  }).format(value);
  return `${currency.symbol}${number}`;
}

/** Dates show in Hong Kong time (UTC+8) unless a caller gives the user's own zone (spec section 5). */
export const DEFAULT_TIME_ZONE = 'Asia/Hong_Kong';

/** A long date for reading: `22 November 2026`, `2026年11月22日`. */
export function formatDate(date: Date | string | number, locale: Locale, timeZone = DEFAULT_TIME_ZONE): string {
  return dateFormat(INTL_LOCALE[locale], { year: 'numeric', month: 'long', day: 'numeric', timeZone }).format(new Date(date));
}

/** The spec's short form, YYYY-MM-DD, in the same time zone. */
export function formatIsoDate(date: Date | string | number, timeZone = DEFAULT_TIME_ZONE): string {
  // en-CA writes dates as YYYY-MM-DD.
  return dateFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(new Date(date));
}

/** A count with the locale's grouping: 1,100. */
export function formatNumber(value: number, locale: Locale): string {
  return numberFormat(INTL_LOCALE[locale]).format(value);
}

export { HTML_LANG };
