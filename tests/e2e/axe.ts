import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * axe on a page, or on a part of it: every WCAG 2.1 A and AA rule and axe's best practices in the
 * light theme, then the colour rules again in the dark one; the page is left in the light theme.
 * Answers the violations as `{ rule, nodes }` (the first five nodes), so a failure names them.
 */
export async function bothThemesViolations(page: Page, scope?: string): Promise<{ rule: string; nodes: string[] }[]> {
  const builder = () => (scope ? new AxeBuilder({ page }).include(scope) : new AxeBuilder({ page }));
  const light = await builder().withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  const dark = await builder().withRules(['color-contrast', 'link-in-text-block']).analyze();
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  return [...light.violations, ...dark.violations].map((violation) => ({
    rule: violation.id,
    nodes: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
  }));
}
