import { expect, holdScripts, hydrated, test } from './fixtures.ts';

const pages = {
  en: {
    features: {
      title: 'Feature list: every plan compared | Tillpoint',
      heading: 'Feature list',
      row: 'Kitchen display screens',
      area: 'Payments',
    },
    graph: {
      title: 'Results merchants report | Tillpoint',
      heading: 'Results merchants report',
      chart: 'Time to take an order',
      value: '9 s',
    },
    terms: {
      title: 'Terms and conditions | Tillpoint',
      heading: 'Terms and conditions',
      section: 'The payment service',
      updated: 'Last updated: 2 November 2026',
    },
  },
  'zh-hk': {
    features: { title: '功能一覽：各方案比較 | Tillpoint', heading: '功能一覽', row: '廚房顯示屏', area: '付款' },
    graph: { title: '商戶實際成效 | Tillpoint', heading: '商戶實際成效', chart: '每單落單時間', value: '9 秒' },
    terms: {
      title: '條款及細則 | Tillpoint',
      heading: '條款及細則',
      section: '支付服務',
      updated: '最後更新：2026年11月2日',
    },
  },
  'zh-cn': {
    features: { title: '功能一览：各套餐对比 | Tillpoint', heading: '功能一览', row: '厨房显示屏', area: '支付' },
    graph: { title: '商户实际成效 | Tillpoint', heading: '商户实际成效', chart: '每单点单时间', value: '9 秒' },
    terms: {
      title: '服务条款 | Tillpoint',
      heading: '服务条款',
      section: '支付服务',
      updated: '最后更新：2026年11月2日',
    },
  },
} as const;

for (const lang of ['en', 'zh-hk', 'zh-cn'] as const) {
  const copy = pages[lang];

  test(`the feature list answers in ${lang} with its translated matrix`, async ({ page, navigate }) => {
    const response = await navigate('/:lang/feature_list', { lang });
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(copy.features.title);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /\S/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.features.heading);
    const table = page.getByRole('table');
    await expect(table.getByRole('rowheader', { name: copy.features.row })).toBeVisible();
    await expect(table.getByRole('rowheader', { name: copy.features.area, exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Flexi+' })).toBeVisible();
  });

  test(`the results page answers in ${lang} with SVG charts and their data`, async ({ page, navigate }) => {
    const response = await navigate('/:lang/graph', { lang });
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(copy.graph.title);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.graph.heading);
    const speed = page.getByTestId('chart-speed');
    await expect(speed.getByRole('heading', { name: copy.graph.chart })).toBeVisible();
    await expect(speed.getByRole('img')).toHaveAttribute('aria-label', new RegExp(copy.graph.value));
    await expect(speed.locator('svg text', { hasText: copy.graph.value })).toBeVisible();
  });

  test(`the terms answer in ${lang} with a table of contents`, async ({ page, navigate }) => {
    const response = await navigate('/:lang/terms', { lang });
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(copy.terms.title);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.terms.heading);
    await expect(page.getByTestId('terms-updated')).toHaveText(copy.terms.updated);
    await expect(page.getByTestId('terms-toc').getByRole('link', { name: copy.terms.section })).toHaveAttribute(
      'href',
      '#payments',
    );
  });
}

test.describe('the feature search with JavaScript', () => {
  test('filters as you type, keeps the URL in step and announces the count, without asking the server', async ({
    page,
    navigate,
  }) => {
    await navigate('/:lang/feature_list', { lang: 'en' });
    await hydrated(page);
    const count = page.getByRole('status');
    const all = await page.getByRole('table').getByRole('row').count();
    const dataRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('.data')) dataRequests.push(request.url());
    });

    await page.getByLabel('Search features').pressSequentially('kitchen');
    await expect(page).toHaveURL('/en/feature_list?q=kitchen');
    await expect(count).toHaveText(/Features shown: [1-9]\d*$/);
    await expect(page.getByRole('rowheader', { name: 'Kitchen display screens' })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: 'Split bills' })).toHaveCount(0);
    expect(await page.getByRole('table').getByRole('row').count()).toBeLessThan(all);

    await page.getByLabel('Area').selectOption({ label: 'Payments' });
    await expect(page).toHaveURL('/en/feature_list?q=kitchen&area=payments');
    await expect(page.getByTestId('feature-empty')).toContainText('No feature matches “kitchen”.');
    await expect(count).toHaveText('Features shown: 0');

    await page.getByRole('link', { name: 'Show all features' }).click();
    await expect(page).toHaveURL('/en/feature_list');
    await expect(page.getByLabel('Search features')).toHaveValue('');
    await expect(page.getByLabel('Area')).toHaveValue('');
    expect(await page.getByRole('table').getByRole('row').count()).toBe(all);
    expect(dataRequests).toEqual([]);
  });

  test('switches to the store POS, where retail features replace restaurant ones', async ({ page, navigate }) => {
    await navigate('/:lang/feature_list', { lang: 'zh-hk' });
    await hydrated(page);
    await page.getByRole('combobox', { name: '產品' }).selectOption({ label: '零售 POS' });
    await expect(page).toHaveURL('/zh-hk/feature_list?pos=store');
    await expect(page.getByRole('rowheader', { name: '條碼收銀' })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: '樓面及枱位圖' })).toHaveCount(0);
  });
});

