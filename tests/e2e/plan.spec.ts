import { expect, test } from './fixtures.ts';
import { planId } from './plans.ts';

const languages = [
  {
    lang: 'en',
    htmlLang: 'en-HK',
    name: 'Restaurant Flexi',
    title: 'Restaurant Flexi plan: price, modules and terms | Tillpoint',
    industry: 'For Restaurants',
    modules: ['Kitchen Display System', 'QR Self-Ordering', 'Loyalty Programme'],
    kiosk: ['Self-Order Kiosk', 'HK$588 / month per device'],
    contract: 'One-year contract',
    gst: 'Prices subject to prevailing GST.',
    prepaid: 'Prepaid total for 24 months',
    action: 'Subscribe to this plan',
  },
  {
    lang: 'zh-hk',
    htmlLang: 'zh-Hant-HK',
    name: '餐廳 Flexi',
    title: '餐廳 Flexi 方案：價格、模組及條款 | Tillpoint',
    industry: '適用於餐廳',
    modules: ['廚房顯示系統', '掃碼自助點餐', '會員積分計劃'],
    kiosk: ['自助點餐機', '每部裝置每月 HK$588'],
    contract: '一年合約',
    gst: '價格另按現行消費稅計算。',
    prepaid: '預繳 24 個月總額',
    action: '訂購此方案',
  },
  {
    lang: 'zh-cn',
    htmlLang: 'zh-Hans-CN',
    name: '餐厅 Flexi',
    title: '餐厅 Flexi 方案：价格、模块及条款 | Tillpoint',
    industry: '适用于餐厅',
    modules: ['厨房显示系统', '扫码自助点餐', '会员积分计划'],
    kiosk: ['自助点餐机', '每台设备每月 HK$588'],
    contract: '一年合约',
    gst: '价格另按现行消费税计算。',
    prepaid: '预付 24 个月总额',
    action: '订购此方案',
  },
] as const;

for (const expected of languages) {
  test(`a plan's page in ${expected.lang} shows its name, industry, modules, prices and terms`, async ({
    page,
    navigate,
    request,
  }) => {
    const id = await planId(request, 'restaurant-flexi');
    const response = await navigate('/:lang/plan/:id?', { lang: expected.lang, id });
    expect(response?.status()).toBe(200);
    // A public page like the others: shared caches may keep it (decision 010).
    expect(response?.headers()['cache-control']).toBe(
      'public, max-age=0, s-maxage=5, stale-while-revalidate=30, stale-if-error=86400',
    );
    await expect(page.locator('html')).toHaveAttribute('lang', expected.htmlLang);
    await expect(page).toHaveTitle(expected.title);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(expected.name);
    await expect(page.getByTestId('plan-industry')).toHaveText(expected.industry);

    const modules = page.getByTestId('plan-modules').getByRole('listitem');
    await expect(modules).toHaveCount(3);
    for (const [index, module] of expected.modules.entries()) await expect(modules.nth(index)).toContainText(module);

    // HK$2,125 a month, 24 months prepaid, from integer cents.
    await expect(page.getByTestId('plan-monthly')).toHaveText('HK$2,125');
    await expect(page.getByTestId('plan-prepaid')).toHaveText('HK$51,000');
    await expect(page.getByTestId('plan-prices')).toContainText(expected.prepaid);

    // The add-ons the plan does not include, a counter one priced per device.
    const addOns = page.getByTestId('add-ons');
    await expect(addOns.getByRole('row', { name: new RegExp(expected.kiosk[0]) })).toContainText(expected.kiosk[1]);
    await expect(addOns).not.toContainText(expected.modules[0]);

    const terms = page.getByTestId('plan-terms');
    await expect(terms).toContainText(expected.contract);
    await expect(terms).toContainText(expected.gst);
    await expect(terms.getByRole('link')).toHaveAttribute('href', `/${expected.lang}/terms`);
    await expect(page.getByTestId('plan-action')).toHaveText(expected.action);

    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as {
      '@type': string;
      offers: { price: string; priceCurrency: string }[];
    };
    expect(jsonLd['@type']).toBe('Product');
    expect(jsonLd.offers).toMatchObject([{ price: '2125.00', priceCurrency: 'HKD' }]);
  });
}

