import type { Page } from '@playwright/test';
import { expect, holdScripts, hydrated, isHydrated, test } from './fixtures.ts';
import { users } from './users.ts';

test.describe('on a phone', () => {
  // The payment page is not built yet: following its link answers 404.
  test.use({ viewport: { width: 390, height: 844 }, allowedConsoleErrors: [/status of 404/] });

  for (const { lang, open, close, payments, restaurants } of [
    { lang: 'en', open: 'Open menu', close: 'Close menu', payments: 'Payments', restaurants: 'Restaurants' },
    { lang: 'zh-hk', open: '打開選單', close: '關閉選單', payments: '支付服務', restaurants: '餐廳' },
    { lang: 'zh-cn', open: '打开菜单', close: '关闭菜单', payments: '支付服务', restaurants: '餐厅' },
  ] as const) {
    test(`the header links live in a drawer that keeps focus inside it (${lang})`, async ({ page }) => {
      await page.goto(`/${lang}`);
      const banner = page.getByRole('banner');
      await expect(banner.getByRole('link', { name: payments })).toBeHidden();

      const opener = page.getByRole('button', { name: open });
      await opener.click();
      const drawer = page.getByRole('dialog');
      await expect(drawer).toBeVisible();
      await expect(drawer.getByRole('button', { name: close })).toBeFocused();
      await expect(drawer.getByRole('link', { name: payments })).toBeVisible();
      await expect(drawer.getByRole('link', { name: restaurants })).toBeVisible();
      // Tab never leaves the open drawer.
      for (let i = 0; i < 25; i += 1) {
        await page.keyboard.press('Tab');
        expect(
          await drawer.evaluate(
            (dialog) => dialog.contains(document.activeElement) || document.activeElement === document.body,
          ),
        ).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
      await expect(opener).toBeFocused();

      await opener.click();
      await drawer.getByRole('link', { name: payments }).click();
      await expect(page).toHaveURL(new RegExp(`/${lang}/tillpointPay$`));
      await expect(page.getByRole('dialog')).toBeHidden();
    });
  }

  test.describe('before the page has hydrated', () => {
    test('the drawer opens, closes with its button and with Escape', async ({ page }) => {
      await holdScripts(page);
      await page.goto('/zh-hk');
      await page.getByRole('button', { name: '打開選單' }).click();
      const drawer = page.getByRole('dialog');
      await expect(drawer.getByRole('link', { name: '支付服務' })).toBeVisible();
      await drawer.getByRole('button', { name: '關閉選單' }).click();
      await expect(drawer).toBeHidden();
      await page.getByRole('button', { name: '打開選單' }).click();
      await expect(drawer).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
      expect(await isHydrated(page)).toBe(false);
    });
  });

  test.describe('with JavaScript disabled', () => {
    test.use({ javaScriptEnabled: false });
    // Not every browser opens the drawer without scripts (Invoker Commands: decision 016).
    test("the menu is a link to the footer's pages, in every language", async ({ page }) => {
      for (const [lang, label, payments] of [
        ['en', 'Menu', 'Payments'],
        ['zh-hk', '選單', '支付服務'],
        ['zh-cn', '菜单', '支付服务'],
      ] as const) {
        await page.goto(`/${lang}/pricing`);
        await expect(page.getByTestId('drawer-open')).toBeHidden();
        // The theme toggle needs scripts too.
        await expect(page.locator('[data-theme-toggle]')).toBeHidden();
        await page.getByRole('banner').getByRole('link', { name: label, exact: true }).click();
        await expect(page).toHaveURL(`/${lang}/pricing#site-map`);
        const footer = page.getByTestId('site-footer');
        await expect(footer.getByRole('link', { name: payments })).toBeInViewport();
        await footer.getByRole('link', { name: payments }).click();
        await expect(page).toHaveURL(`/${lang}/tillpointPay`);
      }
    });
  });

  test('the drawer offers the dashboard to a signed-in member', async ({ page, login }) => {
    await login(users.owner);
    await page.goto('/en');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL('/en/portal');
    await expect(page.getByTestId('welcome')).toContainText('Mei Chan');
  });

  test('a back-to-top button appears past half a window and takes the visitor up', async ({ page }) => {
    await page.goto('/en');
    const button = page.getByRole('button', { name: 'Back to top' });
    await expect(button).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, window.innerHeight * 0.4));
    await expect(button).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, window.innerHeight * 0.6 + 10));
    await expect(button).toBeVisible();
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(button).toBeHidden();
  });
});

