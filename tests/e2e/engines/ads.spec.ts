/**
 * The ad editor in WebKit and Firefox (decision 057): an editor writes a published ad in three
 * languages, its type, link, weight and a target of views, and finds it on the ads' table with the
 * status and counts the server gave it. Publishing in a campaign, the counts moving as the apps
 * report and the export are tested in Chromium (ads.spec.ts).
 */
import { users } from '../users.ts';
import { DESKTOP, expect, hydrate, logInOnTheWayTo, test, until } from './fixtures.ts';

test('an editor writes a published ad in three languages and finds it on the table', async ({ openTab, engine }) => {
  test.setTimeout(120_000);
  const lang = engine === 'webkit' ? 'en' : 'zh-hk';
  const name = `Happy hour ${engine} ${Date.now().toString(36)}`;
  const page = `/${lang}/admin/ads/new`;
  const tab = await openTab(DESKTOP);
  await logInOnTheWayTo(tab, page, users.editor);
  await until(
    tab,
    'the ad editor shows',
    (path) => window.location.pathname === path && document.querySelector('#field-name-en') !== null,
    page,
  );
  await hydrate(tab);

  // The editor offers the statuses staff set; the server alone sets "target met".
  expect(
    await tab.evaluate(() =>
      [...(document.querySelector<HTMLSelectElement>('#field-status')?.options ?? [])].map((option) => option.value),
    ),
  ).toEqual(['', 'draft', 'published']);

  await tab.fill('#field-name-en', name);
  await tab.click('#field-name-tab-zh-hk');
  await tab.fill('#field-name-zh-hk', '歡樂時光');
  await tab.click('#field-name-tab-zh-cn');
  await tab.fill('#field-name-zh-cn', '欢乐时光');
  await tab.select('#field-adType', 'article');
  await tab.select('#field-status', 'published');
  await tab.fill('#field-targetLink', 'https://example.test/happy-hour');
  await tab.fill('#field-weight', '4');
  await tab.fill('#field-targetViews', '500');
  await tab.click('[data-testid="editor-save"]');
  await until(
    tab,
    'the ad is saved',
    (path) => window.location.pathname === path && document.querySelector('[data-testid="snackbar-success"]') !== null,
    `/${lang}/admin/ads`,
  );

  // On the table: its name in the page's language, published, nothing counted yet.
  await tab.goto(`/${lang}/admin/ads?q=${encodeURIComponent(name)}`);
  await hydrate(tab);
  const shown = lang === 'en' ? name : '歡樂時光';
  await until(
    tab,
    'the table shows the ad, published, with no views',
    (expected, status) => {
      const rows = document.querySelectorAll('[data-testid="admin-row"]');
      const row = rows[0];
      return (
        rows.length === 1 &&
        row?.querySelector('[data-column="name"]')?.textContent?.trim() === expected &&
        row.querySelector('[data-column="status"]')?.textContent?.trim() === status &&
        row.querySelector('[data-column="views"]')?.textContent?.trim() === '0'
      );
    },
    shown,
    lang === 'en' ? 'Published' : '已發佈',
  );
});