test('Flexi+ is negotiable, includes every add-on and leads to the enquiry form', async ({
  page,
  navigate,
  request,
}) => {
  const id = await planId(request, 'restaurant-flexi-plus');
  await navigate('/:lang/plan/:id?', { lang: 'en', id });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Restaurant Flexi+');
  await expect(page.getByTestId('plan-monthly')).toHaveText('Negotiable');
  await expect(page.getByTestId('plan-prepaid')).toHaveCount(0);
  await expect(page.getByTestId('plan-modules')).toContainText('Kitchen Display System × 2');
  await expect(page.getByText('This plan already includes every add-on we offer.')).toBeVisible();
  await expect(page.getByTestId('plan-terms')).toContainText('Contract by agreement');
  await expect(page.getByTestId('plan-action')).toHaveAttribute('href', '/en/enquiryForm?plan=restaurant-flexi-plus');
  // No list price, so no Offer for search engines.
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);
});

test("prices show in the visitor's chosen currency", async ({ page, context, navigate, request, baseURL }) => {
  const id = await planId(request, 'restaurant-flexi');
  await context.addCookies([{ name: 'currency', value: 'SGD', url: baseURL }]);
  await navigate('/:lang/plan/:id?', { lang: 'en', id });
  // HK$2,125 at 0.172: S$365.50 a month, times 24 months.
  await expect(page.getByTestId('plan-monthly')).toHaveText('S$365.50');
  await expect(page.getByTestId('plan-prepaid')).toHaveText('S$8,772');
  await expect(page.getByTestId('add-ons').getByRole('row', { name: /Self-Order Kiosk/ })).toContainText(
    'S$101.14 / month per device',
  );
});

test.describe('a plan that does not exist', () => {
  // Chromium logs every 404 response as a console error; here it is the expected answer.
  test.use({ allowedConsoleErrors: [/status of 404/] });

  for (const [lang, id, message, homepage] of [
    ['en', '6b0000000000000000000000', 'This page could not be found', 'Homepage'],
    ['zh-hk', 'not a plan', '找不到此頁面', '返回主頁'],
  ] as const) {
    test(`is the site's 404 page (${lang}, ${JSON.stringify(id)})`, async ({ page, navigate }) => {
      const response = await navigate('/:lang/plan/:id?', { lang, id });
      expect(response?.status()).toBe(404);
      await expect(page.getByTestId('error-page').getByText('404', { exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(message);
      await expect(page).toHaveTitle(new RegExp(message));
      await expect(page.getByTestId('site-footer')).toBeVisible();
      await expect(page.getByRole('link', { name: homepage })).toHaveAttribute('href', `/${lang}`);
    });
  }
});

test('"Customise in the calculator" opens the calculator on the plan\'s industry', async ({
  page,
  navigate,
  request,
}) => {
  const id = await planId(request, 'restaurant-flexi');
  await navigate('/:lang/plan/:id?', { lang: 'zh-hk', id });
  await page.getByRole('link', { name: '用價格計算機自訂方案' }).click();
  await expect(page).toHaveURL('/zh-hk/pricing?industry=restaurant');
  await expect(page.getByLabel('你的行業')).toHaveValue('restaurant');
  await expect(page.getByRole('heading', { name: /餐廳 Flexi/ })).toBeVisible();
  await expect(page.getByTestId('monthly-total')).toHaveText('HK$2,125');
});

test('plan cards on the product page, the home page and the calculator link to the plan pages', async ({
  page,
  request,
}) => {
  const lite = await planId(request, 'restaurant-lite');
  await page.goto('/en/tillpointRestaurant');
  await page.getByRole('link', { name: 'Plan details: Restaurant Lite' }).click();
  await expect(page).toHaveURL(`/en/plan/${lite}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Restaurant Lite');
  await expect(page.getByTestId('plan-monthly')).toHaveText('HK$688');
  await expect(page.getByTestId('plan-terms')).toContainText('No contract');

  const flexi = await planId(request, 'restaurant-flexi');
  await page.goto('/zh-hk');
  await page.getByTestId('plans').getByRole('link', { name: '方案詳情：餐廳 Flexi' }).click();
  await expect(page).toHaveURL(`/zh-hk/plan/${flexi}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('餐廳 Flexi');

  const retail = await planId(request, 'retail-flexi');
  await page.goto('/zh-cn/pricing?industry=retail');
  await page.getByTestId('calculator').getByRole('link', { name: '方案详情：零售 Flexi' }).click();
  await expect(page).toHaveURL(`/zh-cn/plan/${retail}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('零售 Flexi');
});

test('sitemap.xml lists every plan page in every language', async ({ request, baseURL }) => {
  const ids = await Promise.all(
    ['restaurant-lite', 'retail-flexi', 'chain-franchise-flexi-plus'].map((key) => planId(request, key)),
  );
  const xml = await (await request.get('/sitemap.xml')).text();
  for (const id of ids) {
    for (const lang of ['en', 'zh-hk', 'zh-cn']) expect(xml).toContain(`<loc>${baseURL}/${lang}/plan/${id}</loc>`);
  }
});