test('the use-case menu opens by keyboard, moves with arrows and closes with Escape', async ({ page }) => {
  await page.goto('/en');
  const menu = page.getByRole('banner').locator('summary', { hasText: 'Use cases' });
  await menu.focus();
  await page.keyboard.press('Enter');
  const restaurants = page.getByRole('banner').getByRole('link', { name: 'Restaurants' });
  await expect(restaurants).toBeVisible();
  // The menu opens before the page hydrates; the arrow keys are handled by its script.
  await hydrated(page, 'header details');
  // The handler is attached by an effect that may still be pending under load: from the menu's
  // button, the first arrow always goes to the first item, so it is pressed again until it does.
  await expect(async () => {
    await menu.focus();
    await page.keyboard.press('ArrowDown');
    await expect(restaurants).toBeFocused({ timeout: 1_000 });
  }).toPass();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Retail Stores' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(restaurants).toBeHidden();
  await expect(menu).toBeFocused();
});

test.describe('the marketing header', () => {
  test.use({ allowedConsoleErrors: [/status of 404/] });
  test('is white on home and the brand colour on other pages', async ({ page }) => {
    await page.goto('/en');
    await expect(page.getByRole('banner')).toHaveAttribute('data-tone', 'white');
    await expect(page.getByRole('banner')).toHaveCSS('height', '86px');
    await page.goto('/en/no-such-page');
    await expect(page.getByRole('banner')).toHaveAttribute('data-tone', 'brand');
  });
});

test.describe('the signed-in member', () => {
  test('sees their initial and name in the header, linking to the portal', async ({ page, login }) => {
    await login(users.owner);
    await page.goto('/zh-cn');
    const badge = page.getByRole('banner').getByTestId('user-badge');
    await expect(badge).toHaveText('MMei Chan');
    await badge.click();
    await expect(page).toHaveURL('/zh-cn/portal');
  });

  test('has a dashboard with its own header and footer, both hidden inside another app (?sso)', async ({
    page,
    login,
  }) => {
    await login(users.owner);
    await page.goto('/en/portal');
    await expect(page.getByRole('banner')).toContainText('Dashboard');
    await expect(page.getByTestId('dashboard-footer').getByRole('link', { name: '繁體中文' })).toBeVisible();
    await page.goto('/en/portal?sso=1');
    await expect(page.getByTestId('welcome')).toContainText('Mei Chan');
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.getByTestId('dashboard-footer')).toHaveCount(0);
  });
});

test.describe('snackbars', () => {
  test.use({ allowedConsoleErrors: [/status of 401/] });
  test('an error stays until closed; a success says so after logging out', async ({ page, login }) => {
    await page.goto('/zh-hk/login');
    await page.getByLabel('電郵').fill(users.owner.email);
    await page.getByLabel('密碼').fill('Not-the-password-1');
    await page.getByRole('button', { name: '登入' }).click();
    const error = page.getByTestId('snackbar-error');
    await expect(error).toHaveText('電郵或密碼不正確。');
    await page.waitForTimeout(1000);
    await expect(error).toBeVisible();
    await error.getByRole('button', { name: '關閉' }).click();
    await expect(error).toBeHidden();

    await login(users.owner);
    await page.goto('/zh-cn/portal');
    await page.getByTestId('user-menu').click();
    await page.getByRole('button', { name: '退出登录' }).click();
    await expect(page).toHaveURL('/zh-cn');
    const success = page.getByTestId('snackbar-success');
    await expect(success).toHaveText('你已退出登录。');
    await success.getByRole('button', { name: '关闭' }).click();
    await expect(success).toBeHidden();
    // Shown once: the next page does not repeat it.
    await page.reload();
    await expect(page.getByTestId('industries')).toBeVisible();
    await expect(page.getByTestId('snackbar-success')).toHaveCount(0);
  });
});

test('a loading indicator shows only when a page takes longer than 200 ms', async ({ page }) => {
  // The page's clock is ours: 200 ms pass when the test says so, whatever the machine's load.
  await page.clock.install();
  await page.goto('/en/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The indicator is the running app's: the page must have hydrated before the clock stops.
  await hydrated(page);
  await page.waitForLoadState('networkidle');
  // Time stands still from here; only runFor moves it.
  await page.clock.pauseAt(Date.now() + 10_000);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/en.data*', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('link', { name: 'Tillpoint home' }).first().click();
  // React renders the pending navigation after the click returns; its delay starts then.
  await expect(page.locator('html[data-busy]')).toHaveCount(1);
  await page.clock.runFor(150);
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toBeVisible();
  release();
  await expect(page).toHaveURL('/en');
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.locator('html[data-busy]')).toHaveCount(0);
});

/** The router owns the document: following the header's link keeps the same document. */
async function expectClientNavigation(page: Page, link: string, url: RegExp) {
  await page.evaluate(() => ((window as unknown as { __same: boolean }).__same = true));
  await page.getByRole('banner').getByRole('link', { name: link, exact: true }).click();
  await expect(page).toHaveURL(url);
  expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same ?? false)).toBe(true);
}

