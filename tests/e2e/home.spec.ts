import { expect, test } from './fixtures.ts';

const homes = [
  {
    lang: 'en',
    htmlLang: 'en-HK',
    title: 'Tillpoint — POS and payments for restaurants and shops',
    heading: 'Run your restaurant or shop on one POS',
    industries: ['Restaurants', 'Retail Stores', 'Cafés & Bakeries'],
    plan: 'Restaurant Flexi',
    price: 'HK$2,125 / month',
    negotiable: 'Price on request',
  },
  {
    lang: 'zh-hk',
    htmlLang: 'zh-Hant-HK',
    title: 'Tillpoint — 餐廳及零售店的收銀與支付方案',
    heading: '一套收銀系統，打理餐廳同店舖',
    industries: ['餐廳', '零售店舖', '咖啡店及餅店'],
    plan: '餐廳 Flexi',
    price: '每月 HK$2,125',
    negotiable: '價格面議',
  },
  {
    lang: 'zh-cn',
    htmlLang: 'zh-Hans-CN',
    title: 'Tillpoint — 餐厅与零售店的收银和支付方案',
    heading: '一套收银系统，管好餐厅和门店',
    industries: ['餐厅', '零售门店', '咖啡馆与烘焙店'],
    plan: '餐厅 Flexi',
    price: '每月 HK$2,125',
    negotiable: '价格面议',
  },
] as const;

for (const home of homes) {
  test(`home in ${home.lang} lists the seeded industries and plans in its language`, async ({ page, navigate }) => {
    const response = await navigate('/:lang', { lang: home.lang });
    expect(response?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', home.htmlLang);
    await expect(page).toHaveTitle(home.title);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(home.heading);

    const industries = page.getByTestId('industries');
    // Restaurants come first (order 0), then the other major industries.
    await expect(industries.getByRole('heading', { level: 3 }).first()).toHaveText(home.industries[0]);
    for (const industry of home.industries) {
      await expect(industries.getByRole('heading', { name: industry, exact: true })).toBeVisible();
    }

    const plans = page.getByTestId('plans');
    const restaurantPlan = plans
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: home.plan, exact: true }) });
    await expect(restaurantPlan).toContainText(home.price);
    await expect(plans).toContainText(home.negotiable);
  });
}

test('Chinese pages show Chinese catalogue text, not the English fallback', async ({ page, navigate }) => {
  await navigate('/:lang', { lang: 'zh-hk' });
  await expect(page.getByTestId('industries')).toContainText('餐廳');
  await expect(page.getByTestId('industries')).not.toContainText('Restaurants');
  await expect(page.getByTestId('plans')).not.toContainText('/ month');
});

test('the footer switches language', async ({ page, navigate }) => {
  await navigate('/:lang', { lang: 'en' });
  await page.getByRole('link', { name: '简体中文' }).click();
  await expect(page).toHaveURL('/zh-cn');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans-CN');
  await expect(page.getByTestId('industries')).toContainText('餐厅');
});
