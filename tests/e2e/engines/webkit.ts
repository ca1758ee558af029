/**
 * WebKit for the cross-engine tests (decision 016): Debian's WebKitGTK MiniBrowser, the engine of
 * Safari, through its classic WebDriver server (`webkit2gtk-driver`) on a virtual display (`xvfb`),
 * with the `webdriver` package.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'webdriver';
import { freePort } from '../free-port.ts';
import { centreOf, stopProcess, type Engine, type EngineTab, type Key } from './engines.ts';

const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = '/usr/bin/Xvfb';

declare global {
  // WebKitGTK's own capability (its WebDriver documentation), which the client's types do not list.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace WebdriverIO {
    interface Capabilities {
      'webkitgtk:browserOptions'?: { binary: string; args?: string[] };
    }
  }
}

/** The keys as WebDriver's key actions name them (the WebDriver specification's table). */
const WEBDRIVER_KEYS: Record<Key, string> = {
  Escape: '\uE00C',
  Tab: '\uE004',
  Enter: '\uE007',
  Space: ' ',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
};

/**
 * WebKitGTK features newer than the oldest Safari of the policy (16.4), turned off so that a page
 * leaning on one without a fallback fails here as it would on that iPhone. Invoker Commands and
 * `closedby` are already missing from this WebKitGTK.
 */
const WEBKIT_FEATURES_OFF = [
  'PopoverAttribute', // Safari 17
  'ViewTransitions', // Safari 18
  'CrossDocumentViewTransitions',
  'CSSAnchorPositioning', // Safari 26
  'CSSUnprefixedBackdropFilter', // Safari 18: before, only -webkit-backdrop-filter
  'CSSTextWrapPretty', // Safari 26
  'ScrollDrivenAnimations', // Safari 26
];

/**
 * MiniBrowser's toolbar keeps its window at least 447 px wide; shrinking the toolbar's widgets (the
 * page is not drawn by GTK) lets the window, and so the viewport, be a phone's 390 px.
 */
const NARROW_TOOLBAR_CSS =
  'toolbar, toolbar *, entry, button { min-width: 0; min-height: 0; padding: 0; margin: 0; font-size: 1px; }\n';

/** Starts Xvfb on a display it picks itself (`-displayfd`), so parallel runs never race for one. */
async function startDisplay(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn(XVFB, ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  xvfb.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const display = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start within 30 s: ${errors}`)), 30_000);
    xvfb.stdio[3]?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (!text.includes('\n')) return;
      clearTimeout(timer);
      resolve(`:${text.trim()}`);
    });
    xvfb.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${errors}`));
    });
  });
  return { display, process: xvfb };
}

