import type { Page } from '@playwright/test';
import { HTML_LANG } from '../../domain/locales.ts';
import { expect, expectChosenTheme, hydrated, test } from './fixtures.ts';

/**
 * Pages that need no interaction beyond links are sent as HTML and CSS only (decision 012,
 * addendum): no script file, no module script, no module preload, no hydration. Each is checked
 * in two languages, by what shows that its own content is there.
 */
const staticPages = [
  { path: '/tillpointRestaurant', langs: ['en', 'zh-hk'], content: (page: Page) => page.getByTestId('plans') },
  { path: '/tillpointStore', langs: ['zh-cn', 'en'], content: (page: Page) => page.getByTestId('add-ons') },
  { path: '/tillpointPay', langs: ['zh-hk', 'zh-cn'], content: (page: Page) => page.getByTestId('payment-methods') },
  { path: '/terms', langs: ['en', 'zh-hk'], content: (page: Page) => page.getByTestId('terms-toc') },
  { path: '/graph', langs: ['zh-hk', 'zh-cn'], content: (page: Page) => page.getByTestId('scale') },
  { path: '/advancedFeature', langs: ['zh-cn', 'en'], content: (page: Page) => page.getByTestId('modules') },
  { path: '/usecase', langs: ['en', 'zh-cn'], content: (page: Page) => page.locator('#industries') },
  { path: '/usecase/restaurant', langs: ['zh-hk', 'en'], content: (page: Page) => page.getByTestId('industry-items') },
  { path: '/usecase/restaurant/food', langs: ['zh-cn', 'zh-hk'], content: (page: Page) => page.locator('main h1') },
  { path: '/blogs', langs: ['en', 'zh-hk'], content: (page: Page) => page.getByTestId('blog-list') },
  { path: '/blogs?category=payments', langs: ['zh-cn', 'en'], content: (page: Page) => page.getByTestId('blog-list') },
  {
    path: '/blogs/kitchen-display-systems-explained',
    langs: ['en', 'zh-cn'],
    content: (page: Page) => page.getByTestId('blog-body'),
  },
] as const;

/** Every script file the page asks for, from this server's build. */
function watchScripts(page: Page): string[] {
  const requested: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) requested.push(url.pathname);
  });
  return requested;
}

for (const { path, langs, content } of staticPages) {
  test(`${path} is plain HTML and CSS in ${langs.join(' and ')}`, async ({ page }) => {
    const scripts = watchScripts(page);
    for (const lang of langs) {
      const response = await page.goto(`/${lang}${path}`);
      expect(response?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(content(page)).toBeVisible();
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      await page.waitForLoadState('load');
      expect(scripts).toEqual([]);
      await expect(page.locator('script[type="module"]')).toHaveCount(0);
      await expect(page.locator('script[src]')).toHaveCount(0);
      await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);
      expect(await page.evaluate(() => '__reactRouterContext' in window)).toBe(false);
    }
  });
}

