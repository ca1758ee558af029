import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const languages = {
  en: {
    restaurant: 'The POS that keeps the floor and the kitchen in step',
    store: 'Check out faster and always know what is on the shelf',
    pay: 'Take every way your customers pay',
    advanced: 'Add what your business needs, when it needs it',
    usecase: 'Whatever you run, Tillpoint fits the way you work',
    comingLater: 'Coming later',
    perMonth: 'HK$688 / month',
    flexi: 'HK$2,125 / month',
    negotiable: 'Negotiable',
    gst: 'subject to prevailing GST',
    fee: 'HK$85',
    octopus: 'Octopus',
  },
  'zh-hk': {
    restaurant: '樓面同廚房步伐一致嘅收銀系統',
    store: '結帳更快，貨架有乜貨一清二楚',
    pay: '客人點樣俾錢，你都收到',
    advanced: '生意需要乜，就加乜',
    usecase: '無論做邊行，Tillpoint 都配合你嘅運作',
    comingLater: '稍後推出',
    perMonth: '每月 HK$688',
    flexi: '每月 HK$2,125',
    negotiable: '價格面議',
    gst: '現行消費稅',
    fee: 'HK$85',
    octopus: '八達通',
  },
  'zh-cn': {
    restaurant: '让前厅与厨房步调一致的收银系统',
    store: '结账更快，货架库存一目了然',
    pay: '顾客怎么付，你都能收',
    advanced: '业务需要什么，就加什么',
    usecase: '无论经营哪一行，Tillpoint 都贴合你的经营方式',
    comingLater: '稍后推出',
    perMonth: '每月 HK$688',
    flexi: '每月 HK$2,125',
    negotiable: '价格面议',
    gst: '现行消费税',
    fee: 'HK$85',
    octopus: '八达通',
  },
} as const;

/** No English sentence left on a Chinese page (brand, product and payment scheme names aside). */
async function expectNoEnglishProse(page: Page) {
  const text = await page.locator('main').innerText();
  const sentences = text.match(/\b[A-Za-z]+(?: [A-Za-z]+){3,}\b/g) ?? [];
  expect(sentences).toEqual([]);
}

for (const [lang, copy] of Object.entries(languages)) {
  test.describe(`the public site in ${lang}`, () => {
    test('the restaurant POS page shows Lite and Flexi side by side, Flexi+ negotiable, the add-ons and the calculator', async ({
      page,
    }) => {
      const response = await page.goto(`/${lang}/tillpointRestaurant`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.restaurant);
      const plans = page.getByTestId('plans');
      await expect(plans.locator('[data-plan=lite]')).toContainText(copy.perMonth);
      await expect(plans.locator('[data-plan=flexi]')).toContainText(copy.flexi);
      await expect(plans.locator('[data-plan=enterprise]')).toContainText(copy.negotiable);
      await expect(page.getByTestId('gst-note')).toContainText(copy.gst);
      await expect(page.getByTestId('add-ons').getByRole('row')).toHaveCount(10);
      await expect(page.getByTestId('add-ons')).toContainText(copy.comingLater);
      await expect(page.getByTestId('to-calculator')).toHaveAttribute(
        'href',
        new RegExp(`^/${lang}/pricing\\?industry=\\w+`),
      );
      // Structured data: a Product with an Offer for each priced plan (Flexi+ is negotiated).
      const product = JSON.parse(
        (await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}',
      ) as { '@type': string; offers: { price: string; priceCurrency: string }[] };
      expect(product['@type']).toBe('Product');
      expect(product.offers.map((offer) => [offer.price, offer.priceCurrency])).toEqual(
        expect.arrayContaining([
          ['688.00', 'HKD'],
          ['2125.00', 'HKD'],
        ]),
      );
      expect(product.offers).toHaveLength(2);
      if (lang !== 'en') await expectNoEnglishProse(page);
    });

    test('the store POS page presents the retail plans', async ({ page }) => {
      await page.goto(`/${lang}/tillpointStore`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.store);
      await expect(page.getByTestId('plans').locator('[data-plan=lite]')).toContainText(copy.perMonth);
      await expect(page.getByRole('banner')).toHaveAttribute('data-tone', 'brand');
    });

    test('the payments page lists 16+ methods, T+2 settlement and the inactivity fee, under a white header', async ({
      page,
    }) => {
      await page.goto(`/${lang}/tillpointPay`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.pay);
      await expect(page.getByRole('banner')).toHaveAttribute('data-tone', 'white');
      expect(await page.getByTestId('payment-methods').getByRole('listitem').count()).toBeGreaterThanOrEqual(16);
      await expect(page.getByTestId('payment-methods')).toContainText(copy.octopus);
      await expect(page.getByTestId('pay-settlement')).toContainText('T+2');
      await expect(page.getByTestId('pay-inactivity')).toContainText(copy.fee);
      await expect(page.getByTestId('pay-inactivity')).toContainText('90');
      if (lang !== 'en') await expectNoEnglishProse(page);
    });

    test('the advanced features page lists the modules and marks the unreleased ones', async ({ page }) => {
      await page.goto(`/${lang}/advancedFeature`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.advanced);
      await expect(
        page
          .getByTestId('modules')
          .getByRole('listitem')
          .filter({ has: page.locator('h3') }),
      ).toHaveCount(9);
      await expect(page.getByTestId('coming-later')).toHaveCount(2);
      await expect(page.getByTestId('coming-later').first()).toHaveText(copy.comingLater);
    });

    test('the use cases lead from industries to their case studies and on to the right POS page', async ({ page }) => {
      await page.goto(`/${lang}/usecase`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.usecase);
      await expect(page.getByRole('banner')).toHaveAttribute('data-tone', 'white');
      await page.getByTestId('industries').getByRole('link').first().click();
      await expect(page).toHaveURL(`/${lang}/usecase/restaurant`);
      await expect(page.getByTestId('industry-items').getByRole('listitem')).toHaveCount(4);
      await page.getByTestId('case-studies').getByRole('link').first().click();
      await expect(page).toHaveURL(`/${lang}/usecase/restaurant/food`);
      await expect(page.getByTestId('case-study')).toContainText('8');
      await expect(page.getByTestId('results').getByRole('listitem')).toHaveCount(3);
      // Industry order 0 leads to the restaurant page.
      await expect(page.getByTestId('to-product')).toHaveAttribute('href', `/${lang}/tillpointRestaurant`);
      if (lang !== 'en') await expectNoEnglishProse(page);
    });
  });
}

