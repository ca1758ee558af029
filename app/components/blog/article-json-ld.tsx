import { HTML_LANG, type Locale } from '../../../domain/locales';
import { useNonce } from '../../nonce';

export interface ArticleJsonLdInput {
  url: string;
  headline: string;
  description: string;
  image: string | null;
  /** Absent for an article published without a date. */
  datePublished?: string;
  dateModified?: string;
  author: string | null;
  publisher: { name: string; logo: string };
  locale: Locale;
  breadcrumb: { name: string; url: string }[];
}

/**
 * JSON for a `<script>` element: `<` (and `>`, `&`, line separators) escaped so no text in an
 * article can close the script or open a comment.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function articleStructuredData(input: ArticleJsonLdInput): Record<string, unknown>[] {
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: input.headline,
      description: input.description,
      ...(input.image ? { image: [input.image] } : {}),
      datePublished: input.datePublished,
      ...(input.dateModified ? { dateModified: input.dateModified } : {}),
      inLanguage: HTML_LANG[input.locale],
      mainEntityOfPage: input.url,
      ...(input.author ? { author: { '@type': 'Person', name: input.author } } : {}),
      publisher: {
        '@type': 'Organization',
        name: input.publisher.name,
        logo: { '@type': 'ImageObject', url: input.publisher.logo },
      },
    },
    {
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: input.breadcrumb.map((crumb, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        name: crumb.name,
        item: crumb.url,
      })),
    },
  ];
}

/** Structured data for search engines: the article and its breadcrumb trail. */
export function ArticleJsonLd(input: ArticleJsonLdInput) {
  const nonce = useNonce();
  return (
    <>
      {articleStructuredData(input).map((item) => (
        <script
          key={String(item['@type'])}
          type="application/ld+json"
          nonce={nonce}
          // The browser hides a nonce after parsing; the client renders an empty one.
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: scriptJson(item) }}
        />
      ))}
    </>
  );
}
