/**
 * The site's shell in WebKit and Firefox (decision 016): every public page loads without a page
 * error in three languages at a phone's width, and its menu works at a phone's width and a
 * desktop's, with and without scripts; the drawer, the theme toggle, the language links and the
 * error pages.
 */
import type { EngineTab } from './engines.ts';
import { DESKTOP, expect, hydrate, LANGUAGES, location, PHONE, test, until } from './fixtures.ts';

/** Every public page, by its path after the language (the plan page's id is the database's). */
const PAGES = [
  '',
  '/tillpointRestaurant',
  '/tillpointStore',
  '/tillpointPay',
  '/advancedFeature',
  '/feature_list',
  '/graph',
  '/terms',
  '/pricing',
  '/plan/:restaurant-flexi',
  '/usecase',
  '/usecase/restaurant',
  '/usecase/restaurant/food',
  '/blogs',
  '/blogs/kitchen-display-systems-explained',
  '/enquiryForm',
  '/contactForm',
  '/login',
  '/campaign/sg23',
  '/campaign/23hkrace',
] as const;

const DRAWER = 'header dialog';
const OPEN_DRAWER = '[data-testid="drawer-open"]';
const CLOSE_DRAWER = 'header dialog button[commandfor]';
const SITE_MAP_LINK = '[data-testid="site-map-link"]';
const USE_CASE_MENU = 'header nav details';

const shown = (selector: string) => {
  const element = document.querySelector(selector);
  return element !== null && element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
};
const drawerOpen = () => document.querySelector<HTMLDialogElement>('header dialog')?.open === true;
const focused = (selector: string) =>
  document.activeElement !== null && document.activeElement === document.querySelector(selector);
/** Whether the page has scripts to start (pages sent as plain HTML and CSS have none). */
const hydrates = () => document.querySelector('script[data-type="module"], script[type="module"]') !== null;

/** The plan page's path needs the seeded plan's id. */
async function resolvePath(path: string, baseURL: string | undefined): Promise<string> {
  const key = /:([\w-]+)$/.exec(path)?.[1];
  if (!key) return path;
  const response = await fetch(new URL(`/api/appTemplates?key=${key}`, baseURL));
  const { data } = (await response.json()) as { data: { _id: string }[] };
  return path.replace(`:${key}`, encodeURIComponent(data[0]?._id ?? key));
}

async function expectPageShown(tab: EngineTab, lang: string) {
  expect(await tab.evaluate(() => document.documentElement.lang)).toMatch(
    lang === 'en' ? /^en/ : lang === 'zh-hk' ? /^zh-Hant/ : /^zh-Hans/,
  );
  expect(await tab.evaluate(shown, 'h1, main')).toBe(true);
}

/** At a phone's width with scripts: the drawer opens by its button and closes by Escape and its backdrop. */
async function drawerWorks(tab: EngineTab) {
  expect(await tab.evaluate(shown, SITE_MAP_LINK)).toBe(false);
  await tab.click(OPEN_DRAWER);
  await until(tab, 'the drawer opens', drawerOpen);
  await until(tab, 'its close button has the focus', focused, CLOSE_DRAWER);
  await tab.press('Escape');
  await until(tab, 'Escape closes the drawer', () => !document.querySelector<HTMLDialogElement>('header dialog')?.open);
  await until(tab, 'the focus is back on the menu button', focused, OPEN_DRAWER);
  await tab.click(OPEN_DRAWER);
  await until(tab, 'the drawer opens again', drawerOpen);
  const { height } = await tab.evaluate(() => ({ height: window.innerHeight }));
  await tab.clickAt(8, Math.round(height / 2));
  await until(
    tab,
    'a click on the backdrop closes the drawer',
    () => !document.querySelector<HTMLDialogElement>('header dialog')?.open,
  );
}

/** At a phone's width without scripts: the menu is a link to the footer's pages. */
async function siteMapLinkWorks(tab: EngineTab) {
  expect(await tab.evaluate(shown, OPEN_DRAWER)).toBe(false);
  await tab.click(SITE_MAP_LINK);
  await until(tab, 'the link leads to the footer', () => window.location.hash === '#site-map');
  await until(tab, "the footer's pages are in view", () => {
    const box = document.getElementById('site-map')?.getBoundingClientRect();
    return box !== undefined && box.top < window.innerHeight && box.bottom > 0;
  });
  expect(await tab.evaluate(() => document.querySelectorAll('#site-map nav a[href]').length)).toBeGreaterThanOrEqual(
    10,
  );
}