test('any other industry leads to the store POS page', async ({ page }) => {
  await page.goto('/en/usecase/education/education');
  await expect(page.getByTestId('to-product')).toHaveAttribute('href', '/en/tillpointStore');
});

test.describe('pages that do not exist', () => {
  test.use({ allowedConsoleErrors: [/status of 404/] });
  const titles = {
    en: 'This page could not be found | Tillpoint',
    'zh-hk': '找不到此頁面 | Tillpoint',
    'zh-cn': '找不到该页面 | Tillpoint',
  };
  for (const [path, lang] of [
    ['/en/tillpointCafe', 'en'],
    ['/en/otherbrandPay', 'en'],
    ['/zh-hk/usecase/no-such-industry', 'zh-hk'],
    ['/zh-cn/usecase/restaurant/retail', 'zh-cn'],
  ] as const) {
    test(`${path} answers 404`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByTestId('error-page')).toBeVisible();
      // Titled like the catch-all not-found page and every other page: `Title | Brand`.
      await expect(page).toHaveTitle(titles[lang]);
    });
  }
});

test('the home page shows the claims, products, case studies, plans and the call to action', async ({ page }) => {
  await page.goto('/en');
  await expect(page.getByTestId('claims')).toContainText('2x');
  for (const claim of ['Up to 50%', '9 s', '+20%', '+27%', '-10%'])
    await expect(page.getByTestId('claims')).toContainText(claim);
  await expect(page.getByText('1,100+')).toBeVisible();
  await expect(page.getByTestId('products').getByRole('listitem')).toHaveCount(3);
  await expect(page.getByTestId('case-studies').getByRole('listitem')).toHaveCount(4);
  await expect(page.getByTestId('case-studies')).toContainText('8 stores');
  await expect(page.getByTestId('cta-highlights').getByRole('listitem')).toHaveCount(3);
  await expect(page.locator('link[rel=preload][as=image]')).toHaveAttribute('href', '/images/hero-pos.svg');
  const hero = page.getByRole('img', { name: /POS terminal/ });
  await expect(hero).toHaveAttribute('width', '560');
  await expect(hero).toHaveAttribute('height', '440');
});
