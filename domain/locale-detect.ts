import { DEFAULT_LOCALE, isLocale, type Locale } from './locales.ts';

/** Maps one language tag to a product locale, or null. zh-TW/HK/Hant go to zh-hk; other Chinese to zh-cn. */
export function localeForTag(tag: string): Locale | null {
  const t = tag.trim().toLowerCase();
  if (!t) return null;
  if (isLocale(t)) return t;
  if (t === 'zh-tw' || t === 'zh-mo' || t.startsWith('zh-hant') || t.startsWith('zh-hk') || t.startsWith('zh-tw'))
    return 'zh-hk';
  if (t === 'zh' || t.startsWith('zh-')) return 'zh-cn';
  if (t === 'en' || t.startsWith('en-')) return 'en';
  return null;
}

/** The best product locale for an Accept-Language header, by quality then order. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    const locale = localeForTag(entry.tag);
    if (locale) return locale;
  }
  return null;
}

export function resolveLocale(options: {
  explicit?: unknown;
  cookie?: unknown;
  acceptLanguage?: string | null;
}): Locale {
  if (isLocale(options.explicit)) return options.explicit;
  if (isLocale(options.cookie)) return options.cookie;
  return localeFromAcceptLanguage(options.acceptLanguage) ?? DEFAULT_LOCALE;
}