test.describe('the theme toggle on a page without scripts', () => {
  test.use({ colorScheme: 'light' });
  for (const { url, name, toLight } of [
    { url: '/en/terms', name: 'Dark theme', toLight: 'Switch to the light theme' },
    { url: '/zh-hk/blogs/kitchen-display-systems-explained', name: '深色主題', toLight: '切換至淺色主題' },
  ]) {
    test(`switches the theme on ${url} and is remembered on the next load`, async ({ page }) => {
      await page.goto(url);
      const toggle = page.getByRole('button', { name });
      await expect(toggle).toHaveAttribute('aria-pressed', 'false');
      await toggle.click();
      await expectChosenTheme(page, toggle, 'dark');
      await expect(page.locator('html')).toHaveCSS('color-scheme', 'dark');
      await expect(toggle).toHaveAttribute('title', toLight);

      await page.reload();
      await expect(page.locator('html')).toHaveClass(/\bdark\b/);
      await expect(toggle).toHaveAttribute('aria-pressed', 'true');
      await toggle.click();
      await expectChosenTheme(page, toggle, 'light');
    });
  }

  test('follows the system while the visitor has not chosen', async ({ page }) => {
    await page.goto('/zh-cn/graph');
    const toggle = page.getByRole('button', { name: '深色主题' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });
});

test('the back-to-top link appears past half a window and takes the visitor up, with focus', async ({ page }) => {
  await page.goto('/en/terms');
  const link = page.getByRole('link', { name: 'Back to top' });
  await expect(link).toBeHidden();
  await page.evaluate(() => window.scrollTo(0, window.innerHeight * 0.4));
  await expect(link).toBeHidden();
  await page.evaluate(() => window.scrollTo(0, window.innerHeight * 0.6 + 10));
  await expect(link).toBeVisible();
  await link.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(link).toBeHidden();
  await expect(page.locator('#top')).toBeFocused();
  // The URL stays the page's own: no `#top` left behind.
  await expect(page).toHaveURL('/en/terms');
});

test('a language link remembers the chosen language, as on a hydrated page', async ({ page, context }) => {
  await page.goto('/en/graph');
  await page.getByRole('contentinfo').getByRole('link', { name: '繁體中文' }).click();
  await expect(page).toHaveURL('/zh-hk/graph');
  const cookie = (await context.cookies()).find((candidate) => candidate.name === 'i18n_redirected');
  expect(cookie?.value).toBe('zh-hk');
});

test.describe('on a narrow screen', () => {
  test.use({ viewport: { width: 390, height: 800 } });
  test('the drawer opens and closes without scripts', async ({ page }) => {
    await page.goto('/en/usecase');
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(drawer).toBeVisible();
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
  });
});

test('the use-case menu opens and leads to its pages', async ({ page }) => {
  await page.goto('/en/blogs');
  await page.getByRole('banner').locator('summary', { hasText: 'Use cases' }).click();
  await page.getByRole('banner').getByRole('link', { name: 'Restaurants' }).click();
  await expect(page).toHaveURL('/en/usecase/restaurant');
  await expect(page.getByTestId('industry-items')).toBeVisible();
});

test('a hydrated page still loads its scripts, and a static page reached from it works as a hydrated one', async ({
  page,
}) => {
  const scripts = watchScripts(page);
  const response = await page.goto('/en');
  // The markup as sent, with the scripts held back until the page has loaded.
  const html = (await response?.text()) ?? '';
  expect(html).toMatch(/<script [^>]*data-type="module"/);
  expect(html).toMatch(/<link data-rel="modulepreload"/);
  await hydrated(page);
  expect(scripts.length).toBeGreaterThan(0);

  // A client-side navigation: the blog list renders in the running app, whose toggle is React's.
  await page.getByRole('banner').getByRole('link', { name: 'Blog' }).click();
  await expect(page).toHaveURL('/en/blogs');
  await expect(page.getByTestId('blog-list')).toBeVisible();
  await hydrated(page);
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
});

test.describe('an error page on a route without scripts', () => {
  test.use({ allowedConsoleErrors: [/status of 404/] });
  test('keeps its scripts, as every error page does', async ({ page }) => {
    const response = await page.goto('/zh-hk/blogs/no-such-article');
    expect(response?.status()).toBe(404);
    expect((await response?.text()) ?? '').toMatch(/<script [^>]*data-type="module"/);
    await hydrated(page);
  });
});

test.describe('with JavaScript disabled, a page without scripts', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 800 } });
  test("leads from its menu to the footer's pages and language links, and offers the chat", async ({ page }) => {
    await page.goto('/zh-hk/terms');
    await page.getByRole('banner').getByRole('link', { name: '選單', exact: true }).click();
    await expect(page).toHaveURL('/zh-hk/terms#site-map');
    const footer = page.getByTestId('site-footer');
    await expect(footer.getByRole('link', { name: '行業應用' })).toBeInViewport();
    await expect(page.getByTestId('chat-button')).toHaveAttribute('href', /^https:\/\//);
    await footer.getByRole('link', { name: 'English' }).click();
    await expect(page).toHaveURL('/en/terms');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms and conditions');
  });
});

test.describe('with JavaScript disabled, on a wide screen', () => {
  test.use({ javaScriptEnabled: false });
  test('the use-case menu opens and closes by its summary', async ({ page }) => {
    await page.goto('/en/graph');
    const summary = page.getByRole('banner').locator('summary', { hasText: 'Use cases' });
    const retail = page.getByRole('banner').getByRole('link', { name: 'Retail Stores' });
    await summary.click();
    await expect(retail).toBeVisible();
    await summary.click();
    await expect(retail).toBeHidden();
    await summary.click();
    await retail.click();
    await expect(page).toHaveURL('/en/usecase/retail');
  });
});
