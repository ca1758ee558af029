/**
 * End-to-end tests in Debian's Chromium against a production build (`npx playwright test`), and a
 * focused cross-engine suite (tests/e2e/engines) in Debian's WebKitGTK and Firefox ESR
 * (`npx playwright test --project webkit --project firefox`; decision 016).
 *   E2E_DATABASE_URL  run the server on this PostgreSQL instead of a fresh embedded PGlite
 *   E2E_BASE_URL      test a server that is already running (no build, no web server)
 *   E2E_SKIP_BUILD=1  reuse the current build/ (quicker reruns while writing tests)
 *   E2E_LOG_LEVEL     the server's log level (default warn)
 *   E2E_TRACE=1       keep a trace of each failing test (recording one for every test costs about a
 *                     fifth of the suite's time, so it is off unless asked for)
 */
import { defineConfig, devices } from '@playwright/test';
import type { EngineName } from './tests/e2e/engines/engines.ts';
import { ENGINE_FILES, proxyPortVariable } from './tests/e2e/engines/packages.ts';
import { freePort } from './tests/e2e/free-port.ts';

const CI = process.env.CI === 'true';
const ENGINE_NAMES = Object.keys(ENGINE_FILES) as EngineName[];

// The runner loads this file, then every worker loads it again: the port picked once by the
// runner reaches the workers (and the web server) through the environment.
process.env.E2E_PORT ??= String(await freePort());
// The cross-engine tests reach the site through a proxy of their own (engines/error-proxy.ts), on
// a port per engine that the site is told of (web-server.ts).
for (const engine of ENGINE_NAMES) process.env[proxyPortVariable(engine)] ??= String(await freePort());
const externalServer = process.env.E2E_BASE_URL;
const baseURL = externalServer ?? `http://127.0.0.1:${process.env.E2E_PORT}`;

// Debian's Chromium, never a downloaded browser.
const chromiumLaunch = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

// The cross-engine projects drive their browsers through WebDriver clients, not Playwright's.
const engineProject = (engine: EngineName) => ({
  name: engine,
  testDir: 'tests/e2e/engines',
  // One browser of each engine at a time, beside the other engine's: two on two cores.
  workers: 1,
  // A test walks pages in three languages at two widths, each page in a browser of its own.
  timeout: 240_000,
  expect: { timeout: 20_000 },
  use: { engine },
});

export default defineConfig<object, { engine: EngineName }>({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  forbidOnly: CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [
    ['list'],
    ...(CI ? [['html', { open: 'never', outputFolder: 'playwright-report' }] as const] : []),
    // `npm test` reads the totals from here.
    ...(process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [['json'] as const] : []),
  ],
  use: {
    baseURL,
    locale: 'en-US',
    timezoneId: 'Asia/Hong_Kong',
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      // Tests that change the site-wide feature flags run on their own, after everything else,
      // so that no other test sees a flag flip under it (`--no-deps` runs them alone).
      testIgnore: [/\.flags\.spec\.ts$/, /[\\/]engines[\\/]/],
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunch,
      },
    },
    {
      name: 'flags',
      testMatch: /\.flags\.spec\.ts$/,
      dependencies: ['chromium', 'webkit', 'firefox'],
      // One file at a time: two files flipping the same site-wide flags at once would race.
      workers: 1,
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunch },
    },
    engineProject('webkit'),
    engineProject('firefox'),
  ],
  webServer: externalServer
    ? undefined
    : {
        // Builds the pages once, then serves them on a fresh temporary database.
        command: 'node tests/e2e/web-server.ts',
        url: `${baseURL}/health`,
        reuseExistingServer: false,
        timeout: 180_000,
        stdout: 'ignore',
        stderr: 'pipe',
        gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
      },
});
