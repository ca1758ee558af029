/**
 * Fixtures of the cross-engine projects (`webkit`, `firefox` in playwright.config.ts): the
 * Playwright runner, with the browser driven by an npm WebDriver client (engines.ts) instead of
 * Playwright's own. A test opens tabs with `openTab`; whatever a page of them reports as going
 * wrong (error-proxy.ts) fails the test, as in the Chromium suite.
 */
import { test as base, expect } from '@playwright/test';
import { engineMissing, launchEngine, type Engine, type EngineName, type EngineTab, type Json } from './engines.ts';
import { startErrorProxy, type PageProblem } from './error-proxy.ts';
import { proxyPortVariable } from './packages.ts';

const CI = process.env.CI === 'true';

/** A phone (an iPhone 14/15's CSS pixels) and a desktop: the widths of the support policy's tests. */
export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 900 } as const;

export const LANGUAGES = ['en', 'zh-hk', 'zh-cn'] as const;

interface TabRequest {
  width?: number;
  height?: number;
  /** false: the page's own scripts are off. Default true. */
  scripts?: boolean;
}

interface WorkerFixtures {
  /** Which engine the project drives (set by the project in playwright.config.ts). */
  engine: EngineName;
  /** The engine, started once per worker on first use. */
  launchedEngine: () => Promise<Engine>;
}

interface TestFixtures {
  /** Problems a test expects from its pages (by their text); anything else fails it. */
  allowedProblems: RegExp[];
  /** Opens a tab on the site in this project's engine; every tab is closed after the test. */
  openTab: (request?: TabRequest) => Promise<EngineTab>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  engine: ['webkit', { option: true, scope: 'worker' }],

  launchedEngine: [
    async ({ engine }, use) => {
      let launched: Promise<Engine> | undefined;
      await use(() => (launched ??= launchEngine(engine)));
      if (launched) await (await launched).close();
    },
    { scope: 'worker' },
  ],

  // WebKit and Firefox end a page's fetches when it leaves the page, and React Router logs a
  // route-discovery fetch that a navigation cut short (WebKit's "Load failed", Firefox's
  // "NetworkError", or Firefox's "AbortError" when the navigation aborts it: no answer at all,
  // never an HTTP error). A discovery answer that did come back wrong says otherwise and still fails the test.
  allowedProblems: [
    [
      /^Failed to fetch manifest patches (TypeError: (Load failed|NetworkError when attempting to fetch resource\.)|AbortError: The operation was aborted\. ?)$/,
    ],
    { option: true },
  ],

  openTab: async ({ engine, launchedEngine, baseURL, allowedProblems }, use, testInfo) => {
    const missing = engineMissing(engine);
    // In CI every engine runs (.ci/run installs them); locally one that is absent is skipped, and says why.
    if (missing && CI) throw new Error(`The ${engine} tests must run in CI: ${missing}`);
    testInfo.skip(missing !== undefined, `${engine} is not installed here (${missing})`);

    // One test at a time per engine (one worker each): the engine's port is free again by now.
    const proxy = await startErrorProxy(baseURL ?? '', Number(process.env[proxyPortVariable(engine)] ?? 0));
    const tabs: EngineTab[] = [];
    await use(async ({ width = PHONE.width, height = PHONE.height, scripts = true } = {}) => {
      const tab = await (await launchedEngine()).open({ origin: proxy.origin, width, height, scripts });
      tabs.push(tab);
      return tab;
    });

    try {
      // The last page of each tab may still have reports on their way: wait until they have come.
      for (const tab of tabs) {
        const sent = await tab.evaluate(() => window.__problems).catch(() => undefined);
        if (sent)
          await expect.poll(() => proxy.received(sent.load), { timeout: 10_000 }).toBeGreaterThanOrEqual(sent.sent);
      }
    } finally {
      await Promise.all(tabs.map((tab) => tab.close()));
      await proxy.close();
    }
    const problems = proxy.take().filter((problem) => !allowedProblems.some((pattern) => pattern.test(problem.text)));
    expect(
      problems.map(describeProblem),
      'unexpected page error, console.error, failed resource or CSP violation',
    ).toEqual([]);
  },
});

function describeProblem({ page, kind, text }: PageProblem): string {
  return `${page}: ${kind}: ${text}`;
}

/**
 * Waits, generously (engines on a busy 2-core machine), until the function returns true in the
 * page. A page between two documents (a link followed, a form posted) cannot answer: that counts
 * as not yet, and says why if it lasts.
 */
export async function until<Args extends Json[]>(
  tab: EngineTab,
  what: string,
  fn: (...args: Args) => boolean,
  ...args: Args
): Promise<void> {
  const answer = () => tab.evaluate(fn, ...args).catch((error: unknown) => `no answer: ${String(error)}`);
  await expect.poll(answer, { message: what, timeout: 20_000 }).toBe(true);
}

/** The page's path, query and fragment. */
export function location(tab: EngineTab): Promise<string> {
  return tab.evaluate(() => window.location.pathname + window.location.search + window.location.hash);
}

/**
 * Starts a page's scripts if they wait for an interaction (the pointer moving is one), and waits
 * until React has hydrated it (the root layout's mark).
 */
export async function hydrate(tab: EngineTab): Promise<void> {
  await tab.movePointer(3, 3);
  await tab.movePointer(1, 1);
  await until(tab, 'the page has hydrated', () => document.documentElement.hasAttribute('data-hydrated'));
}

/**
 * Signs in through the login form, asked for on the way to `path` (`/login?from=`), as a visitor
 * sent to sign in would; the caller waits for what `path` shows.
 */
export async function logInOnTheWayTo(
  tab: EngineTab,
  path: string,
  user: { email: string; password: string },
): Promise<void> {
  const lang = path.split('/')[1] ?? 'en';
  await tab.goto(`/${lang}/login?from=${encodeURIComponent(path)}`);
  await hydrate(tab);
  await tab.fill('#email', user.email);
  await tab.fill('#password', user.password);
  await tab.click('main form button[type="submit"]');
}

export { expect };
