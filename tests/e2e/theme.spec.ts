import type { Page } from '@playwright/test';
import { expect, expectChosenTheme, holdScripts, hydrated, test } from './fixtures.ts';

/**
 * Records, before any page script runs, whether <html> had the dark class at the moment <body>
 * was inserted: the first paint comes after that, so a wrong value there is a flash.
 */
async function watchFirstPaint(page: Page) {
  await page.addInitScript(() => {
    const record = window as unknown as { __themeAtBody?: string[] };
    record.__themeAtBody = [];
    new MutationObserver((mutations, observer) => {
      for (const mutation of mutations) {
        for (const node of mutation.addedNodes) {
          if (node.nodeName === 'BODY') {
            record.__themeAtBody!.push(document.documentElement.classList.contains('dark') ? 'dark' : 'light');
            observer.disconnect();
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}
const themeAtBody = (page: Page) =>
  page.evaluate(() => (window as unknown as { __themeAtBody: string[] }).__themeAtBody);
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

for (const lang of ['en', 'zh-hk', 'zh-cn'] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test.describe(`a ${scheme} system in ${lang}`, () => {
      test.use({ colorScheme: scheme });
      test('gets that theme before the first paint', async ({ page }) => {
        await watchFirstPaint(page);
        await page.goto(`/${lang}`);
        expect(await themeAtBody(page)).toEqual([scheme]);
        expect(await background(page)).toBe(scheme === 'dark' ? 'rgb(11, 20, 19)' : 'rgb(255, 255, 255)');
      });
    });
  }
}

test.describe('a chosen theme', () => {
  test.use({ colorScheme: 'light' });
  test('is switched by the toggle, remembered, and wins over the system on the next load', async ({ page }) => {
    await page.goto('/en/login');
    const toggle = page.getByRole('button', { name: 'Dark theme' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(page.locator('html')).toHaveClass(/dark/);
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

    await watchFirstPaint(page);
    await page.goto('/zh-hk');
    expect(await themeAtBody(page)).toEqual(['dark']);
    await expect(page.getByRole('button', { name: '深色主題' })).toHaveAttribute('aria-pressed', 'true');

    await page.getByRole('button', { name: '深色主題' }).click();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    // The visitor chose light: a dark system no longer decides.
    await expect(page.locator('html')).not.toHaveClass(/dark/);
  });

  test('is switched before the page has hydrated, and React takes over from there', async ({ page }) => {
    const scripts = await holdScripts(page);
    await page.goto('/zh-cn/pricing');
    const toggle = page.getByRole('button', { name: '深色主题' });
    await toggle.click();
    await expectChosenTheme(page, toggle, 'dark');

    scripts.release();
    await hydrated(page);
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    // One click, one switch: the inline script has given way to React.
    await toggle.click();
    await expectChosenTheme(page, toggle, 'light');
  });

  test('follows the system while the visitor has not chosen', async ({ page }) => {
    await page.goto('/en');
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    // The page listens to the system's scheme once React has hydrated it.
    await hydrated(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveClass(/dark/);
  });
});