/** Waits until a freshly started WebDriver server answers its status. */
async function driverReady(port: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() - started > 30_000) throw new Error(`WebKitWebDriver did not answer on port ${port} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function launchWebKit(): Promise<Engine> {
  // The client logs each connection at `info`; its loggers read the level once, as it loads.
  process.env.WDIO_LOG_LEVEL ??= 'warn';
  const { default: WebDriver } = await import('webdriver');
  const { display, process: xvfb } = await startDisplay();
  const config = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-webkit-'));
  mkdirSync(path.join(config, 'gtk-3.0'));
  writeFileSync(path.join(config, 'gtk-3.0', 'gtk.css'), NARROW_TOOLBAR_CSS);
  /** A browser session and the driver serving it (a WebKitWebDriver serves one session). */
  interface Session {
    client: Client;
    driver: ChildProcess;
    scripts: boolean;
  }
  const sessions = new Set<Session>();
  // Starting MiniBrowser costs seconds: a closed tab's session waits here for the next test.
  const idle: Session[] = [];

  const start = async (scripts: boolean): Promise<Session> => {
    const port = await freePort();
    const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], {
      env: { ...process.env, DISPLAY: display, XDG_CONFIG_HOME: config, XDG_CACHE_HOME: config },
      stdio: 'ignore',
    });
    const args = ['--automation', `--features=${WEBKIT_FEATURES_OFF.map((feature) => `-${feature}`).join(',')}`];
    if (!scripts) args.push('--enable-javascript-markup=false');
    try {
      await driverReady(port);
      const client = await WebDriver.newSession({
        hostname: '127.0.0.1',
        port,
        logLevel: 'error',
        connectionRetryCount: 10,
        connectionRetryTimeout: 60_000,
        capabilities: {
          browserName: 'MiniBrowser',
          // WebKitGTK's driver speaks classic WebDriver only.
          'wdio:enforceWebDriverClassic': true,
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args },
        },
      });
      await client.setTimeouts(undefined, 60_000, 30_000);
      const session = { client, driver, scripts };
      sessions.add(session);
      return session;
    } catch (error) {
      await stopProcess(driver);
      throw error;
    }
  };
  const end = async (session: Session) => {
    sessions.delete(session);
    await session.client.deleteSession().catch(() => undefined);
    await stopProcess(session.driver);
  };

  return {
    name: 'webkit',
    async open({ origin, width, height, scripts }) {
      const reused = idle.findIndex((session) => session.scripts === scripts);
      const pooled = reused >= 0 ? idle.splice(reused, 1)[0] : undefined;
      const session = pooled ?? (await start(scripts));
      // The window's outer size: the toolbar above the page takes the difference in height.
      await session.client.setWindowRect(null, null, width, height);
      return webKitTab(session.client, origin, async () => {
        // Nothing of this test stays for the next: its cookies (kept per host, whatever the port),
        // its origin's storage, its page.
        try {
          await session.client.deleteAllCookies();
          await session.client.executeScript('try{localStorage.clear();sessionStorage.clear()}catch(e){}', []);
          await session.client.navigateTo('about:blank');
          idle.push(session);
        } catch {
          await end(session);
        }
      });
    },
    async close() {
      await Promise.all([...sessions].map(end));
      await stopProcess(xvfb);
      rmSync(config, { recursive: true, force: true });
    },
  };
}

function webKitTab(client: Client, origin: string, close: () => Promise<void>): EngineTab {
  const find = async (selector: string) => {
    const found = await client.findElement('css selector', selector);
    const id = found['element-6066-11e4-a52e-4f735466cecf'];
    if (!id) throw new Error(`no element matches ${selector}`);
    return id;
  };
  const evaluate: EngineTab['evaluate'] = async (fn, ...args) =>
    client.executeScript(`return (${fn.toString()}).apply(null, arguments)`, args);
  const pointer = async (actions: object[]) => {
    await client.performActions([{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }]);
    await client.releaseActions();
  };
  return {
    engine: 'webkit',
    async goto(pathname) {
      await client.navigateTo(new URL(pathname, origin).href);
    },
    evaluate,
    async click(selector) {
      const id = await find(selector);
      // WebDriver scrolls an element only until it is in view, which can leave it under a sticky
      // bar at the edge of a phone's screen; a visitor scrolls it to where it can be seen.
      await evaluate(centreOf, selector);
      await client.elementClick(id);
    },
    async clickAt(x, y) {
      await pointer([
        { type: 'pointerMove', x, y, origin: 'viewport' },
        { type: 'pointerDown', button: 0 },
        { type: 'pointerUp', button: 0 },
      ]);
    },
    async movePointer(x, y) {
      await pointer([{ type: 'pointerMove', x, y, origin: 'viewport' }]);
    },
    async press(key) {
      const value = WEBDRIVER_KEYS[key];
      await client.performActions([
        {
          type: 'key',
          id: 'keyboard',
          actions: [
            { type: 'keyDown', value },
            { type: 'keyUp', value },
          ],
        },
      ]);
      await client.releaseActions();
    },
    async fill(selector, text) {
      const id = await find(selector);
      // As for a click: brought to the middle of the screen, out from under any sticky bar.
      await evaluate(centreOf, selector);
      await client.elementClear(id);
      await client.elementSendKeys(id, text);
    },
    async type(text) {
      const actions = [...text].flatMap((value) => [
        { type: 'keyDown' as const, value },
        { type: 'keyUp' as const, value },
      ]);
      await client.performActions([{ type: 'key', id: 'keyboard', actions }]);
      await client.releaseActions();
    },
    async fillInFrame(frameSelector, selector, text) {
      // The client sends Switch To Frame as it does every other command, but types it as internal
      // (webdriverio wraps it); this is the shape of the W3C command.
      const frames = client as Client & { switchToFrame(id: Record<string, string>): Promise<void> };
      await evaluate(centreOf, frameSelector);
      await frames.switchToFrame({ 'element-6066-11e4-a52e-4f735466cecf': await find(frameSelector) });
      try {
        const id = await find(selector);
        await client.elementClick(id);
        await client.elementClear(id);
        await client.elementSendKeys(id, text);
      } finally {
        await client.switchToParentFrame();
      }
    },
    async select(selector, value) {
      // WebDriver selects an option by clicking it, once the select is where it can be seen.
      const option = await find(`${selector} option[value="${value}"]`);
      await evaluate(centreOf, selector);
      await client.elementClick(option);
    },
    async resize(width, height) {
      await client.setWindowRect(null, null, width, height);
    },
    async screenshot(file, { fullPage = false } = {}) {
      // WebKitGTK's screenshots stop at the viewport: for the whole page, the window grows to it.
      const rect = await client.getWindowRect();
      if (fullPage) {
        const { page, viewport } = await evaluate(() => ({
          page: document.documentElement.scrollHeight,
          viewport: window.innerHeight,
        }));
        await client.setWindowRect(null, null, rect.width, Math.min(rect.height - viewport + page, 16_000));
      }
      writeFileSync(file, Buffer.from(await client.takeScreenshot(), 'base64'));
      if (fullPage) await client.setWindowRect(null, null, rect.width, rect.height);
    },
    close,
  };
}
