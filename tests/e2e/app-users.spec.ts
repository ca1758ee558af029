import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { appUserRows, users } from './users.ts';

/*
 * The apps' people and phones in the back office: staff find app users by name or email and
 * filter them by region, gender, language and whether they are disabled; an app user's page lists
 * their devices and changes their name and date of birth (kept as the day typed) and disables them;
 * the table exports; an editor sees the email but cannot change it. The seed's app users are read
 * only; the changes are made to a person of the tests' own (tests/e2e/users.ts `appUserRows`).
 */

test.use({ colorScheme: 'light' });

const names = (page: Page) => page.getByTestId('admin-row').locator('[data-column="name"]');

test('staff find app users by name and by filters, and export what they found', async ({ page, login }) => {
  test.slow();
  await login(users.admin);
  await page.goto('/en/admin');
  await expect(page.getByTestId('admin-menu-appUsers')).toHaveText('App users');
  await expect(page.getByTestId('admin-menu-appDevices')).toHaveText('App devices');
  await page.getByTestId('admin-menu-appUsers').click();
  await expect(page.getByTestId('admin-heading')).toHaveText('App users');
  await hydrated(page);

  // By name, and by a part of an email.
  await page.getByTestId('search-q').fill('Tan Wei');
  await page.getByTestId('search-apply').click();
  await expect(names(page)).toHaveText(['Tan Wei Ling']);
  await page.getByTestId('search-q').fill('junhao.lim@');
  await page.getByTestId('search-apply').click();
  await expect(names(page)).toHaveText(['林俊豪']);

  // Women in Singapore, from the filters.
  await page.getByTestId('search-clear').click();
  await expect(page).toHaveURL(/\/en\/admin\/appUsers$/);
  await hydrated(page);
  await page.getByText('Filters').click();
  await page.getByTestId('filter-region').fill('sg');
  await page.getByTestId('filter-gender').selectOption('female');
  await page.getByTestId('search-apply').click();
  await expect(page).toHaveURL(/f\.region=sg/);
  await expect(names(page)).toHaveText(['Rachel Goh', 'Priya Nair', 'Tan Wei Ling']);

  // By language, and the one disabled man in Hong Kong.
  await page.goto('/en/admin/appUsers?f.locale=zh-cn');
  await expect(names(page)).toHaveText(['林俊豪', '王芳']);
  await page.goto('/en/admin/appUsers?f.disabledAt=true&f.gender=male&f.region=hk');
  await expect(names(page)).toHaveText(['李志強']);
  await expect(page.getByTestId('admin-row').locator('[data-column="disabledAt"] time')).toHaveCount(1);
  await page.goto('/en/admin/appUsers?f.disabledAt=false&f.region=sg&f.gender=female');
  await expect(names(page)).toHaveCount(3);

  // The women in Singapore as CSV: their dates of birth as kept.
  await page.goto('/en/admin/appUsers?f.region=sg&f.gender=female');
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
  const headers = (lines[0] ?? '').split(',');
  expect(headers).toEqual(expect.arrayContaining(['Name', 'Email', 'Date of birth', 'Gender', 'Region', 'Disabled']));
  const rows = lines.slice(1).map((line) => line.split(','));
  const column = (name: string) => headers.indexOf(name);
  expect(rows.map((row) => row[column('Name')]).sort()).toEqual(['Priya Nair', 'Rachel Goh', 'Tan Wei Ling']);
  const tan = rows.find((row) => row[column('Name')] === 'Tan Wei Ling');
  expect(tan?.[column('Date of birth')]).toBe('1991-09-22');
  expect(tan?.[column('Gender')]).toBe('Female');
});

