import { test as base, expect, type Locator, type Page, type Response } from '@playwright/test';
import { href } from 'react-router';
import { users, type DemoUser } from './users.ts';

/** Every page path the app declares (from React Router's generated types). */
type PagePath = Parameters<typeof href>[0];
/** A path and, when it has any, its params, checked against the route config. */
type PageArgs<Path extends PagePath> = Parameters<typeof href<Path>>;

interface SignedInUser {
  _id: string;
  email: string;
  name?: string | null;
  role: string;
}

interface Fixtures {
  /**
   * Console errors a test expects (the browser logs one for every 4xx/5xx response, e.g. a 404
   * page); anything else logged with console.error, and any uncaught page error, fails the test.
   */
  allowedConsoleErrors: RegExp[];
  /** Opens a page of the app by its route path, e.g. `navigate('/:lang/portal', { lang: 'en' })`. */
  navigate: <Path extends PagePath>(...args: PageArgs<Path>) => Promise<Response | null>;
  /** Signs the browser in as a demo user through the API (no login form), like a returning visitor. */
  login: (user?: DemoUser) => Promise<SignedInUser>;
}

export const SESSION_COOKIE = 'tp_session';

/**
 * Waits until React has hydrated the element (React keeps its props on each element it owns).
 * What happens before that is the server's HTML, where handlers added by effects do not run yet.
 */
export async function hydrated(page: Page, selector = 'main'): Promise<void> {
  // A page mostly read (the home page, the feature list) starts its scripts at the visitor's first
  // interaction: the pointer moving over it is one.
  await page.mouse.move(3, 3);
  await page.mouse.move(1, 1);
  // React keeps its props on an element as it renders it, before committing the page: the root
  // layout's mark, set at the commit, says the page's handlers are live.
  await page.waitForFunction((css) => {
    const element = document.querySelector(css);
    return (
      document.documentElement.hasAttribute('data-hydrated') &&
      element !== null &&
      Object.keys(element).some((key) => key.startsWith('__reactProps'))
    );
  }, selector);
}

/** Whether the root layout has marked the page hydrated (`data-hydrated` on `<html>`). */
export function isHydrated(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.hasAttribute('data-hydrated'));
}

/**
 * Holds back the page's entry script until `release()`, so that what the test does first happens
 * on the server's HTML, before the page hydrates (as a visitor on a slow connection would).
 */
export async function holdScripts(page: Page): Promise<{ release: () => void }> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    await gate;
    await route.continue();
  });
  return { release };
}

/** The theme the visitor chose, everywhere it shows: the page's class, the toggle and storage. */
export async function expectChosenTheme(page: Page, toggle: Locator, theme: 'dark' | 'light'): Promise<void> {
  const html = page.locator('html');
  if (theme === 'dark') await expect(html).toHaveClass(/\bdark\b/);
  else await expect(html).not.toHaveClass(/\bdark\b/);
  await expect(toggle).toHaveAttribute('aria-pressed', theme === 'dark' ? 'true' : 'false');
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe(theme);
}

export const test = base.extend<Fixtures>({
  allowedConsoleErrors: [[], { option: true }],

  context: async ({ context, allowedConsoleErrors }, use) => {
    const problems: string[] = [];
    context.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (allowedConsoleErrors.some((pattern) => pattern.test(text))) return;
      const { url, lineNumber } = message.location();
      problems.push(`console.error: ${text}${url ? ` (${url}:${lineNumber})` : ''}`);
    });
    context.on('weberror', (webError) => {
      const error = webError.error();
      problems.push(`page error: ${error.stack ?? error.message}`);
    });
    await use(context);
    expect(problems, 'unexpected console.error or page error').toEqual([]);
  },

  navigate: async ({ page }, use) => {
    await use((...args) => page.goto(href(...args)));
  },

  login: async ({ page, baseURL }, use) => {
    await use(async (user = users.owner) => {
      const response = await page.request.post('/api/authentication', {
        data: { strategy: 'local', email: user.email, password: user.password },
      });
      expect(response.status(), `signing in ${user.email} through the API`).toBe(201);
      const body = (await response.json()) as { accessToken: string; user: SignedInUser };
      await page
        .context()
        .addCookies([{ name: SESSION_COOKIE, value: body.accessToken, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
      return body.user;
    });
  },
});

export { expect };

/** Signs in through the login form as a person does, finding its fields and button by their words in the page's language. */
export async function submitLoginForm(
  page: Page,
  words: { email: string; password: string; submit: string },
  user: { email: string; password: string },
): Promise<void> {
  await hydrated(page);
  await page.getByLabel(words.email, { exact: true }).fill(user.email);
  await page.getByLabel(words.password, { exact: true }).fill(user.password);
  await page.getByRole('button', { name: words.submit, exact: true }).click();
}
