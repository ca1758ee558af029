/**
 * Firefox for the cross-engine tests (decision 016): Debian's Firefox ESR through WebDriver BiDi,
 * with `puppeteer-core`.
 */
import { writeFileSync } from 'node:fs';
import puppeteer, { type Browser, type KeyInput, type Page } from 'puppeteer-core';
import { centreInView, centreOf, type Engine, type EngineTab, type Key } from './engines.ts';

const FIREFOX = '/usr/bin/firefox-esr';

const PUPPETEER_KEYS: Record<Key, KeyInput> = {
  Escape: 'Escape',
  Tab: 'Tab',
  Enter: 'Enter',
  Space: ' ',
  ArrowRight: 'ArrowRight',
  ArrowDown: 'ArrowDown',
};

/** Preferences that keep Firefox ESR from reaching out to Mozilla's services while it is tested. */
const FIREFOX_PREFS = {
  'app.normandy.enabled': false,
  'messaging-system.rsexperimentloader.enabled': false,
  'browser.backup.scheduled.enabled': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'browser.safebrowsing.update.enabled': false,
};

export async function launchFirefox(): Promise<Engine> {
  // Firefox ESR's BiDi cannot turn a page's scripts off: a second browser with them off, started
  // only when a test asks for one.
  const browsers = new Map<boolean, Promise<Browser>>();
  const browser = (scripts: boolean) => {
    let launched = browsers.get(scripts);
    if (!launched) {
      launched = puppeteer.launch({
        browser: 'firefox',
        executablePath: FIREFOX,
        headless: true,
        protocolTimeout: 60_000,
        timeout: 90_000,
        extraPrefsFirefox: { ...FIREFOX_PREFS, 'javascript.enabled': scripts },
      });
      browsers.set(scripts, launched);
    }
    return launched;
  };
  await browser(true);

  return {
    name: 'firefox',
    async open({ origin, width, height, scripts }) {
      const context = await (await browser(scripts)).createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width, height });
      page.setDefaultNavigationTimeout(60_000);
      return firefoxTab(page, origin, () => context.close());
    },
    async close() {
      await Promise.all([...browsers.values()].map(async (launched) => (await launched).close()));
    },
  };
}

function firefoxTab(page: Page, origin: string, close: () => Promise<void>): EngineTab {
  // Puppeteer's own selector helpers run as scripts the page's CSP may refuse: everything here
  // goes through `evaluate` (the driver's, which a page's CSP does not govern) and raw input.
  const evaluate: EngineTab['evaluate'] = (fn, ...args) => {
    // The result comes back as JSON, typed by the caller's function, as WebDriver's client does it
    // (`any`); puppeteer cannot see that a function of plain JSON arguments needs no handles.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const result: Promise<any> = page.evaluate(`(${fn.toString()}).apply(null, ${JSON.stringify(args)})`);
    return result;
  };
  return {
    engine: 'firefox',
    async goto(pathname) {
      await page.goto(new URL(pathname, origin).href, { waitUntil: 'load' });
    },
    evaluate,
    async click(selector) {
      // Firefox hit-tests a click against the last frame its compositor drew, which a busy machine
      // draws late, and brings a field just typed into back into view a little later, scrolling the
      // page away: the element is scrolled to the middle, then clicked once it has stayed in view.
      let last = await page.evaluate(centreOf, selector);
      for (let tries = 0; ; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const now = await page.evaluate(centreInView, selector);
        if (!now.scrolled && now.x === last.x && now.y === last.y) break;
        if (tries === 40) throw new Error(`${selector} did not stay in view`);
        last = now;
      }
      await page.mouse.click(last.x, last.y);
    },
    async clickAt(x, y) {
      await page.mouse.click(x, y);
    },
    async movePointer(x, y) {
      await page.mouse.move(x, y);
    },
    async press(key) {
      await page.keyboard.press(PUPPETEER_KEYS[key]);
    },
    async fill(selector, text) {
      await page.evaluate((css) => {
        const field = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(css);
        if (!field) throw new Error(`no element matches ${css}`);
        field.focus();
        field.select();
      }, selector);
      await page.keyboard.press('Backspace');
      await page.keyboard.type(text);
    },
    async type(text) {
      await page.keyboard.type(text);
    },
    async fillInFrame(frameSelector, selector, text) {
      // The frame's document, found by the address its element loaded (it may be of another origin).
      const src = await page.evaluate(
        (css) => document.querySelector<HTMLIFrameElement>(css)?.src ?? null,
        frameSelector,
      );
      const frame = page.frames().find((candidate) => src !== null && candidate.url() === src);
      if (!frame) throw new Error(`no frame matches ${frameSelector}`);
      await frame.evaluate((css) => {
        const field = document.querySelector<HTMLInputElement>(css);
        if (!field) throw new Error(`no element matches ${css}`);
        field.focus();
        field.select();
      }, selector);
      await page.keyboard.press('Backspace');
      await page.keyboard.type(text);
    },
    async select(selector, value) {
      // The arrow keys move a focused, closed select from one option to the next.
      const steps = await page.evaluate(
        (css, wanted) => {
          const select = document.querySelector<HTMLSelectElement>(css);
          if (!select) throw new Error(`no element matches ${css}`);
          select.focus();
          return [...select.options].findIndex((option) => option.value === wanted) - select.selectedIndex;
        },
        selector,
        value,
      );
      for (let i = 0; i < Math.abs(steps); i += 1) await page.keyboard.press(steps > 0 ? 'ArrowDown' : 'ArrowUp');
    },
    async resize(width, height) {
      await page.setViewport({ width, height });
    },
    async screenshot(file, { fullPage = false } = {}) {
      writeFileSync(file, await page.screenshot({ fullPage }));
    },
    close,
  };
}
