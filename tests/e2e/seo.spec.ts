import { expect, test } from './fixtures.ts';

const LANGS = [
  { lang: 'en', ogLocale: 'en_HK', alternates: ['zh_HK', 'zh_CN'] },
  { lang: 'zh-hk', ogLocale: 'zh_HK', alternates: ['en_HK', 'zh_CN'] },
  { lang: 'zh-cn', ogLocale: 'zh_CN', alternates: ['en_HK', 'zh_HK'] },
] as const;

test('sitemap.xml lists every public page in every language, with translations and use cases', async ({
  request,
  baseURL,
}) => {
  const response = await request.get('/sitemap.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/xml/);
  const xml = await response.text();
  expect(xml).toMatch(
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9" xmlns:xhtml="http:\/\/www.w3.org\/1999\/xhtml">/,
  );
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
  for (const path of [
    '',
    '/tillpointRestaurant',
    '/tillpointStore',
    '/tillpointPay',
    '/pricing',
    '/blogs',
    '/terms',
    '/usecase/restaurant',
    '/usecase/retail',
    '/campaign/sg23',
  ]) {
    for (const { lang } of LANGS) expect(locs, `${lang}${path}`).toContain(`${baseURL}/${lang}${path}`);
  }
  // No page of an account or a purchase.
  expect(locs.filter((loc) => /\/(portal|login|logout|subscription)/.test(loc ?? ''))).toEqual([]);
  const restaurant =
    xml.split('<url>').find((entry) => entry.includes(`<loc>${baseURL}/zh-hk/usecase/restaurant</loc>`)) ?? '';
  expect(restaurant).toMatch(/<lastmod>\d{4}-\d\d-\d\dT[\d:.]+Z<\/lastmod>/);
  expect(restaurant).toContain(
    `<xhtml:link rel="alternate" hreflang="en-HK" href="${baseURL}/en/usecase/restaurant"/>`,
  );
  expect(restaurant).toContain(
    `<xhtml:link rel="alternate" hreflang="zh-Hans-CN" href="${baseURL}/zh-cn/usecase/restaurant"/>`,
  );
  expect(restaurant).toContain(
    `<xhtml:link rel="alternate" hreflang="x-default" href="${baseURL}/usecase/restaurant"/>`,
  );
});

test('robots.txt opens the site, closes the API and each language’s member pages, and names the sitemap', async ({
  request,
  baseURL,
}) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/plain/);
  const text = await response.text();
  expect(text).toContain('User-agent: *\nAllow: /\nDisallow: /api/\n');
  for (const { lang } of LANGS) {
    for (const section of ['portal', 'admin', 'login', 'logout'])
      expect(text).toContain(`Disallow: /${lang}/${section}\n`);
  }
  expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

for (const { lang, ogLocale, alternates } of LANGS) {
  test(`the home page in ${lang} carries Open Graph and Twitter card tags, and the organization`, async ({
    page,
    request,
    baseURL,
  }) => {
    await page.goto(`/${lang}`);
    const head = page.locator('head');
    const meta = (attribute: 'property' | 'name', key: string) => head.locator(`meta[${attribute}="${key}"]`);
    const title = await page.title();
    await expect(meta('property', 'og:title')).toHaveAttribute('content', title);
    await expect(meta('name', 'twitter:title')).toHaveAttribute('content', title);
    const description = await meta('name', 'description').getAttribute('content');
    expect(description).toBeTruthy();
    await expect(meta('property', 'og:description')).toHaveAttribute('content', description ?? '');
    await expect(meta('property', 'og:type')).toHaveAttribute('content', 'website');
    await expect(meta('property', 'og:url')).toHaveAttribute('content', `${baseURL}/${lang}`);
    await expect(head.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/${lang}`);
    await expect(meta('property', 'og:locale')).toHaveAttribute('content', ogLocale);
    expect(
      await meta('property', 'og:locale:alternate').evaluateAll((tags) =>
        tags.map((tag) => tag.getAttribute('content')),
      ),
    ).toEqual(alternates);
    await expect(meta('name', 'twitter:card')).toHaveAttribute('content', 'summary_large_image');

    const image = await meta('property', 'og:image').getAttribute('content');
    expect(image).toBe(`${baseURL}/og-image.png`);
    await expect(meta('name', 'twitter:image')).toHaveAttribute('content', image ?? '');
    const png = await request.get(image ?? '');
    expect(png.status()).toBe(200);
    expect(png.headers()['content-type']).toBe('image/png');
    expect((await png.body()).length).toBeLessThan(60 * 1024);

    const jsonLd = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}',
    ) as Record<string, unknown>;
    expect(jsonLd).toMatchObject({
      '@type': 'Organization',
      name: 'Tillpoint',
      url: `${baseURL}/`,
      logo: `${baseURL}/logo.png`,
    });
    expect((await request.get(`${baseURL}/logo.png`)).status()).toBe(200);
  });
}
