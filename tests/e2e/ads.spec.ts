import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { bothThemesViolations } from './axe.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { users } from './users.ts';

/*
 * Ads and campaigns in the back office (decision 057): an editor writes an ad and a campaign with
 * it in the editor and publishes both; while an app (this test, through the API) is picked the ad
 * through the campaign and reports views and clicks, the counts move on the ads' table by
 * themselves, the ad's page shows them by day, and the table exports them.
 */

test.use({ colorScheme: 'light' });

const column = (page: Page, name: string) => page.getByTestId('admin-row').first().locator(`[data-column="${name}"]`);

/** Adds a record to a list of references by typing part of its name and choosing it. */
async function addReference(page: Page, field: string, name: string): Promise<void> {
  const box = page.locator(`#field-${field}`);
  await box.fill(name);
  const option = page.getByRole('option', { name, exact: true });
  await expect(option).toBeVisible();
  await option.click();
  await expect(
    page.getByTestId(`references-${field}`).getByTestId('reference-chip').filter({ hasText: name }),
  ).toHaveCount(1);
}

async function newDevice(request: APIRequestContext, label: string): Promise<{ deviceId: string; secret: string }> {
  const deviceId = `e2e-ads-${label}-${Date.now().toString(36)}`;
  const registered = await request.post('/api/appDevices', { data: { deviceId, platform: 'ios' } });
  expect(registered.status(), await registered.text()).toBe(201);
  return { deviceId, secret: ((await registered.json()) as { secret: string }).secret };
}

test('an editor publishes an ad in a campaign and watches its counts move as the apps report', async ({
  page,
  login,
  request,
}) => {
  test.slow();
  const stamp = Date.now().toString(36);
  const name = `Weekend set lunch ${stamp}`;
  const key = `e2e-lunch-${stamp}`;
  await login(users.editor);

  // The ad, published, in the editor's page.
  await page.goto('/en/admin/ads/new');
  await hydrated(page);
  await page.locator('#field-name-en').fill(name);
  await page.locator('#field-adType').selectOption('video');
  await page.locator('#field-status').selectOption('published');
  await page.locator('#field-targetLink').fill('https://example.test/lunch');
  await page.locator('#field-weight').fill('5');
  await page.locator('#field-targetViews').fill('100');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('snackbar-success')).toBeVisible();
  await expect(page).toHaveURL(/\/en\/admin\/ads$/);

  const headers = await staffHeaders(request, users.editor);
  const found = await request.get('/api/ads?$sort[createdAt]=-1&$limit=20', { headers });
  const listed = (await found.json()) as { data: { _id: string; name: { en: string } }[] };
  const ad = listed.data.find((row) => row.name.en === name);
  expect(ad, 'the new ad').toBeTruthy();
  const adId = (ad as { _id: string })._id;

  // The campaign with it, published.
  await page.goto('/en/admin/campaigns/new');
  await hydrated(page);
  await page.locator('#field-name-en').fill(`Lunch week ${stamp}`);
  await page.locator('#field-key').fill(key);
  await addReference(page, 'ads', name);
  await page.locator('#field-status').selectOption('published');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('snackbar-success')).toBeVisible();

  // The ads' table, found by its name, live.
  await page.goto(`/en/admin/ads?q=${encodeURIComponent(name)}`);
  await hydrated(page);
  await expect(page.getByTestId('admin-page')).toHaveAttribute('data-live', 'on');
  await expect(page.getByTestId('admin-row')).toHaveCount(1);
  await expect(column(page, 'status')).toHaveText('Published');
  await expect(column(page, 'views')).toHaveText('0');

  // An app is picked the ad through the campaign and reports what two phones did.
  const picked = await request.post('/api/adPicks', { data: { adType: 'video', campaign: key } });
  const signed = ((await picked.json()) as { ad: { id: string } | null }).ad?.id;
  expect(signed).toMatch(new RegExp(`^${adId}\\.`));
  for (const label of ['a', 'b']) {
    const phone = await newDevice(request, label);
    for (const kind of ['view', 'view', 'click'] as const) {
      const report = await request.post('/api/adReports', { data: { ad: signed, kind, ...phone } });
      expect(report.status(), await report.text()).toBe(201);
    }
  }
  // Nobody reloads: the table hears of the change (at most once a second per ad).
  await expect(column(page, 'views')).toHaveText('2', { timeout: 10_000 });
  await expect(column(page, 'clicks')).toHaveText('2', { timeout: 10_000 });

  // The ad's page: its views and clicks by day.
  await page.goto(`/en/admin/ads/edit/${adId}`);
  await expect(page.getByTestId('series')).toBeVisible();
  await expect(page.getByTestId('series-total-views')).toHaveText('2');
  await expect(page.getByTestId('series-total-clicks')).toHaveText('2');

  // The table as CSV, with its counts.
  await page.goto(`/en/admin/ads?q=${encodeURIComponent(name)}`);
  await hydrated(page);
  await expect(page.getByTestId('admin-page')).toHaveAttribute('data-live', 'on');
  await page.getByTestId('admin-export').click();
  const dialog = page.getByTestId('export-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('export-format-csv').check();
  await dialog.getByTestId('export-start').click();
  const link = dialog.getByTestId('export-download');
  await expect(link).toBeVisible({ timeout: 30_000 });
  const download = page.waitForEvent('download');
  await link.click();
  const lines = (await readFile(await (await download).path())).toString('utf8').slice(1).trim().split(/\r?\n/);
  const header = (lines[0] ?? '').split(',');
  expect(header).toEqual(expect.arrayContaining(['Name', 'Ad type', 'Status', 'Views', 'Clicks']));
  expect(lines).toHaveLength(2);
  const row = (lines[1] ?? '').split(',');
  expect(row[header.indexOf('Name')]).toBe(name);
  expect(row[header.indexOf('Views')]).toBe('2');
  expect(row[header.indexOf('Clicks')]).toBe('2');
});

