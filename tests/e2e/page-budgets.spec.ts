import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * Size budgets of the public pages (decision 042), in bytes of the HTML as served. The home page's
 * HTML stays within 60 KB in each language; the loader data a page carries inline (React Router's
 * `streamController.enqueue(...)` scripts) within 15 KB on every public page, so it holds what the
 * page renders and not the language's messages, which travel as files of their own.
 */
const HOME_HTML = 60 * 1024;
const INLINE_DATA = 15 * 1024;
const LANGUAGES = ['en', 'zh-hk', 'zh-cn'] as const;

/** Every public page of a language: the sitemap's (one of each kind of detail page), and the two it leaves out. */
async function publicPages(request: APIRequestContext, lang: string): Promise<string[]> {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  const own = paths.filter((path) => path === `/${lang}` || path.startsWith(`/${lang}/`));
  const kinds = new Set<string>();
  const pages: string[] = [];
  for (const path of own) {
    const [, , section = '', detail] = path.split('/');
    // One plan, one article, one industry: they share their page and differ only in their record.
    const kind = detail && section !== 'campaign' ? section : path;
    if (kinds.has(kind)) continue;
    kinds.add(kind);
    pages.push(path);
  }
  return [...pages, `/${lang}/usecase`, `/${lang}/contactForm`];
}

function inlineData(html: string): number {
  let bytes = 0;
  for (const match of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    if (match[1]!.includes('streamController.enqueue')) bytes += Buffer.byteLength(match[0]);
  }
  return bytes;
}

for (const lang of LANGUAGES) {
  test(`the public pages in ${lang} keep within their size budgets`, async ({ request }) => {
    const pages = await publicPages(request, lang);
    expect(pages.length).toBeGreaterThan(15);
    const sizes: Record<string, { html: number; data: number }> = {};
    for (const path of pages) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      const html = await response.text();
      sizes[path] = { html: Buffer.byteLength(html), data: inlineData(html) };
      // Messages never ride inside the data: it names their files.
      expect(html, path).not.toMatch(/\\"errorPage\\",\{/);
    }
    // One assertion for all, so a failure lists every page's sizes.
    const over = Object.entries(sizes).filter(
      ([path, size]) => size.data > INLINE_DATA || (path === `/${lang}` && size.html > HOME_HTML),
    );
    expect(over, JSON.stringify(sizes, null, 1)).toEqual([]);
    expect(sizes[`/${lang}`]!.html).toBeGreaterThan(10_000);
  });
}
