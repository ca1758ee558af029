import { parse as parseCookie } from 'cookie';
import { resolveLocale } from '../domain/locale-detect.ts';
import type { Locale } from '../domain/locales.ts';
import { formatMessage } from '../domain/message-format.ts';
import en from '../locales/en.json' with { type: 'json' };
import zhCn from '../locales/zh-cn.json' with { type: 'json' };
import zhHk from '../locales/zh-hk.json' with { type: 'json' };

type Messages = Record<string, unknown>;
const catalogues: Record<Locale, Messages> = { en, 'zh-hk': zhHk, 'zh-cn': zhCn };

function lookup(messages: Messages, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Messages)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * Translates a message key for the server's own replies; English is the fallback. Placeholders and
 * plurals are filled from `values` when given (domain/message-format.ts; others stay as they are).
 */
export function translate(locale: Locale, key: string, values?: Record<string, unknown>): string {
  const own = lookup(catalogues[locale], key);
  const text = own ?? lookup(catalogues.en, key) ?? key;
  return formatMessage(text, values, own === undefined ? 'en' : locale);
}

export function isMessageKey(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z]+\.[A-Za-z.]+$/.test(value) && lookup(catalogues.en, value) !== undefined;
}

/** The caller's language: an `x-locale` header, then the language cookie, then Accept-Language. */
export function localeFromHeaders(headers: Record<string, unknown> | undefined): Locale {
  const h = headers ?? {};
  const cookie = typeof h.cookie === 'string' ? parseCookie(h.cookie).i18n_redirected : undefined;
  const accept = typeof h['accept-language'] === 'string' ? h['accept-language'] : null;
  return resolveLocale({ explicit: h['x-locale'], cookie, acceptLanguage: accept });
}
