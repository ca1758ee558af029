import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { users } from './users.ts';

/*
 * Push messages in the back office (decision 055): an editor writes one in three languages, sends
 * it to the test device (nothing about the message changes), then to every device; a second page
 * on the message shows its figures change as the devices report through the API, with no reload.
 */

test.use({ colorScheme: 'light' });

interface Registered {
  _id: string;
  deviceId: string;
  secret: string;
}

test('staff compose a push message in three languages, test it on a device, send it to all and watch its figures live', async ({
  page,
  context,
  login,
  request,
}) => {
  test.setTimeout(120_000);
  // Two installations register as the apps do, and are told their secrets.
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const register = async (locale: string): Promise<Registered> => {
    const response = await request.post('/api/appDevices', {
      data: {
        deviceId: `e2e-${run}-${locale}`,
        platform: 'ios',
        locale,
        region: 'hk',
        timeZone: 'Asia/Hong_Kong',
        pushToken: `e2e-token-${run}-${locale}`,
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as Registered;
  };
  const hongKong = await register('zh-hk');
  const english = await register('en');

  await login(users.editor);
  await page.goto('/en/admin/pushMessages/new');
  await hydrated(page);
  const title = `Weekend market ${run}`;
  await page.locator('#field-title-en').fill(title);
  await page.locator('#field-title-tab-zh-hk').click();
  await page.locator('#field-title-zh-hk').fill('週末市集');
  await page.locator('#field-title-tab-zh-cn').click();
  await page.locator('#field-title-zh-cn').fill('周末市集');
  await page.locator('#field-body-en').fill('Forty stalls at the pier, Saturday from 10 am.');
  await page.locator('#field-body-tab-zh-hk').click();
  await page.locator('#field-body-zh-hk').fill('星期六上午十時起，碼頭有四十個攤位。');
  await page.locator('#field-body-tab-zh-cn').click();
  await page.locator('#field-body-zh-cn').fill('星期六上午十时起，码头有四十个摊位。');
  await page.locator('#field-audience').selectOption('all');
  // The test device, found by part of its installation id.
  await page.locator('#field-device').fill(hongKong.deviceId.slice(-12));
  await page.getByRole('option', { name: hongKong.deviceId }).click();
  // Urgent: it goes now whatever the hour on the devices' clocks.
  await page.locator('#field-urgent').check();
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('snackbar-success')).toBeVisible();
  await expect(page).toHaveURL(/\/en\/admin\/pushMessages$/);

  await hydrated(page);
  await page.getByTestId('search-q').fill(title);
  await page.getByTestId('search-apply').click();
  const row = page.getByTestId('admin-row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  const id = String(await row.getAttribute('data-id'));
  const cell = (column: string) => row.locator(`[data-column="${column}"]`);
  await expect(cell('status')).toHaveText('Draft');
  await expect(row.getByTestId('row-schedule')).toHaveCount(0);

  // A test, to the test device alone: the message stays a draft with no figures.
  await row.getByTestId('row-sendTest').click();
  await expect(page.getByTestId('snackbar-success')).toContainText('Test sent to the test device.');
  await expect(cell('status')).toHaveText('Draft');
  await expect(cell('targeted')).toHaveText('0');

  // A second page on the message's own editor, live.
  const watcher = await context.newPage();
  await watcher.goto(`/en/admin/pushMessages?editor=${id}`);
  await hydrated(watcher);
  const figure = (field: string) =>
    watcher
      .getByTestId('record-readonly')
      .locator('div')
      .filter({
        has: watcher.locator('dt', { hasText: new RegExp(`^${field}$`) }),
      });
  await expect(watcher.getByTestId('editor-sendNow')).toBeVisible();

  // Now to every device.
  await row.getByTestId('row-sendNow').click();
  await expect(cell('status')).toHaveText('Sent', { timeout: 20_000 });
  const targeted = Number(await cell('targeted').innerText());
  expect(targeted).toBeGreaterThanOrEqual(2);
  await expect(cell('sent')).toHaveText(String(targeted));
  await expect(figure('Sent').locator('dd')).toHaveText(String(targeted), { timeout: 20_000 });
  await expect(figure('Received').locator('dd')).toHaveText('0');
  await expect(watcher.getByTestId('editor-sendNow')).toHaveCount(0);

  // The devices report, as the apps do: the figures change on both pages without a reload.
  const report = async (device: Registered, event: 'received' | 'opened') => {
    const response = await request.post('/api/pushReceipts', {
      data: { message: id, deviceId: device.deviceId, secret: device.secret, event },
    });
    expect(response.status(), await response.text()).toBe(201);
  };
  await report(hongKong, 'received');
  await expect(figure('Received').locator('dd')).toHaveText('1', { timeout: 10_000 });
  await expect(cell('received')).toHaveText('1', { timeout: 10_000 });
  await report(english, 'opened');
  await report(english, 'opened');
  await expect(figure('Received').locator('dd')).toHaveText('2', { timeout: 10_000 });
  await expect(figure('Opened').locator('dd')).toHaveText('1', { timeout: 10_000 });
  await expect(cell('opened')).toHaveText('1', { timeout: 10_000 });
  await expect(cell('openRate')).toHaveText(String(Math.round(100 / targeted)));

  // The API says the same, and refuses a device that cannot prove itself.
  const headers = await staffHeaders(request, users.editor);
  const record = (await (await request.get(`/api/pushMessages/${id}`, { headers })).json()) as Record<string, unknown>;
  expect(record).toMatchObject({ status: 'sent', targeted, sent: targeted, received: 2, opened: 1 });
  const refused = await request.post('/api/pushReceipts', {
    data: { message: id, deviceId: english.deviceId, secret: 'not-the-secret', event: 'opened' },
  });
  expect(refused.status()).toBe(403);
  await watcher.close();
});
