import en from '../../locales/en.json';
import zhCn from '../../locales/zh-cn.json';
import zhHk from '../../locales/zh-hk.json';
import { isLocale, LOCALES, type Locale } from '../../domain/locales';
import type { Messages } from './messages';

const catalogues: Record<Locale, Messages> = { en, 'zh-hk': zhHk, 'zh-cn': zhCn };

/** English underneath a language: what the language lacks shows in English, and is listed. */
function withFallback(base: Messages, own: Messages, prefix: string, fallbacks: string[]): Messages {
  const merged: Messages = {};
  for (const [key, value] of Object.entries(base)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const mine = own[key];
    if (typeof value === 'string') {
      if (typeof mine === 'string' && mine.trim()) merged[key] = mine;
      else {
        merged[key] = value;
        fallbacks.push(path);
      }
    } else {
      merged[key] = withFallback(value, typeof mine === 'object' ? mine : {}, path, fallbacks);
    }
  }
  return merged;
}

const prepared = Object.fromEntries(
  LOCALES.map((locale) => {
    const fallbacks: string[] = [];
    const messages = locale === 'en' ? catalogues.en : withFallback(catalogues.en, catalogues[locale], '', fallbacks);
    return [locale, { messages, fallbacks }];
  }),
) as Record<Locale, { messages: Messages; fallbacks: string[] }>;

/**
 * Only the page's own language is sent to the browser, with English where it has a gap, and
 * only the groups asked for: the shell's, then each page's own (`messageGroups`).
 */
export function messagesFor(locale: Locale, groups: readonly string[]): Messages {
  const all = prepared[locale].messages;
  return Object.fromEntries(groups.filter((group) => group in all).map((group) => [group, all[group]!]));
}

/** A page's own message groups, for its loader's answer. */
export function pageMessages(lang: string | undefined, groups: readonly string[]): Messages {
  return messagesFor(isLocale(lang) ? lang : 'en', groups);
}

/** The keys a language takes from English. */
export function fallbacksOf(locale: Locale): string[] {
  return prepared[locale].fallbacks;
}