test('the ads menu reads in Chinese, and the editor offers no “target met” status', async ({ page, login }) => {
  await login(users.editor);
  await page.goto('/zh-hk/admin');
  await expect(page.getByTestId('admin-menu-ads')).toHaveText('廣告');
  await expect(page.getByTestId('admin-menu-campaigns')).toHaveText('推廣活動');
  await expect(page.getByTestId('admin-menu-products')).toHaveText('產品');
  await page.goto('/zh-hk/admin/ads/new');
  await hydrated(page);
  // The server sets it when a target is reached (decision 057).
  await expect(page.locator('#field-status option')).toHaveText(['—', '草稿', '已發佈']);
});

test('a campaign microsite shows its campaign’s published ads in the page’s language', async ({ page }) => {
  await page.goto('/zh-hk/campaign/23hkrace');
  const offers = page.getByTestId('campaign-ads');
  await expect(offers.getByRole('heading', { level: 2 })).toHaveText('今次活動優惠');
  // The seeded race-day campaign: its three ads, the heaviest first; the Singapore campaign's are not here.
  await expect(offers.getByRole('listitem')).toHaveCount(3);
  await expect(offers.getByRole('link', { name: '賽馬日：馬場附近飲品買一送一' })).toHaveAttribute(
    'href',
    '/campaign/23hkrace',
  );
  await expect(offers).not.toContainText('小販美食週');
});