test('a feature search typed before the page hydrated is kept, and filters once it has', async ({ page, navigate }) => {
  const scripts = await holdScripts(page);
  await navigate('/:lang/feature_list', { lang: 'zh-cn' });
  const unfiltered = await page.getByRole('status').textContent();
  await page.getByLabel('搜索功能').fill('厨房');
  await page.getByRole('combobox', { name: '产品' }).selectOption({ label: '零售 POS' });
  scripts.release();
  await hydrated(page);
  await expect(page).toHaveURL('/zh-cn/feature_list?q=%E5%8E%A8%E6%88%BF&pos=store');
  await expect(page.getByLabel('搜索功能')).toHaveValue('厨房');
  await expect(page.getByRole('combobox', { name: '产品' })).toHaveValue('store');
  await expect(page.getByRole('status')).toHaveText(/^显示 \d+ 项功能$/);
  await expect(page.getByRole('status')).not.toHaveText(unfiltered ?? '');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('submits a GET form and the server sends the filtered matrix', async ({ page, navigate }) => {
    await navigate('/:lang/feature_list', { lang: 'zh-cn' });
    await page.getByLabel('搜索功能').fill('积分');
    await page.getByLabel('类别').selectOption({ label: '顾客与会员' });
    await page.getByRole('button', { name: '搜索' }).click();
    await expect(page).toHaveURL('/zh-cn/feature_list?q=%E7%A7%AF%E5%88%86&area=customers&pos=restaurant');
    await expect(page.getByRole('rowheader', { name: '会员积分' })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: '拆单' })).toHaveCount(0);
    await expect(page.getByRole('status')).toHaveText(/^显示 [1-9] 项功能$/);
    await expect(page.getByLabel('搜索功能')).toHaveValue('积分');
  });

  test('marks each plan with words, not only icons', async ({ page, navigate }) => {
    await navigate('/:lang/feature_list', { lang: 'en' });
    const row = page.getByRole('row', { name: /QR self-ordering/ });
    await expect(row.getByRole('cell')).toHaveText(['Add-on', 'Included', 'Included']);
    const multiStore = page.getByRole('row', { name: /All stores in one dashboard/ });
    await expect(multiStore.getByRole('cell')).toHaveText(['Not included', 'Not included', 'Included']);
  });

  test('the charts and their data tables are in the served HTML', async ({ page, navigate }) => {
    await navigate('/:lang/graph', { lang: 'en' });
    await expect(page.locator('figure svg')).toHaveCount(3);
    for (const svg of await page.locator('figure svg').all()) {
      await expect(svg).toHaveAttribute('viewBox', /^0 0 \d+ \d+$/);
      await expect(svg).toHaveAttribute('width', /\d+/);
    }
    const changes = page.getByTestId('chart-changes');
    await changes.getByText('Show data').click();
    const table = changes.getByRole('table');
    await expect(table.getByRole('row', { name: /Repeat customers/ }).getByRole('cell')).toHaveText('+27%');
    await expect(table.getByRole('row', { name: /Staff cost/ }).getByRole('cell')).toHaveText('−10%');
    await expect(page.getByTestId('scale')).toContainText('1,100+');
    await expect(page.locator('#notes')).toContainText('averages reported by merchants');
  });

  test('the terms contents link to their sections', async ({ page, navigate }) => {
    await navigate('/:lang/terms', { lang: 'en' });
    const links = page.getByTestId('terms-toc').getByRole('link');
    await expect(links).toHaveCount(12);
    for (const link of await links.all()) {
      const target = (await link.getAttribute('href')) ?? '';
      await expect(page.locator(target)).toHaveCount(1);
    }
    await page.getByTestId('terms-toc').getByRole('link', { name: 'Data protection' }).click();
    await expect(page).toHaveURL('/en/terms#dataProtection');
    await expect(page.getByRole('heading', { name: /Data protection/, level: 2 })).toBeInViewport();
    await expect(page.locator('#payments')).toContainText('HK$85 per month');
    await expect(page.locator('#payments')).toContainText('T+2');
  });
});
