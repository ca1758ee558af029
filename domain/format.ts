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

/**
 * Digits grouped by thousands: `1,234,567`. The three languages write numbers alike (Western digits,
 * a comma between thousands, a point before the fraction), so money and whole counts are written
 * here, not by Intl: a page's first Intl formatter loads the browser's locale data, 20-60 ms on the
 * main thread while a page hydrates (decision 012). `format.test.ts` holds both to Intl's output.
 */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * Formats minor units (hundredths) with the currency's own symbol (HK$, S$, RM, ...): whole amounts
 * without a fraction, others with the currency's decimals, rounded half away from zero.
 */
export function formatMoney(money: Money, _locale: Locale): string {
  const currency = CURRENCIES[money.currency];
  const hundredths = Math.abs(money.amount);
  const unit = 10 ** currency.decimals;
  const rounded = Math.round(hundredths / (100 / unit));
  const whole = groupThousands(String(Math.floor(rounded / unit)));
  const fraction =
    hundredths % 100 === 0 || currency.decimals === 0
      ? ''
      : `.${String(rounded % unit).padStart(currency.decimals, '0')}`;
  const sign = money.amount < 0 && rounded > 0 ? '-' : '';
  return `${currency.symbol}${sign}${whole}${fraction}`;
}

/** Dates show in Hong Kong time (UTC+8) unless a caller gives the user's own zone (spec section 5). */
export const DEFAULT_TIME_ZONE = 'Asia/Hong_Kong';

/** A long date for reading: `22 November 2026`, `2026年11月22日`. */
export function formatDate(date: Date | string | number, locale: Locale, timeZone = DEFAULT_TIME_ZONE): string {
  return dateFormat(INTL_LOCALE[locale], { year: 'numeric', month: 'long', day: 'numeric', timeZone }).format(
    new Date(date),
  );
}

/** A long date with its time for reading: `5 December 2026, 10:00 am`, in the zone given (Hong Kong by default). */
export function formatDateTime(date: Date | string | number, locale: Locale, timeZone = DEFAULT_TIME_ZONE): string {
  return dateFormat(INTL_LOCALE[locale], {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(new Date(date));
}

/**
 * A Hong Kong calendar day (YYYY-MM-DD, as billing keeps them) written out in the reader's
 * language: noon in Hong Kong falls on that day in the default zone (the portal's `dayText`).
 */
export function formatDay(day: string, locale: Locale): string {
  return formatDate(`${day}T12:00:00+08:00`, locale);
}

/**
 * The spec's short form, YYYY-MM-DD, in the same time zone. Put together from the formatter's
 * parts, whatever order an engine's locale data writes them in: WebKit wrote `en-CA` days as
 * `11/29/2026` once a page had shown a `datetime-local` input, and a table drawn so no longer
 * matched the server's.
 */
export function formatIsoDate(date: Date | string | number, timeZone = DEFAULT_TIME_ZONE): string {
  // Put together from the day's parts: a locale's own short form is not the same in every engine
  // (en-CA's is 2026-11-29 in Node and Chromium, 11/29/2026 in WebKitGTK), and a page whose text
  // differs between the server and the browser fails to hydrate.
  const parts = dateFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).formatToParts(
    new Date(date),
  );
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/** A moment as Hong Kong's clock shows it, as a `datetime-local` input writes it: `2026-11-29T09:30`. */
export function formatIsoDateTime(date: Date | string | number, timeZone = DEFAULT_TIME_ZONE): string {
  const parts = Object.fromEntries(
    dateFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
    })
      .formatToParts(new Date(date))
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** A count with the locale's grouping: 1,100. */
export function formatNumber(value: number, locale: Locale): string {
  if (Number.isSafeInteger(value)) return `${value < 0 ? '-' : ''}${groupThousands(String(Math.abs(value)))}`;
  return numberFormat(INTL_LOCALE[locale]).format(value);
}

export { HTML_LANG };

/** Text at most `max` characters long (whole characters, not UTF-16 units), an ellipsis marking a cut. */
export function clipText(text: string, max: number): string {
  const chars = [...text.trim()];
  return chars.length <= max
    ? chars.join('')
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}
