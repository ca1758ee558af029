import { HTML_LANG, LOCALES } from '../../domain/locales';

/** A page of the site, in every language: its path after the language prefix. */
export interface SitemapPage {
  path: string;
  /** When its content last changed (ISO 8601), when known. */
  lastmod?: string;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

/**
 * A sitemap with one `<url>` per page and language, each naming its translations and the
 * language-detecting path (x-default), as the pages' own `<link rel="alternate">` do.
 */
export function sitemapXml(origin: string, pages: readonly SitemapPage[]): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const page of pages) {
    const alternates = [
      ...LOCALES.map(
        (locale) =>
          `    <xhtml:link rel="alternate" hreflang="${HTML_LANG[locale]}" href="${escapeXml(`${origin}/${locale}${page.path}`)}"/>`,
      ),
      `    <xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(`${origin}${page.path || '/'}`)}"/>`,
    ];
    for (const locale of LOCALES) {
      lines.push('  <url>', `    <loc>${escapeXml(`${origin}/${locale}${page.path}`)}</loc>`);
      if (page.lastmod) lines.push(`    <lastmod>${escapeXml(page.lastmod)}</lastmod>`);
      lines.push(...alternates, '  </url>');
    }
  }
  lines.push('</urlset>', '');
  return lines.join('\n');
}

/** A date as sitemaps want it, or undefined when it is missing or not a date. */
export function lastmodOf(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && !(value instanceof Date)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
