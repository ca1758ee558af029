/**
 * The browser engines of the support policy other than Chromium (decision 016), driven through
 * npm WebDriver clients, since Playwright's own WebKit and Firefox builds cannot be downloaded here:
 * WebKit (webkit.ts: WebKitGTK's classic WebDriver, the `webdriver` package) and Firefox ESR
 * (firefox.ts: WebDriver BiDi, `puppeteer-core`). Both are reached through one small interface,
 * `EngineTab`, so a spec is written once for both.
 */
import type { ChildProcess } from 'node:child_process';
import { missingPackages, type EngineName } from './packages.ts';

export type { EngineName };

/** Why this engine cannot run on this machine, or undefined when it can. */
export function engineMissing(engine: EngineName): string | undefined {
  const missing = missingPackages(engine);
  return missing.length ? `apt-get install -y ${missing.join(' ')}` : undefined;
}

export type Key = 'Escape' | 'Tab' | 'Enter' | 'Space' | 'ArrowRight' | 'ArrowDown';

/** What crosses the wire to a page and back: JSON. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface TabOptions {
  /** The site's origin, as the tab must reach it (the error proxy's: see error-proxy.ts). */
  origin: string;
  width: number;
  height: number;
  /** false: the page's scripts are off (the driver still runs its own). */
  scripts: boolean;
}

/** One browser tab of an engine, with the few things a spec does in it. */
export interface EngineTab {
  readonly engine: EngineName;
  /** Opens a path of the site and waits for the page's load event. */
  goto(pathname: string): Promise<void>;
  /** Runs a function in the page and returns its result (a JSON value). */
  evaluate<Args extends Json[], Result>(fn: (...args: Args) => Result, ...args: Args): Promise<Awaited<Result>>;
  /** Clicks the middle of the first element the selector finds, as a mouse would, once it is in view. */
  click(selector: string): Promise<void>;
  /** Clicks a point of the viewport. */
  clickAt(x: number, y: number): Promise<void>;
  /** Moves the mouse pointer to a point of the viewport. */
  movePointer(x: number, y: number): Promise<void>;
  press(key: Key): Promise<void>;
  /** Replaces a text field's value by typing. */
  fill(selector: string, text: string): Promise<void>;
  /** Types at the caret, key by key, into whatever has the focus (a rich-text editor, say). */
  type(text: string): Promise<void>;
  /**
   * Replaces the value of a text field inside a frame of the page (the first frame the selector
   * finds, whatever its origin) by typing, as a visitor would.
   */
  fillInFrame(frameSelector: string, selector: string, text: string): Promise<void>;
  /** Picks an option of a `<select>` by its value, as a visitor would. */
  select(selector: string, value: string): Promise<void>;
  /** Gives the tab another viewport size; the page is laid out again at it. */
  resize(width: number, height: number): Promise<void>;
  /** A PNG of the viewport, or of the whole page. */
  screenshot(file: string, options?: { fullPage?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  open(options: TabOptions): Promise<EngineTab>;
  close(): Promise<void>;
}

/**
 * The element's centre, scrolling it into the middle of the viewport first only if the centre is
 * outside it (throws if absent); `scrolled` says it had to.
 */
export function centreInView(selector: string): { x: number; y: number; scrolled: boolean } {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`no element matches ${selector}`);
  let box = element.getBoundingClientRect();
  const outside = (rect: DOMRect) => {
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    return x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight;
  };
  const scrolled = outside(box);
  if (scrolled) {
    element.scrollIntoView({ block: 'center', inline: 'center' });
    box = element.getBoundingClientRect();
  }
  return { x: Math.round(box.left + box.width / 2), y: Math.round(box.top + box.height / 2), scrolled };
}

/** Scrolls the element into the middle of the viewport and returns its centre (throws if absent). */
export function centreOf(selector: string): { x: number; y: number } {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`no element matches ${selector}`);
  element.scrollIntoView({ block: 'center', inline: 'center' });
  const box = element.getBoundingClientRect();
  return { x: Math.round(box.left + box.width / 2), y: Math.round(box.top + box.height / 2) };
}

/** Ends a child process, by force if it has not gone within 5 s. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function launchEngine(engine: EngineName): Promise<Engine> {
  // Each engine's client loads only in the worker that drives it.
  if (engine === 'webkit') return (await import('./webkit.ts')).launchWebKit();
  return (await import('./firefox.ts')).launchFirefox();
}
