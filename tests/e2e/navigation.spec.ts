import { expect, hydrated, test } from './fixtures.ts';

/*
 * A visitor who follows a second link before the first page has loaded overtakes the first
 * navigation. The router aborts it; that is no error of the page's (the fixture fails the test on
 * any page error or console error).
 */
test('a link followed while another page still loads wins, and the overtaken one is no page error', async ({
  page,
}) => {
  await page.goto('/en');
  await hydrated(page);
  // The next pages' code and data are held back, so the first navigation is still loading when
  // the second begins.
  let held = 0;
  await page.route(/(\.data(\?|$)|\/assets\/.+\.js$)/, async (route) => {
    held += 1;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue().catch(() => undefined);
  });
  await page.evaluate(() => (document.querySelector('a[href="/en/pricing"]') as HTMLAnchorElement | null)?.click());
  await page.evaluate(() => (document.querySelector('a[href="/en/blogs"]') as HTMLAnchorElement | null)?.click());
  // Each held request waits 1.5 s, and the blog page's route, data and code come one after another.
  await expect(page).toHaveURL(/\/en\/blogs$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(held).toBeGreaterThanOrEqual(1);
});

/*
 * A form's data reloading after its answer (a fetcher) is aborted when the visitor moves on before
 * it ends; nobody awaits that promise, so its AbortError reaches the page unhandled. The page lets
 * an abort go and nothing else.
 */
test('an aborted load nobody awaits is no page error', async ({ page }) => {
  await page.goto('/en/pricing');
  await hydrated(page);
  // The page's own listener runs first; this one, added later, sees what it did with each.
  const seen = await page.evaluate(async () => {
    const events: [string, boolean][] = [];
    window.addEventListener('unhandledrejection', (event) => {
      events.push([(event.reason as Error).name, event.defaultPrevented]);
      event.preventDefault();
    });
    const controller = new AbortController();
    controller.abort();
    void Promise.reject(controller.signal.reason);
    void Promise.reject(new TypeError('a real fault'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    return events;
  });
  expect(seen).toEqual([
    ['AbortError', true],
    ['TypeError', false],
  ]);
});
