import type { Page } from '@playwright/test';
import { expect, hydrated, isHydrated, test } from './fixtures.ts';
import { startExtraServer, type ExtraServer } from './extra-server.ts';

type DataLayer = Record<string, unknown>[];
const pageViews = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: DataLayer }).dataLayer ?? []).filter((entry) => entry.event === 'pageview'),
  );

test('without a tag manager id, no third-party script loads and nothing is pushed', async ({ page, baseURL }) => {
  const hosts = new Set<string>();
  page.on('request', (request) => hosts.add(new URL(request.url()).origin));
  await page.goto('/en');
  await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL('/en/login');
  await page.waitForTimeout(400);
  expect([...hosts]).toEqual([baseURL]);
  expect(await page.evaluate(() => 'dataLayer' in window)).toBe(false);
});

test.describe('with a tag manager id', () => {
  let server: ExtraServer;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    server = await startExtraServer({ GTM_ID: 'GTM-TEST123' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('loads the tag manager and pushes a page view 250 ms after each route change', async ({ page }) => {
    const loaded: string[] = [];
    // The tag manager itself is not reachable from here: a stand-in answers for it.
    await page.route('https://www.googletagmanager.com/**', (route) => {
      loaded.push(route.request().url());
      return route.fulfill({ contentType: 'text/javascript', body: 'window.__tagManager = true;' });
    });
    // Times, in the page, of each client-side route change and each page view pushed.
    await page.addInitScript(() => {
      const times: { route: number[]; push: number[] } = { route: [], push: [] };
      (window as unknown as { __times: typeof times }).__times = times;
      const pushState = history.pushState.bind(history);
      history.pushState = (...args: Parameters<History['pushState']>) => {
        times.route.push(performance.now());
        pushState(...args);
      };
      const layer: DataLayer = [];
      const push = layer.push.bind(layer);
      layer.push = (...entries: DataLayer) => {
        if (entries.some((entry) => entry.event === 'pageview')) times.push.push(performance.now());
        return push(...entries);
      };
      (window as unknown as { dataLayer: DataLayer }).dataLayer = layer;
    });
    await page.goto(`${server.url}/zh-hk`);
    await expect.poll(() => loaded).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-TEST123']);
    // The document's page view comes from its inline script: the home page has not hydrated (its
    // scripts wait for an interaction), and is counted all the same.
    await expect
      .poll(() => pageViews(page))
      .toEqual([expect.objectContaining({ event: 'pageview', page_path: '/zh-hk', language: 'zh-hk' })]);
    expect(await isHydrated(page)).toBe(false);
    // Hydrating does not count the same view again.
    await hydrated(page);
    await page.waitForTimeout(400);
    expect(await pageViews(page)).toHaveLength(1);

    await page.getByRole('banner').getByRole('link', { name: '登入' }).click();
    await expect(page).toHaveURL(`${server.url}/zh-hk/login`);
    await expect.poll(async () => (await pageViews(page)).length).toBe(2);
    const times = await page.evaluate(
      () => (window as unknown as { __times: { route: number[]; push: number[] } }).__times,
    );
    expect(times.route).toHaveLength(1);
    // Pushed no sooner than 250 ms after the route changed.
    expect(times.push[1]! - times.route[0]!).toBeGreaterThanOrEqual(250);
    expect((await pageViews(page))[1]).toMatchObject({ page_path: '/zh-hk/login', language: 'zh-hk' });
  });

  test('a page without scripts loads the tag manager and pushes its page view once, from its inline script', async ({
    page,
  }) => {
    const loaded: string[] = [];
    await page.route('https://www.googletagmanager.com/**', (route) => {
      loaded.push(route.request().url());
      return route.fulfill({ contentType: 'text/javascript', body: 'window.__tagManager = true;' });
    });
    await page.goto(`${server.url}/zh-cn/blogs?category=payments`);
    await expect.poll(() => loaded).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-TEST123']);
    await expect
      .poll(() => pageViews(page))
      .toEqual([
        expect.objectContaining({
          event: 'pageview',
          page_path: '/zh-cn/blogs?category=payments',
          language: 'zh-cn',
          page_title: expect.any(String),
        }),
      ]);
    await page.waitForTimeout(400);
    expect(await pageViews(page)).toHaveLength(1);
  });
});