test('staff pick ads for a campaign by name, see their names, and take one off', async ({ page, login, request }) => {
  test.slow();
  const stamp = Date.now().toString(36);
  const headers = await staffHeaders(request, users.editor);
  const names = [`Harbour brunch ${stamp}`, `Night market ${stamp}`];
  const ids: string[] = [];
  for (const en of names) {
    const made = await request.post('/api/ads', { headers, data: { name: { en }, adType: 'list', status: 'draft' } });
    expect(made.status(), await made.text()).toBe(201);
    ids.push(((await made.json()) as { _id: string })._id);
  }
  await login(users.editor);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/en/admin/campaigns/new');
  await hydrated(page);
  await page.locator('#field-name-en').fill(`Food week ${stamp}`);
  await page.locator('#field-key').fill(`e2e-food-${stamp}`);
  // The first by mouse, the second by keyboard alone: its start typed, the arrow to it, Enter.
  await addReference(page, 'ads', names[0] as string);
  const box = page.locator('#field-ads');
  const picker = page.getByTestId('references-ads');
  await box.fill(`Night market ${stamp}`);
  // The search for what was typed has answered: only that ad is offered.
  await expect(page.getByRole('listbox').getByRole('option')).toHaveText([names[1] as string]);
  await expect(box).not.toHaveAttribute('aria-busy', 'true');
  // Enter straight after typing takes nothing from that earlier answer, its one ad still shown.
  await box.fill(`No such ad ${stamp}`);
  await box.press('Enter');
  await expect(picker.getByTestId('reference-chip-label')).toHaveText([names[0] as string]);
  await expect(picker.getByTestId('reference-options-note')).toHaveText('No matching records');
  await box.fill(`Night market ${stamp}`);
  await expect(page.getByRole('listbox').getByRole('option')).toHaveText([names[1] as string]);
  await expect(box).not.toHaveAttribute('aria-busy', 'true');
  await box.press('ArrowDown');
  await expect(box).toHaveAttribute('aria-activedescendant', /.+/);
  await box.press('Enter');
  await expect(picker.getByTestId('reference-chip-label')).toHaveText(names);
  // Already chosen, it is not offered again.
  await box.fill(`Harbour brunch ${stamp}`);
  await expect(page.getByRole('option', { name: names[0] })).toHaveCount(0);
  await box.fill('');
  // Nothing runs off a phone's screen, and axe finds nothing in the editor with the list open.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await box.focus();
  expect(await bothThemesViolations(page, '[data-testid="record-form"]')).toEqual([]);
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('snackbar-success')).toBeVisible();

  // The table names them, in order.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/en/admin/campaigns?q=${encodeURIComponent(`Food week ${stamp}`)}`);
  await expect(page.getByTestId('admin-row')).toHaveCount(1);
  await expect(column(page, 'ads')).toHaveText(`${names[0]}, ${names[1]}`);
  const found = await request.get(`/api/campaigns?key=e2e-food-${stamp}`, { headers });
  const campaign = ((await found.json()) as { data: { _id: string; ads: string[] }[] }).data[0];
  expect(campaign?.ads).toEqual(ids);

  // One taken off (by its button), saved: the other stays.
  await page.goto(`/en/admin/campaigns/edit/${campaign?._id as string}`);
  await hydrated(page);
  await expect(picker.getByTestId('reference-chip-label')).toHaveText(names);
  await picker.getByRole('button', { name: `Remove ${names[0]}` }).click();
  await expect(picker.getByTestId('reference-chip-label')).toHaveText([names[1] as string]);
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('snackbar-success')).toBeVisible();
  await page.goto(`/en/admin/campaigns?q=${encodeURIComponent(`Food week ${stamp}`)}`);
  await expect(column(page, 'ads')).toHaveText(names[1] as string);

  // An ad removed since shows as gone, not as its id, in the editor and the table.
  const adminHeaders = await staffHeaders(request, users.admin);
  expect((await request.delete(`/api/ads/${ids[1] as string}`, { headers: adminHeaders })).status()).toBe(200);
  await page.reload();
  await expect(column(page, 'ads')).toHaveText('No longer exists');
  await page.goto(`/en/admin/campaigns/edit/${campaign?._id as string}`);
  await expect(picker.getByTestId('reference-chip-label')).toHaveText(['No longer exists']);
  await expect(picker).not.toContainText(ids[1] as string);
});
