import { expect, test } from './fixtures.ts';

// Chromium logs every 404 response as a console error; here it is the expected answer.
test.use({ allowedConsoleErrors: [/status of 404/] });

const notFoundPages = [
  {
    lang: 'en',
    htmlLang: 'en-HK',
    message: 'This page could not be found',
    homepage: 'Homepage',
    industry: 'Restaurants',
  },
  { lang: 'zh-hk', htmlLang: 'zh-Hant-HK', message: '找不到此頁面', homepage: '返回主頁', industry: '餐廳' },
  { lang: 'zh-cn', htmlLang: 'zh-Hans-CN', message: '找不到该页面', homepage: '返回首页', industry: '餐厅' },
] as const;

for (const { lang, htmlLang, message, homepage, industry } of notFoundPages) {
  test(`an unknown page in ${lang} answers 404 with a link home`, async ({ page, navigate }) => {
    const response = await navigate('/:lang/*', { lang, '*': 'no-such/page' });
    expect(response?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', htmlLang);
    await expect(page.getByTestId('error-page').getByText('404', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(message);
    await expect(page).toHaveTitle(new RegExp(`^${message} \\|`));
    // The site's header and footer stay around the error.
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByTestId('site-footer')).toBeVisible();

    await page.getByRole('link', { name: homepage }).click();
    await expect(page).toHaveURL(`/${lang}`);
    await expect(page.getByTestId('industries')).toContainText(industry);
  });
}

test("an unknown path without a language goes to the visitor's language, then answers 404", async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page).toHaveURL('/en/no-such-page');
  await expect(page.getByText('This page could not be found', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Homepage' }).click();
  await expect(page.getByTestId('plans')).toContainText('HK$2,125');
});