test('a page starts its scripts once it has loaded, then hydrates and navigates on the client', async ({ page }) => {
  await page.goto('/zh-hk/pricing');
  await hydrated(page);
  const timing = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const scripts = performance.getEntriesByType('resource').filter((entry) => /\/assets\/[^/]+\.js$/.test(entry.name));
    return {
      load: navigation?.loadEventStart ?? Infinity,
      firstScript: Math.min(...scripts.map((entry) => entry.startTime)),
      scripts: scripts.length,
    };
  });
  expect(timing.scripts).toBeGreaterThan(3);
  expect(timing.firstScript).toBeGreaterThanOrEqual(timing.load);
  // What was held back is restored, and the entry module runs once.
  await expect(page.locator('[data-rel], script[data-type]')).toHaveCount(0);
  await expect(page.locator('script[type="module"]')).toHaveCount(1);
  await expectClientNavigation(page, '功能', /\/zh-hk\/advancedFeature$/);
});

test('a page mostly read loads no script until the visitor first does something on it', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  for (const path of ['/en', '/zh-cn/feature_list']) {
    scripts.length = 0;
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    // Loaded and quiet: its scripts are still held back, and it works from its HTML.
    expect(scripts).toEqual([]);
    expect(await isHydrated(page)).toBe(false);
    await expect(page.locator('script[data-type="module"]')).toHaveCount(1);
    // A key press is an interaction: the scripts start and the page hydrates.
    await page.keyboard.press('Tab');
    await expect.poll(() => isHydrated(page)).toBe(true);
    expect(scripts.some((script) => /^\/assets\/entry\.client-[\w-]+\.js$/.test(script))).toBe(true);
    await expect(page.locator('[data-rel], script[data-type]')).toHaveCount(0);
  }
  await expectClientNavigation(page, '价格', /\/zh-cn\/pricing$/);
});

test('on a page mostly read, touching the screen, moving the pointer or scrolling starts its scripts too', async ({
  browser,
  baseURL,
}) => {
  const interactions: ((page: Page) => Promise<unknown>)[] = [
    (page) => page.mouse.move(200, 300),
    (page) => page.mouse.wheel(0, 400),
    (page) => page.locator('h1').dispatchEvent('touchstart'),
  ];
  for (const interact of interactions) {
    // A browser of its own for each: a pointer left over the page, or a scroll position restored,
    // would be an interaction already.
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto('/zh-hk');
    await page.waitForLoadState('networkidle');
    expect(await isHydrated(page)).toBe(false);
    await interact(page);
    await expect.poll(() => isHydrated(page)).toBe(true);
    await context.close();
  }
});

test.describe('a page whose code changed after a deploy', () => {
  test.use({
    allowedConsoleErrors: [/Error loading route module|Failed to fetch dynamically imported module|ERR_FAILED/],
  });
  test('reloads itself once to get the new code', async ({ page }) => {
    await page.goto('/en');
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { __before: boolean }).__before = true));
    let blocked = 0;
    await page.route(/\/assets\/login-[\w-]+\.js$/, async (route) => {
      if (blocked === 0) {
        blocked += 1;
        return route.abort('failed');
      }
      return route.continue();
    });
    const reloaded = page.waitForEvent('load');
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
    await reloaded;
    // A fresh document of the same page; the visitor's next click works.
    await page.waitForLoadState('networkidle');
    await expect(page).toHaveURL('/en');
    expect(await page.evaluate(() => (window as unknown as { __before?: boolean }).__before ?? false)).toBe(false);
    expect(blocked).toBe(1);
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/en/login');
  });
});

test.describe('the campaign microsite', () => {
  test.use({ allowedConsoleErrors: [/status of 404/] });
  test('has a transparent 120 px header, support contacts and a currency selector starting at SGD', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/en/campaign/sg23');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Singapore');
    await expect(page.getByRole('banner')).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
    await expect(page.getByRole('banner').locator('> div')).toHaveCSS('height', '120px');
    const footer = page.getByTestId('microsite-footer');
    await expect(footer.getByRole('link', { name: /support@/ })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Tillpoint on Facebook' })).toBeVisible();
    const currency = footer.getByLabel('Currency');
    await expect(currency).toHaveValue('SGD');
    // Each currency by its name and symbol (spec: a currency has a symbol and a name).
    await expect(currency.locator('option[value="SGD"]')).toHaveText('Singapore dollar (S$)');
    await expect(currency.locator('option[value="HKD"]')).toHaveText('Hong Kong dollar (HK$)');
    // The selector is React's: it acts once the page has hydrated.
    await hydrated(page, '#currency-select');
    await currency.selectOption('HKD');
    await expect(currency).toHaveValue('HKD');
    await expect
      .poll(async () => (await page.context().cookies(baseURL)).find((c) => c.name === 'currency')?.value)
      .toBe('HKD');
    await page.reload();
    await expect(page.getByTestId('microsite-footer').getByLabel('Currency')).toHaveValue('HKD');
    await expect(page).toHaveURL('/en/campaign/sg23');
  });

  test('answers 404 for a campaign that does not exist', async ({ page }) => {
    const response = await page.goto('/zh-hk/campaign/nothing');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('找不到此頁面');
    await expect(page.getByTestId('microsite-footer')).toBeVisible();
  });
});
