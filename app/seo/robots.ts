import { LOCALES } from '../../domain/locales';
import { ROBOTS_DISALLOWED_SECTIONS } from '../../domain/public-pages';

/** robots.txt: the public site open, the API and each language's member and sign-in pages closed. */
export function robotsTxt(origin: string): string {
  const disallowed = [
    '/api/',
    ...LOCALES.flatMap((locale) => ROBOTS_DISALLOWED_SECTIONS.map((section) => `/${locale}/${section}`)),
  ];
  return [
    'User-agent: *',
    'Allow: /',
    ...disallowed.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
