import { expect, holdScripts, test } from './fixtures.ts';

const languages = [
  { lang: 'en', htmlLang: 'en-HK', acceptLanguage: 'en-GB,en;q=0.9', name: 'English', login: 'Log in to your account' },
  { lang: 'zh-hk', htmlLang: 'zh-Hant-HK', acceptLanguage: 'zh-HK,zh;q=0.9', name: '繁體中文', login: '登入你的帳戶' },
  { lang: 'zh-cn', htmlLang: 'zh-Hans-CN', acceptLanguage: 'zh-CN,zh;q=0.9', name: '简体中文', login: '登录你的账户' },
] as const;

for (const { lang, acceptLanguage } of languages) {
  test(`a path without a language goes to ${lang} by Accept-Language, keeping the query`, async ({ request }) => {
    const response = await request.get('/pricing?plan=flexi&ref=ad', {
      maxRedirects: 0,
      headers: { 'Accept-Language': acceptLanguage },
    });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe(`/${lang}/pricing?plan=flexi&ref=ad`);
    expect(response.headers().vary).toMatch(/Accept-Language/);
  });

  test(`a path without a language goes to ${lang} by the language cookie first`, async ({ request }) => {
    const response = await request.get('/blogs/some-article', {
      maxRedirects: 0,
      headers: { 'Accept-Language': lang === 'en' ? 'zh-HK' : 'en-US', Cookie: `i18n_redirected=${lang}` },
    });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe(`/${lang}/blogs/some-article`);
  });
}

test('a missing file is a 404, not a redirect to a language', async ({ request }) => {
  const response = await request.get('/no-such-image.png', { maxRedirects: 0 });
  expect(response.status()).toBe(404);
});

for (const from of languages) {
  for (const to of languages.filter((other) => other.lang !== from.lang)) {
    test(`the language selector goes from ${from.lang} to the same page in ${to.lang} and remembers it`, async ({
      page,
      baseURL,
    }) => {
      await page.goto(`/${from.lang}/login?from=%2F${from.lang}%2Fportal`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(from.login);
      const before = Date.now() / 1000;
      await page.getByRole('link', { name: to.name, exact: true }).click();

      await expect(page).toHaveURL(`/${to.lang}/login?from=%2F${from.lang}%2Fportal`);
      await expect(page.locator('html')).toHaveAttribute('lang', to.htmlLang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(to.login);
      const cookie = (await page.context().cookies(baseURL)).find((c) => c.name === 'i18n_redirected');
      expect(cookie?.value).toBe(to.lang);
      // 365 days, give or take the test's own run time.
      expect(cookie!.expires - before).toBeGreaterThan(365 * 86400 - 120);
      expect(cookie!.expires - before).toBeLessThan(365 * 86400 + 120);

      await page.goto('/');
      await expect(page).toHaveURL(`/${to.lang}`);
    });
  }
}

test('a language chosen before the page has hydrated is remembered too', async ({ page, baseURL }) => {
  await holdScripts(page);
  await page.goto('/en/pricing');
  await page.getByRole('link', { name: '简体中文', exact: true }).click();
  await expect(page).toHaveURL('/zh-cn/pricing');
  const cookie = (await page.context().cookies(baseURL)).find((c) => c.name === 'i18n_redirected');
  expect(cookie?.value).toBe('zh-cn');
});

for (const { lang, htmlLang } of languages) {
  test(`a page in ${lang} names its canonical URL and its alternates in every language`, async ({ page, baseURL }) => {
    await page.goto(`/${lang}/login?from=%2Fsomewhere`);
    await expect(page.locator('html')).toHaveAttribute('lang', htmlLang);
    await expect(page.locator('link[rel=canonical]')).toHaveAttribute('href', `${baseURL}/${lang}/login`);
    const alternates = await page
      .locator('link[rel=alternate][hreflang]')
      .evaluateAll((links) => links.map((link) => [link.getAttribute('hreflang'), link.getAttribute('href')]));
    expect(alternates).toEqual([
      ['en-HK', `${baseURL}/en/login`],
      ['zh-Hant-HK', `${baseURL}/zh-hk/login`],
      ['zh-Hans-CN', `${baseURL}/zh-cn/login`],
      ['x-default', `${baseURL}/login`],
    ]);
  });
}
