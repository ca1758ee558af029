import { describe, expect, it } from 'vitest';
import { robotsTxt } from './robots';
import { lastmodOf, sitemapXml } from './sitemap';

describe('sitemapXml', () => {
  const xml = sitemapXml('https://tillpoint.example', [
    { path: '' },
    { path: '/usecase/restaurant', lastmod: '2026-11-01T00:00:00.000Z' },
  ]);

  it('lists each page once per language, with every translation and x-default', () => {
    expect(xml.match(/<url>/g)).toHaveLength(6);
    for (const lang of ['en', 'zh-hk', 'zh-cn'])
      expect(xml).toContain(`<loc>https://tillpoint.example/${lang}/usecase/restaurant</loc>`);
    expect(xml).toContain('<loc>https://tillpoint.example/en</loc>');
    expect(xml).toContain(
      '<xhtml:link rel="alternate" hreflang="zh-Hant-HK" href="https://tillpoint.example/zh-hk/usecase/restaurant"/>',
    );
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="zh-Hans-CN" href="https://tillpoint.example/zh-cn"/>');
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="x-default" href="https://tillpoint.example/"/>');
    expect(xml).toContain(
      '<xhtml:link rel="alternate" hreflang="x-default" href="https://tillpoint.example/usecase/restaurant"/>',
    );
    expect(xml.match(/<lastmod>2026-11-01T00:00:00.000Z<\/lastmod>/g)).toHaveLength(3);
  });

  it('escapes what XML reserves', () => {
    expect(sitemapXml('https://x.example', [{ path: '/blogs/a&b' }])).toContain(
      '<loc>https://x.example/en/blogs/a&amp;b</loc>',
    );
  });
});

describe('lastmodOf', () => {
  it('accepts dates and date strings, and nothing else', () => {
    expect(lastmodOf('2026-11-01T08:00:00+08:00')).toBe('2026-11-01T00:00:00.000Z');
    expect(lastmodOf(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(lastmodOf('not a date')).toBeUndefined();
    expect(lastmodOf(null)).toBeUndefined();
  });
});

describe('robotsTxt', () => {
  it('opens the site, closes the API and each language’s member and sign-in pages, and names the sitemap', () => {
    const text = robotsTxt('https://tillpoint.example');
    expect(text).toMatch(/^User-agent: \*\nAllow: \/\n/);
    expect(text).toContain('Disallow: /api/\n');
    for (const lang of ['en', 'zh-hk', 'zh-cn']) {
      for (const section of ['portal', 'admin', 'login', 'logout', 'forgot-password', 'reset-password'])
        expect(text).toContain(`Disallow: /${lang}/${section}\n`);
    }
    expect(text).toContain('Sitemap: https://tillpoint.example/sitemap.xml\n');
  });
});
