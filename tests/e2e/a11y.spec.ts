import type { Page } from '@playwright/test';
import { axe, AXE_TAGS } from './axe.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { planId } from './plans.ts';
import { adminRows, appsMembers, appUserRows, users, VIEWER_DEVICE } from './users.ts';

async function violations(page: Page, scope?: string) {
  const results = await axe(page, scope).withTags(AXE_TAGS).analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    nodes: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
  }));
}

/**
 * The same page in the other theme: only the rules a theme can change (colours) run again. The
 * page follows the system's scheme while the visitor has not chosen one (theme.spec.ts).
 */
async function darkViolations(page: Page, scope?: string) {
  // A hydrated page listens to the system's scheme once React has hydrated it; a page without the
  // framework's scripts listens from its inline script, which has run by the time it has loaded.
  if (await page.evaluate(() => '__reactRouterContext' in window)) await hydrated(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  const results = await axe(page, scope).withRules(['color-contrast', 'link-in-text-block']).analyze();
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  return results.violations.map((violation) => ({
    rule: violation.id,
    theme: 'dark',
    nodes: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
  }));
}

/** Every rule in the light theme, then the colour rules in the dark one. */
async function bothThemes(page: Page, scope?: string) {
  return [...(await violations(page, scope)), ...(await darkViolations(page, scope))];
}

/**
 * The home page in every language, in the light theme; its colours in the dark theme in one
 * (the same colours whatever the words).
 */
function themesFor(layout: string, lang: string) {
  return layout === 'marketing' && lang !== 'en' ? violations : bothThemes;
}

/**
 * The other public pages share the layouts above; each is checked in one language (in turn), so
 * every language still sees part of them without the suite checking each page three times.
 */
const publicPages = {
  en: ['/tillpointRestaurant', '/usecase'],
  'zh-hk': ['/tillpointPay', '/usecase/restaurant/food'],
  'zh-cn': ['/advancedFeature', '/tillpointStore'],
} as const;
const planPages = {
  en: ['restaurant-flexi'],
  'zh-hk': ['restaurant-flexi-plus'],
  'zh-cn': ['restaurant-lite'],
} as const;

const layouts = [
  { name: 'marketing', path: '' },
  { name: 'error', path: '/no-such-page' },
  { name: 'login', path: '/login', phone: true },
  { name: 'dashboard', path: '/portal', signedIn: true },
  { name: 'profile', path: '/portal/profile', signedIn: true },
  // Viewed only (nothing bought): the member's summary, priced by the server.
  { name: 'plan detail', path: '/portal/plan', signedIn: true, member: 'prepaid' },
  { name: 'card', path: '/portal/card', signedIn: true, member: 'monthly', ready: 'card-form' },
  {
    name: 'add-on upgrade',
    path: '/upgrade?step=summary&add=qr-self-order,online-shop',
    signedIn: true,
    member: 'monthly',
    ready: 'upgrade-summary',
  },
  // The apps (decision 030): the grid, an app with its registered screen, the screen's own page, and an add-on not on the plan.
  { name: 'apps', path: '/portal/apps', signedIn: true, member: 'appsViewer' },
  {
    name: 'app',
    path: `/portal/apps/kds?remove=${VIEWER_DEVICE._id}`,
    signedIn: true,
    member: 'appsViewer',
    ready: 'remove-confirm',
  },
  {
    name: 'app device',
    path: `/portal/apps/kds/${VIEWER_DEVICE._id}`,
    signedIn: true,
    member: 'appsViewer',
    ready: 'pairing-code',
  },
  { name: 'app not on the plan', path: '/portal/apps/online-shop', signedIn: true, member: 'appsViewer' },
  { name: 'microsite', path: '/campaign/sg23' },
  // A long table: axe needs more than the usual time on a busy machine.
  { name: 'feature list', path: '/feature_list', slow: true },
  { name: 'results', path: '/graph' },
  { name: 'terms', path: '/terms' },
  { name: 'enquiry form', path: '/enquiryForm' },
  { name: 'blog list', path: '/blogs?category=restaurant-tips' },
  { name: 'blog article', path: '/blogs/case-study-restaurant-group-eight-stores' },
  { name: 'forgot password', path: '/forgot-password', phone: true },
  { name: 'reset password', path: `/reset-password?token=${'a'.repeat(43)}`, phone: true },
  // The page of an app user's reset link, and what it says once the password is set.
  { name: 'app reset password', path: `/app/reset-password?token=${'a'.repeat(43)}`, phone: true },
  { name: 'app password set', path: '/app/reset-password?done', phone: true },
  // The back office (issue 21): a table, and a record open in the editor over it.
  // Four axe runs (two themes, desktop and phone) over the side menu and the table: a busy machine's time.
  {
    name: 'admin table',
    path: '/admin/subscribers?q=admin-table',
    signedIn: true,
    member: 'admin',
    ready: 'admin-table',
    slow: true,
  },
  {
    name: 'admin editor',
    path: `/admin/subscribers?editor=${adminRows.a11y._id}`,
    signedIn: true,
    member: 'admin',
    ready: 'record-form',
  },
  // An app user's page: the date of birth, the switch that disables the account, and their devices.
  {
    name: 'admin app user',
    path: `/admin/appUsers/edit/${appUserRows.edit._id}`,
    signedIn: true,
    member: 'admin',
    ready: 'related-appDevices',
  },
  // An article's editor: the languages' tabs, the rich-text toolbar and the references' search boxes.
  { name: 'admin article editor', path: '/admin/blogs/new', signedIn: true, member: 'admin', ready: 'rich-v.body.en' },
  // Last, so the layouts above keep their languages: a member's invoices, each with its lines.
  { name: 'invoices', path: '/portal/invoices', signedIn: true, member: 'monthly', ready: 'invoices' },
] as const;

const LANGS = ['en', 'zh-hk', 'zh-cn'] as const;

/** Who the signed-in layouts are looked at as. */
const signedInAs = { ...users, appsViewer: appsMembers.viewer };

/**
 * Colours, landmarks, names and roles do not change with the language, so each layout is checked
 * in one language, in turn, and the home page in all three: every language still sees most layouts
 * between this and the public pages below, without the suite running axe 33 times for them.
 */
const layoutsIn = (lang: (typeof LANGS)[number]) =>
  layouts.filter((layout, index) => layout.name === 'marketing' || LANGS[index % LANGS.length] === lang);

for (const lang of LANGS) {
  test.describe(`${lang}, light and dark themes`, () => {
    test.use({ colorScheme: 'light', allowedConsoleErrors: [/status of 404/] });

    for (const layout of layoutsIn(lang)) {
      test(`the ${layout.name} layout has no axe violations`, async ({ page, login }) => {
        if ('slow' in layout) test.slow();
        if ('signedIn' in layout) await login('member' in layout ? signedInAs[layout.member] : users.owner);
        await page.goto(`/${lang}${layout.path}`);
        await expect(page.locator('main')).toBeVisible();
        if ('ready' in layout) await expect(page.getByTestId(layout.ready)).toBeVisible();
        expect(await themesFor(layout.name, lang)(page)).toEqual([]);
        // The portal's pages and the sign-in pages (issue 16): on a phone too, where the tabs scroll,
        // the rows stack and the login layout's brand panel folds away; in both themes there as well.
        if ('signedIn' in layout || 'phone' in layout) {
          await page.setViewportSize({ width: 390, height: 844 });
          await expect(page.locator('main')).toBeVisible();
          expect({ phone: await bothThemes(page) }).toEqual({ phone: [] });
        }
      });
    }

    test('the public pages have no axe violations', async ({ page }) => {
      // Several full pages in one test: a generous limit for a busy machine.
      test.setTimeout(150_000);
      for (const path of publicPages[lang]) {
        await page.goto(`/${lang}${path}`);
        await expect(page.locator('main')).toBeVisible();
        expect({ path, violations: await bothThemes(page) }).toEqual({ path, violations: [] });
      }
    });

    test('the plan pages have no axe violations', async ({ page, request }) => {
      for (const key of planPages[lang]) {
        await page.goto(`/${lang}/plan/${await planId(request, key)}`);
        await expect(page.locator('main')).toBeVisible();
        expect({ key, violations: await bothThemes(page) }).toEqual({ key, violations: [] });
      }
    });

    // The page around them is the marketing layout checked above: these check what opening adds.
    test('the open drawer has no axe violations', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/${lang}`);
      await page.getByTestId('drawer-open').click();
      // A modal dialog: the page behind it is inert while it is open.
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await bothThemes(page, 'dialog[open]')).toEqual([]);
    });

    // The menu's markup is the same in every language but its words: one language checks it.
    if (lang === 'zh-hk') {
      test('the open use-case menu has no axe violations', async ({ page }) => {
        await page.goto(`/${lang}`);
        await page.getByRole('banner').locator('summary').first().click();
        await expect(page.getByRole('banner').locator('details[open]')).toBeVisible();
        expect(await bothThemes(page, 'header')).toEqual([]);
      });
    }
  });
}
