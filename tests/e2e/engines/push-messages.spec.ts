/**
 * Push messages' back office in WebKit and Firefox (decision 055): an editor writes a message in
 * the three languages, picks its test device by typing part of its installation id, sends a test
 * (the message stays a draft), then sends it to every device and sees it sent with its figures.
 * The live figures while devices report are tested in Chromium (push-messages.spec.ts).
 */
import { users } from '../users.ts';
import { DESKTOP, expect, hydrate, logInOnTheWayTo, test, until } from './fixtures.ts';

test('an editor composes a push message in three languages, tests it on a device and sends it to all', async ({
  openTab,
  engine,
  request,
}) => {
  test.setTimeout(180_000);
  const run = `${engine}-${Date.now().toString(36)}`;
  const registered = await request.post('/api/appDevices', {
    data: {
      deviceId: `e2e-${run}`,
      platform: 'android',
      locale: 'zh-cn',
      region: 'hk',
      timeZone: 'Asia/Hong_Kong',
      pushToken: `e2e-token-${run}`,
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const device = (await registered.json()) as { _id: string; deviceId: string };

  const tab = await openTab(DESKTOP);
  await logInOnTheWayTo(tab, '/en/admin/pushMessages/new', users.editor);
  await until(tab, 'the editor shows', () => document.querySelector('#field-title-en') !== null);
  await hydrate(tab);
  const title = `Harbour fireworks ${run}`;
  await tab.fill('#field-title-en', title);
  await tab.click('#field-title-tab-zh-hk');
  await tab.fill('#field-title-zh-hk', '維港煙花');
  await tab.click('#field-title-tab-zh-cn');
  await tab.fill('#field-title-zh-cn', '维港烟花');
  await tab.fill('#field-body-en', 'Fireworks over the harbour at 9 pm tonight.');
  await tab.click('#field-body-tab-zh-hk');
  await tab.fill('#field-body-zh-hk', '今晚九時維港上空有煙花。');
  await tab.click('#field-body-tab-zh-cn');
  await tab.fill('#field-body-zh-cn', '今晚九时维港上空有烟花。');
  await tab.select('#field-audience', 'all');
  await tab.fill('#field-device', device.deviceId.slice(-10));
  await until(
    tab,
    'the device is offered',
    (deviceId) =>
      [...document.querySelectorAll('[role="option"]')].some((option) => option.textContent?.trim() === deviceId),
    device.deviceId,
  );
  await tab.click('[role="option"]');
  await tab.click('#field-urgent');
  await tab.click('[data-testid="editor-save"]');
  await until(
    tab,
    'the message is saved',
    () =>
      window.location.pathname === '/en/admin/pushMessages' &&
      document.querySelector('[data-testid="snackbar-success"]') !== null,
  );

  await tab.goto(`/en/admin/pushMessages?q=${encodeURIComponent(title)}`);
  await hydrate(tab);
  await until(
    tab,
    'the table lists the draft',
    () =>
      document.querySelectorAll('[data-testid="admin-row"]').length === 1 &&
      document.querySelector('[data-testid="admin-row"] [data-column="status"]')?.textContent === 'Draft',
  );
  await tab.click('[data-testid="row-sendTest"]');
  await until(
    tab,
    'the test is sent and the message stays a draft',
    () =>
      document.querySelector('[data-testid="snackbar-success"]')?.textContent?.includes('Test sent') === true &&
      document.querySelector('[data-testid="admin-row"] [data-column="status"]')?.textContent === 'Draft',
  );
  await tab.click('[data-testid="row-sendNow"]');
  await until(
    tab,
    'the send has started',
    () => document.querySelector('[data-testid="admin-row"] [data-column="status"]')?.textContent !== 'Draft',
  );
  // The figures as the server holds them: the page read again until the job has sent to every device
  // (they also change live where the live connection is up; that is tested in Chromium).
  const sent = () =>
    tab.evaluate(() => {
      const cell = (column: string) =>
        document.querySelector(`[data-testid="admin-row"] [data-column="${column}"]`)?.textContent ?? '';
      return cell('status') === 'Sent' && Number(cell('targeted')) >= 1 && cell('sent') === cell('targeted');
    });
  await expect
    .poll(
      async () => {
        if (await sent()) return true;
        await tab.goto(`/en/admin/pushMessages?q=${encodeURIComponent(title)}`);
        return sent();
      },
      { message: 'the message is sent to every device', timeout: 30_000, intervals: [1_000] },
    )
    .toBe(true);
});
