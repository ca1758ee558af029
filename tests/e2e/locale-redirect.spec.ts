import { expect, test } from './fixtures.ts';

test.describe('/ with an English browser and no cookie', () => {
  test('goes to /en', async ({ page, navigate }) => {
    await navigate('/');
    await expect(page).toHaveURL('/en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-HK');
  });
});

const byBrowserLocale = [
  { locale: 'zh-TW', expected: '/zh-hk' },
  { locale: 'zh-HK', expected: '/zh-hk' },
  { locale: 'zh-CN', expected: '/zh-cn' },
  { locale: 'zh-SG', expected: '/zh-cn' },
  { locale: 'fr-FR', expected: '/en' },
] as const;

for (const { locale, expected } of byBrowserLocale) {
  test.describe(`/ with a ${locale} browser`, () => {
    test.use({ locale });
    test(`goes to ${expected}`, async ({ page, navigate }) => {
      await navigate('/');
      await expect(page).toHaveURL(expected);
    });
  });
}

test('/ picks the best language of an Accept-Language list by quality', async ({ page, navigate }) => {
  // The browser's locale option would replace an extra header, so the header is set on the request itself.
  await page.route('**/*', (route) =>
    route.continue({
      headers: { ...route.request().headers(), 'accept-language': 'fr-FR, de;q=0.9, zh-Hant;q=0.8, en;q=0.5' },
    }),
  );
  await navigate('/');
  await expect(page).toHaveURL('/zh-hk');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant-HK');
});

test.describe('/ with the language cookie', () => {
  test.use({ locale: 'zh-TW' });
  test('follows the cookie before the browser languages', async ({ page, navigate, baseURL }) => {
    await page.context().addCookies([{ name: 'i18n_redirected', value: 'zh-cn', url: baseURL }]);
    await navigate('/');
    await expect(page).toHaveURL('/zh-cn');
    await expect(page.getByTestId('industries')).toContainText('餐厅');
  });
});

test('the redirect varies on the cookie and Accept-Language', async ({ request }) => {
  const response = await request.get('/?ref=ad', { maxRedirects: 0, headers: { 'Accept-Language': 'zh-Hans' } });
  expect(response.status()).toBe(302);
  expect(response.headers().location).toBe('/zh-cn?ref=ad');
  expect(response.headers().vary).toMatch(/Cookie/);
  expect(response.headers().vary).toMatch(/Accept-Language/);
});
