import { bothThemesViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { users } from './users.ts';

/*
 * The API's reference for developers (decision 058): reached from every public page's footer; drawn
 * by Redoc from our own origin where scripts run (searched as you type, in the site's themes), read
 * and searched with a plain form where they do not; a visitor reads what a visitor may call, staff
 * the staff's services too.
 */

test.describe('the API reference', () => {
  test('is linked from the footer, and drawn by the renderer from our own origin', async ({
    page,
    navigate,
    baseURL,
  }) => {
    const origin = new URL(baseURL ?? '').origin;
    const foreign: string[] = [];
    const errors: string[] = [];
    const documents: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/openapi.json') documents.push(request.method());
      if (url.origin !== origin && url.protocol !== 'data:' && url.protocol !== 'blob:') foreign.push(url.href);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await navigate('/:lang/pricing', { lang: 'en' });
    await page.getByTestId('site-footer').getByRole('link', { name: 'Developers: API reference' }).click();
    await expect(page).toHaveURL(/\/en\/developers\/api$/);
    await expect(page).toHaveTitle(/API reference/);
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
    await expect(page.getByRole('link', { name: /The OpenAPI document/ })).toHaveAttribute('href', '/api/openapi.json');
    const scripts = await page
      .locator('script[src]')
      .evaluateAll((all) => all.map((s) => (s as HTMLScriptElement).src));
    // The renderer's starter, from /assets; no framework script.
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/\/assets\/start-renderer-[\w-]+\.js$/);
    const renderer = page.getByTestId('api-renderer');
    // Drawn in a few seconds (decision 058 has the figures); more only on a machine under load.
    await expect(page.locator('html')).toHaveAttribute('data-reference-ready', '', { timeout: 20_000 });
    await expect(renderer).toBeVisible();
    const bundle = await renderer.getAttribute('data-renderer');
    expect(bundle).toMatch(/^\/assets\/redoc\.standalone-[\w-]+\.js$/);
    // The bundle goes brotli-compressed and is kept for good (its name changes with its content).
    const sent = await page.request.get(bundle ?? '', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(sent.headers()['content-encoding']).toBe('br');
    expect(sent.headers()['cache-control']).toContain('immutable');
    // How long the renderer took to draw, from the page's start (decision 058 has the figures).
    const drawn = await page.evaluate(() => performance.getEntriesByName('api-reference-drawn')[0]?.startTime);
    expect(drawn).toBeGreaterThan(0);
    test.info().annotations.push({ type: 'drawn after', description: `${Math.round(drawn ?? 0)} ms` });
    // The server's own rendering gives way to it.
    await expect(page.getByRole('searchbox', { name: 'Search the services' })).toBeHidden();
    await expect(renderer.getByText('industries', { exact: true }).first()).toBeVisible();
    // A visitor is not shown the staff's services.
    await expect(renderer.getByText('auditLogs', { exact: true })).toHaveCount(0);
    // Searched as you type (Ctrl+K opens the search); the first result leads to its service.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('deliveryDates');
    await expect(page.locator('input:focus')).toHaveValue('deliveryDates');
    // The results are drawn outside the sidebar, which has its own link to every service.
    await page.locator('a[href*="deliverydates"]:not(#api-reference a)').first().click();
    await expect(page).toHaveURL(/#\/deliverydates/);
    // The document came once, from the API (the head's preload, which the starter's fetch reuses).
    expect(documents).toEqual(['GET']);
    // Nothing asked another origin (Redoc's own logo included), and nothing was logged as an error.
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('on a phone, its menu button and the chat button keep apart, and the reference starts under its heading', async ({
    page,
    navigate,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await navigate('/:lang/developers/api', { lang: 'en' });
    await expect(page.locator('html')).toHaveAttribute('data-reference-ready', '', { timeout: 20_000 });
    const menu = await page.getByTestId('floating-button').boundingBox();
    const chat = await page.getByTestId('chat-button').boundingBox();
    if (!menu || !chat) throw new Error('the menu or the chat button is not shown');
    const overlap =
      menu.x < chat.x + chat.width &&
      chat.x < menu.x + menu.width &&
      menu.y < chat.y + chat.height &&
      chat.y < menu.y + menu.height;
    expect(overlap).toBe(false);
    // No blank band above the reference's title (its icon sprite takes no room).
    const renderer = await page.getByTestId('api-renderer').boundingBox();
    const title = await page.getByTestId('api-renderer').getByRole('heading', { level: 1 }).first().boundingBox();
    expect((title?.y ?? Infinity) - (renderer?.y ?? 0)).toBeLessThan(80);
  });

  test('is searched with a plain form where scripts do not run', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto('/en/developers/api');
    await expect(page.getByRole('heading', { name: 'industries', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'auditLogs', exact: true })).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Search the services' }).fill('deliveryDates');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\?q=deliveryDates$/);
    await expect(page.getByTestId('reference-service')).toHaveCount(1);
    await expect(page.getByRole('heading', { name: 'deliveryDates', exact: true })).toBeVisible();
    await context.close();
  });

  test('is in every language', async ({ page, navigate }) => {
    await navigate('/:lang/developers/api', { lang: 'zh-hk' });
    await expect(page.getByRole('heading', { level: 1, name: 'API 參考' })).toBeVisible();
    await navigate('/:lang/developers/api', { lang: 'zh-cn' });
    await expect(page.getByRole('heading', { level: 1, name: 'API 参考' })).toBeVisible();
  });

  test('shows staff the staff’s services', async ({ page, navigate, login }) => {
    await login(users.admin);
    await navigate('/:lang/developers/api', { lang: 'en' });
    // The page carries no copy of the document: the renderer reads the admin's from the API, with
    // the page's session cookie (the page's own request context sends it).
    await expect(page.locator('script[type="application/json"]')).toHaveCount(0);
    const renderer = page.getByTestId('api-renderer');
    await expect(renderer).toHaveAttribute('data-document', '/api/openapi.json');
    const sent = await page.request.get('/api/openapi.json');
    expect(sent.status()).toBe(200);
    expect(Object.keys(((await sent.json()) as { paths: object }).paths)).toContain('/api/auditLogs');
    // The server's rendering shows them from the first paint, before the renderer has drawn.
    await expect(page.getByText('auditLogs', { exact: true }).first()).toBeVisible();
  });

  test('follows the site’s theme, and passes axe in both themes', async ({ page, navigate }) => {
    // axe runs twice over Redoc's whole page: 21 to 35 s on the 2-core machine under other tests' load.
    test.setTimeout(60_000);
    await navigate('/:lang/developers/api', { lang: 'en' });
    const renderer = page.getByTestId('api-renderer');
    await expect(page.locator('html')).toHaveAttribute('data-reference-ready', '', { timeout: 20_000 });
    await expect(renderer.getByText('industries', { exact: true }).first()).toBeVisible();
    // The site's toggle turns the renderer dark too (its colours follow the `dark` class).
    const background = () =>
      renderer
        .locator('h1')
        .first()
        .evaluate((heading) => getComputedStyle(heading).color);
    const light = await background();
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect.poll(background).not.toBe(light);
    await page.getByRole('button', { name: /theme/ }).click();
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    // The choice forgotten: the page follows the system's scheme again, as axe's helper sets it.
    await page.evaluate(() => localStorage.removeItem('theme'));
    expect(await bothThemesViolations(page)).toEqual([]);
  });
});
