import type { MetaDescriptor } from 'react-router';
import { LOCALES, type Locale } from '../domain/locales';
import { mergeMessages, translator, type LocaleData } from './i18n/messages';
import { canonicalUrl, type RootData } from './shell';

type Match = { id: string; pathname?: string; loaderData?: unknown } | undefined;

/** The brand's default share image: a PNG (crawlers do not read SVG), 1200 x 630 as Open Graph wants. */
export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630 } as const;

/** Open Graph locales: `language_TERRITORY`, the territory being where each language is read. */
export const OG_LOCALE: Record<Locale, string> = { en: 'en_HK', 'zh-hk': 'zh_HK', 'zh-cn': 'zh_CN' };

export interface PageMetaOptions {
  /** Message keys of the title and the description. */
  title: string;
  description?: string;
  /** Pages staff should not find in search engines pass `index: false`. */
  index?: boolean;
  values?: Record<string, string>;
  /** `article` for blog articles; `website` otherwise. */
  type?: 'website' | 'article';
  /** A share image of the page's own (absolute URL), in place of the brand's. */
  image?: { url: string; alt: string; width?: number; height?: number };
}

/**
 * A page's title and description from its message keys, in its language (`Title | Brand`), with
 * the Open Graph and Twitter card tags that link previews and search engines read.
 */
export function pageMeta(matches: readonly Match[], options: PageMetaOptions): MetaDescriptor[] {
  const shell = matches.find((match) => match?.id === 'routes/locale-layout')?.loaderData as LocaleData | undefined;
  const root = matches.find((match) => match?.id === 'root')?.loaderData as RootData | undefined;
  const brand = root?.site.brandName ?? '';
  const locale = (shell?.locale ?? 'en') as Locale;
  const t = translator(mergeMessages(matches.map((match) => match?.loaderData)), { locale, defaults: { brand } });
  const title = t(options.title, options.values);
  const fullTitle = title.includes(brand) ? title : `${title} | ${brand}`;
  const description = options.description ? t(options.description, options.values) : undefined;
  const tags: MetaDescriptor[] = [{ title: fullTitle }];
  if (description) tags.push({ name: 'description', content: description });
  if (options.index === false) tags.push({ name: 'robots', content: 'noindex' });
  if (!root) return tags;

  const pathname = matches.at(-1)?.pathname ?? `/${locale}`;
  const image = options.image ?? {
    url: `${root.origin}${OG_IMAGE.path}`,
    alt: brand,
    width: OG_IMAGE.width,
    height: OG_IMAGE.height,
  };
  tags.push(
    { property: 'og:site_name', content: brand },
    { property: 'og:title', content: fullTitle },
    ...(description ? [{ property: 'og:description', content: description }] : []),
    { property: 'og:type', content: options.type ?? 'website' },
    { property: 'og:url', content: canonicalUrl(root.origin, pathname) },
    { property: 'og:locale', content: OG_LOCALE[locale] },
    ...LOCALES.filter((other) => other !== locale).map((other) => ({
      property: 'og:locale:alternate',
      content: OG_LOCALE[other],
    })),
    { property: 'og:image', content: image.url },
    ...(image.width && image.height
      ? [
          { property: 'og:image:width', content: String(image.width) },
          { property: 'og:image:height', content: String(image.height) },
        ]
      : []),
    { property: 'og:image:alt', content: image.alt },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: fullTitle },
    ...(description ? [{ name: 'twitter:description', content: description }] : []),
    { name: 'twitter:image', content: image.url },
    { name: 'twitter:image:alt', content: image.alt },
  );
  return tags;
}