/** At a desktop's width: the header's links show, and the use-case menu opens and closes by its summary. */
async function desktopMenuWorks(tab: EngineTab) {
  expect(await tab.evaluate(shown, OPEN_DRAWER)).toBe(false);
  expect(await tab.evaluate(shown, SITE_MAP_LINK)).toBe(false);
  await tab.click(`${USE_CASE_MENU} summary`);
  await until(
    tab,
    'the use-case menu opens',
    () => document.querySelector<HTMLDetailsElement>('header nav details')?.open === true,
  );
  expect(await tab.evaluate(shown, `${USE_CASE_MENU} a[href*="/usecase/"]`)).toBe(true);
  await tab.click(`${USE_CASE_MENU} summary`);
  await until(
    tab,
    'the use-case menu closes',
    () => document.querySelector<HTMLDetailsElement>('header nav details')?.open === false,
  );
}

for (const [index, page] of PAGES.entries()) {
  // Every page is shown in every language at a phone's width, where long words and Chinese text
  // would overflow first (its server HTML, which hydration leaves as it is); its menus are tried
  // with and without scripts in one language, a different one from page to page, so that every
  // language has its menus tried on a third of the pages.
  const lang = LANGUAGES[index % LANGUAGES.length] as (typeof LANGUAGES)[number];
  test(`${page || '/'} in three languages on a phone; its menus on a phone and a desktop, with and without scripts, in ${lang}`, async ({
    openTab,
    baseURL,
  }) => {
    const path = await resolvePath(page, baseURL);
    const withoutScripts = await openTab({ ...PHONE, scripts: false });
    for (const shownIn of LANGUAGES) {
      await test.step(`${shownIn} at ${PHONE.width} px without scripts`, async () => {
        await withoutScripts.goto(`/${shownIn}${path}`);
        await expectPageShown(withoutScripts, shownIn);
        // Nothing wider than the screen: no sideways scrolling on a phone.
        expect(
          await withoutScripts.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        ).toBeLessThanOrEqual(0);
        if (
          shownIn === lang &&
          (await withoutScripts.evaluate((css) => document.querySelector(css) !== null, OPEN_DRAWER))
        ) {
          await siteMapLinkWorks(withoutScripts);
        }
      });
    }
    const withScripts = await openTab(PHONE);
    let scripted = false;
    await test.step(`${lang} at ${PHONE.width} px with scripts`, async () => {
      await withScripts.goto(`/${lang}${path}`);
      await expectPageShown(withScripts, lang);
      expect(
        await withScripts.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      const header = await withScripts.evaluate((css) => document.querySelector(css) !== null, OPEN_DRAWER);
      scripted = await withScripts.evaluate(hydrates);
      // Before the page's scripts have run (or on a page that has none), then after hydration.
      if (header) await drawerWorks(withScripts);
      if (scripted) await hydrate(withScripts);
      if (header && scripted) await drawerWorks(withScripts);
    });
    await test.step(`${lang} at ${DESKTOP.width} px with scripts`, async () => {
      await withScripts.resize(DESKTOP.width, DESKTOP.height);
      await withScripts.goto(`/${lang}${path}`);
      await expectPageShown(withScripts, lang);
      if (scripted) await hydrate(withScripts);
      if (await withScripts.evaluate((css) => document.querySelector(css) !== null, OPEN_DRAWER))
        await desktopMenuWorks(withScripts);
    });
    // A page sent without scripts is already what a browser without them gets.
    if (!scripted) return;
    await test.step(`${lang} at ${DESKTOP.width} px without scripts`, async () => {
      await withoutScripts.resize(DESKTOP.width, DESKTOP.height);
      await withoutScripts.goto(`/${lang}${path}`);
      await expectPageShown(withoutScripts, lang);
      if (await withoutScripts.evaluate((css) => document.querySelector(css) !== null, OPEN_DRAWER))
        await desktopMenuWorks(withoutScripts);
    });
  });
}

for (const [where, path] of [
  ['a page without scripts', '/en/terms'],
  ['a hydrated page', '/en/pricing'],
] as const) {
  test(`on ${where}, the drawer keeps the focus inside, closes by its button, and its links lead on`, async ({
    openTab,
  }) => {
    const tab = await openTab(PHONE);
    await tab.goto(path);
    if (await tab.evaluate(hydrates)) await hydrate(tab);
    await tab.click(OPEN_DRAWER);
    await until(tab, 'the drawer opens', drawerOpen);
    for (let i = 0; i < 20; i += 1) {
      await tab.press('Tab');
      expect(
        await tab.evaluate(
          () =>
            document.activeElement === document.body ||
            document.querySelector('header dialog')?.contains(document.activeElement) === true,
        ),
      ).toBe(true);
    }
    await tab.click(CLOSE_DRAWER);
    await until(
      tab,
      'its button closes the drawer',
      () => !document.querySelector<HTMLDialogElement>('header dialog')?.open,
    );
    await until(tab, 'the focus is back on the menu button', focused, OPEN_DRAWER);

    await tab.click(OPEN_DRAWER);
    await until(tab, 'the drawer opens', drawerOpen);
    await tab.click(`${DRAWER} nav a[href="/en/blogs"]`);
    await until(
      tab,
      'the link leads to its page',
      () => window.location.pathname === '/en/blogs' && document.querySelector('[data-testid="blog-list"]') !== null,
    );
    expect(await tab.evaluate(drawerOpen)).toBe(false);
  });
}

for (const [where, path] of [
  ['a page without scripts', '/en/terms'],
  ['a hydrated page', '/en/pricing'],
] as const) {
  test(`on ${where}, the theme toggle switches the theme and it is remembered`, async ({ openTab }) => {
    const tab = await openTab(PHONE);
    await tab.goto(path);
    if (await tab.evaluate(hydrates)) await hydrate(tab);
    const theme = () => ({
      dark: document.documentElement.classList.contains('dark'),
      pressed: document.querySelector('[data-theme-toggle]')?.getAttribute('aria-pressed'),
      stored: localStorage.getItem('theme'),
      background: getComputedStyle(document.body).backgroundColor,
    });
    expect(await tab.evaluate(theme)).toEqual({
      dark: false,
      pressed: 'false',
      stored: null,
      background: 'rgb(255, 255, 255)',
    });
    await tab.click('header [data-theme-toggle]');
    await until(tab, 'the page turns dark', () => document.documentElement.classList.contains('dark'));
    expect(await tab.evaluate(theme)).toEqual({
      dark: true,
      pressed: 'true',
      stored: 'dark',
      background: 'rgb(11, 20, 19)',
    });
    await tab.goto(path);
    expect(await tab.evaluate(theme)).toMatchObject({ dark: true, pressed: 'true', stored: 'dark' });
    if (await tab.evaluate(hydrates)) await hydrate(tab);
    await tab.click('header [data-theme-toggle]');
    await until(tab, 'the page turns light again', () => !document.documentElement.classList.contains('dark'));
    expect(await tab.evaluate(theme)).toMatchObject({ dark: false, pressed: 'false', stored: 'light' });
  });
}

for (const [where, from, to, label] of [
  ['a page without scripts', '/en/terms', '/zh-hk/terms', '繁體中文'],
  ['a hydrated page', '/en/pricing', '/zh-cn/pricing', '简体中文'],
] as const) {
  test(`on ${where}, a language link leads to the same page in that language and remembers it`, async ({ openTab }) => {
    const tab = await openTab(DESKTOP);
    await tab.goto(from);
    if (await tab.evaluate(hydrates)) await hydrate(tab);
    // The footer's language links (the drawer holds the same selector).
    await tab.evaluate((text) => {
      const link = [...document.querySelectorAll('footer a')].find(
        (candidate) => candidate.textContent?.trim() === text,
      );
      link?.setAttribute('data-engine-target', '');
    }, label);
    await tab.click('footer a[data-engine-target]');
    await until(
      tab,
      `the page is shown in ${label}`,
      (path) => window.location.pathname === path && document.documentElement.lang.startsWith('zh'),
      to,
    );
    expect(await tab.evaluate(() => document.cookie)).toContain(`i18n_redirected=${to.split('/')[1]}`);
  });
}

for (const lang of LANGUAGES) {
  test(`a page that does not exist answers with the site's error page in ${lang}, whose drawer works`, async ({
    openTab,
  }) => {
    const tab = await openTab(PHONE);
    for (const path of [`/${lang}/no-such-page`, `/${lang}/blogs/no-such-article`]) {
      await tab.goto(path);
      await until(tab, 'the error page shows', () => document.querySelector('[data-testid="error-page"]') !== null);
      expect(await location(tab)).toBe(path);
      await hydrate(tab);
      await drawerWorks(tab);
    }
  });
}
