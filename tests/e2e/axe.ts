import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** Every WCAG 2.1 A and AA rule, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * Whether a frame's document may come from another origin than the page's. An `about:` frame is
 * the page's own; a frame whose address is not yet known (still loading) may be anyone's.
 */
function crossOrigin(page: Page): boolean {
  const origin = new URL(page.url()).origin;
  return page.frames().some((frame) => {
    const url = frame.url();
    if (url.startsWith('about:')) return false;
    return !URL.canParse(url) || new URL(url).origin !== origin;
  });
}

/**
 * axe on a page, or on the part `scope` selects, answering its violations alone.
 *
 * axe's default run collects every result of every frame, then finishes in a blank page it opens
 * for the purpose: what makes frames of other origins checkable. A page whose frames are all its
 * own gives the same violations to one run in the page itself, without the passes' details, in a
 * third to a half of the time (measured on the feature list, a product page and the blog list).
 * A page with a frame of another origin (the payment sandbox's card fields) keeps the default run.
 */
export function axe(page: Page, scope?: string): AxeBuilder {
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  if (!crossOrigin(page)) builder.setLegacyMode(true);
  return scope ? builder.include(scope) : builder;
}

/**
 * axe on a page, or on a part of it: every rule of `AXE_TAGS` in the light theme, then the colour
 * rules again in the dark one; the page is left in the light theme.
 * Answers the violations as `{ rule, nodes }` (the first five nodes), so a failure names them.
 */
export async function bothThemesViolations(page: Page, scope?: string): Promise<{ rule: string; nodes: string[] }[]> {
  const light = await axe(page, scope).withTags(AXE_TAGS).analyze();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  const dark = await axe(page, scope).withRules(['color-contrast', 'link-in-text-block']).analyze();
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  return [...light.violations, ...dark.violations].map((violation) => ({
    rule: violation.id,
    nodes: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
  }));
}