test('staff open an app user, see their devices, change their name and birth day, and disable them', async ({
  page,
  login,
  request,
}) => {
  test.slow();
  const person = appUserRows.edit;
  await login(users.admin);
  await page.goto(`/en/admin/appUsers?q=${encodeURIComponent(person.email)}`);
  await expect(names(page)).toHaveText([person.name]);
  // The date of birth in the row's details, as the day itself in the reader's language.
  await page.getByTestId('row-expand').click();
  await expect(page.getByTestId('record-detail')).toContainText('8 March 1985');

  // The editor over the table lists the person's two phones.
  await hydrated(page);
  await page.getByTestId('row-edit').click();
  const dialog = page.getByTestId('editor-dialog');
  await expect(dialog).toBeVisible();
  const devices = dialog.getByTestId('related-appDevices');
  await expect(devices.getByTestId('related-row')).toHaveCount(2);
  for (const device of person.devices) await expect(devices).toContainText(device.deviceId);
  await dialog.getByRole('link', { name: 'Open as a page' }).click();

  // Their page: the day in the date box as kept, then changed, with the name, and the account disabled.
  await expect(page).toHaveURL(new RegExp(`/en/admin/appUsers/edit/${person._id}$`));
  await hydrated(page);
  await expect(page.getByTestId('related-appDevices').getByTestId('related-row')).toHaveCount(2);
  await expect(page.locator('#field-date')).toHaveValue(person.birthDay);
  await expect(page.locator('#field-disabledAt')).not.toBeChecked();
  await page.locator('#field-name').fill('何美玲 Mei Ling Ho');
  await page.locator('#field-date').fill('1990-05-17');
  await page.locator('#field-disabledAt').check();
  await page.getByTestId('editor-save').click();
  await expect(page).toHaveURL(/\/en\/admin\/appUsers$/);
  await expect(page.getByTestId('snackbar-success')).toBeVisible();

  // Kept exactly: the service holds the day typed, and the time it was disabled.
  const headers = await staffHeaders(request);
  const stored = (await (await request.get(`/api/appUsers/${person._id}`, { headers })).json()) as Record<
    string,
    unknown
  >;
  expect(stored.name).toBe('何美玲 Mei Ling Ho');
  expect(stored.date).toBe('1990-05-17');
  expect(Date.now() - new Date(String(stored.disabledAt)).getTime()).toBeLessThan(120_000);

  // Opened again: the same day, the switch on since today, and the change in the history.
  await page.goto(`/en/admin/appUsers/edit/${person._id}`);
  await hydrated(page);
  await expect(page.locator('#field-date')).toHaveValue('1990-05-17');
  await expect(page.locator('#field-disabledAt')).toBeChecked();
  await expect(page.getByTestId('field-disabledAt-since')).toContainText('On since 20');
  const history = page.getByTestId('history-entry').first();
  await expect(history).toContainText('8 March 1985');
  await expect(history).toContainText('17 May 1990');

  // In Chinese, the same day written the Chinese way, and the account among the disabled.
  await page.goto(`/zh-hk/admin/appUsers?q=${encodeURIComponent(person.email)}&open=${person._id}`);
  await expect(page.getByTestId('record-detail')).toContainText('1990年5月17日');
  await page.goto(`/en/admin/appUsers?f.disabledAt=true&q=${encodeURIComponent(person.email)}`);
  await expect(names(page)).toHaveText(['何美玲 Mei Ling Ho']);

  // A device from the person's page: its own row in the devices' table, its push token shown.
  await page.goto(`/en/admin/appUsers/edit/${person._id}`);
  await page.getByTestId('related-appDevices').getByRole('link', { name: person.devices[0].deviceId }).click();
  await expect(page).toHaveURL(/\/en\/admin\/appDevices\?f\.user=e2eappuseredit&open=e2eappdevice1$/);
  await expect(page.getByTestId('admin-row')).toHaveCount(2);
  await expect(page.getByTestId('row-detail')).toContainText(person.devices[0].pushToken);
  // Switching the account off back on: cleared.
  await page.goto(`/en/admin/appUsers/edit/${person._id}`);
  await hydrated(page);
  await page.locator('#field-disabledAt').uncheck();
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('snackbar-success')).toBeVisible();
  const cleared = (await (await request.get(`/api/appUsers/${person._id}`, { headers })).json()) as Record<
    string,
    unknown
  >;
  expect(cleared.disabledAt).toBeNull();
  expect(cleared.date).toBe('1990-05-17');
});

test('an editor sees an app user’s email and password as theirs alone to change', async ({ page, login }) => {
  const person = appUserRows.edit;
  await login(users.editor);
  await page.goto(`/en/admin/appUsers/edit/${person._id}`);
  await hydrated(page);
  await expect(page.locator('#field-name')).toBeEditable();
  await expect(page.locator('#field-email')).toHaveCount(0);
  await expect(page.locator('#field-password')).toHaveCount(0);
  await expect(page.getByTestId('record-readonly')).toContainText(person.email);
  // Editors may disable an account, and read the devices, but not the audit log.
  await expect(page.locator('#field-disabledAt')).toBeVisible();
  await expect(page.getByTestId('related-appDevices')).toBeVisible();
  await expect(page.getByTestId('record-history')).toHaveCount(0);
});

test('the app devices’ table shows the spec’s fields, and a device’s page its push token', async ({ page, login }) => {
  await login(users.editor);
  await page.goto('/en/admin/appDevices');
  await expect(page.getByTestId('admin-heading')).toHaveText('App devices');
  const headers = page.getByTestId('admin-table').locator('thead th');
  for (const label of [
    'Device ID',
    'App user',
    'Last IP address',
    'First session',
    'Last session',
    'Push notifications',
  ])
    await expect(headers.filter({ hasText: label })).toHaveCount(1);
  // Installations register themselves: nothing to add, copy, change or delete for an editor.
  await expect(page.getByTestId('admin-add')).toHaveCount(0);
  await expect(page.getByTestId('row-edit')).toHaveCount(0);
  await expect(page.getByTestId('row-remove')).toHaveCount(0);

  // The demo app user's phones, found by their owner; the signed-out ones have none.
  await page.goto('/en/admin/appDevices?q=E621E1F8');
  const row = page.getByTestId('admin-row');
  await expect(row).toHaveCount(1);
  await expect(row.locator('[data-column="user"]')).toHaveText('Chan Siu Ming');
  await expect(row.locator('[data-column="lastIP"]')).toHaveText('203.198.23.114');
  await expect(row.locator('[data-column="pushEnabled"]')).toHaveText('Yes');
  await row.getByTestId('row-expand').click();
  const detail = page.getByTestId('row-detail');
  await expect(detail).toContainText('Push token');
  await expect(detail).toContainText('Asia/Hong_Kong');
  await expect(detail).not.toContainText('Secret');
  await page.goto('/en/admin/appDevices?f.pushEnabled=false&f.region=sg&f.timeZone=Asia%2FSingapore');
  await expect(page.getByTestId('admin-row')).toHaveCount(3);
});
