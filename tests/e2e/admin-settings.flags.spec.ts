import type { APIRequestContext } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';
import { DEFAULT_FLAGS, setFeatures } from './site-features.ts';
import { users } from './users.ts';

/*
 * The site's settings in the back office (`/{locale}/admin/settings`, issue 21): an admin turns a
 * feature off and back on, a setting that does not hold together is refused by field in Chinese
 * with nothing changed, and an editor sees them without changing them. These change the site-wide
 * flags, so they run with the other `*.flags.spec.ts`, one at a time, and put the defaults back.
 */

test.describe.configure({ mode: 'serial' });
test.use({ colorScheme: 'light', allowedConsoleErrors: [/status of 400/] });

test.afterAll(async ({ request }) => {
  await setFeatures(request, { ...DEFAULT_FLAGS, region: 'hk', currencies: ['SGD', 'HKD'], currency: 'HKD' });
});

const features = async (request: APIRequestContext) =>
  (await (await request.get('/api/features')).json()) as Record<string, unknown>;

test('an admin turns the contact form off and on again from the settings page', async ({ page, login, request }) => {
  await login(users.admin);
  await page.goto('/en/admin');
  await page.getByTestId('admin-menu-settings').click();
  await expect(page).toHaveURL(/\/en\/admin\/settings$/);
  await hydrated(page);
  await expect(page.getByTestId('settings-contactForm')).toBeChecked();
  await page.getByTestId('settings-contactForm').uncheck();
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('snackbar-success')).toContainText('Saved.');
  await expect.poll(async () => (await features(request)).contactForm).toBe(false);
  await expect(page.getByTestId('settings-contactForm')).not.toBeChecked();

  await page.getByTestId('settings-contactForm').check();
  await page.getByTestId('settings-save').click();
  await expect.poll(async () => (await features(request)).contactForm).toBe(true);
});

test('a default currency that is not offered is refused by field in Chinese, and nothing changes', async ({
  page,
  login,
  request,
}) => {
  await login(users.admin);
  await page.goto('/zh-hk/admin/settings');
  await hydrated(page);
  await page.getByTestId('settings-currency-HKD').uncheck();
  await page.getByTestId('settings-currency').selectOption('HKD');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-error')).toHaveText('請更正以下標示的欄位。');
  await expect(page.getByTestId('error-currency')).toHaveText('此數值無效。');
  expect((await features(request)).currencies).toEqual(['SGD', 'HKD']);
});

test('an editor sees the settings but cannot change them', async ({ page, login }) => {
  await login(users.editor);
  await page.goto('/en/admin/settings');
  await expect(page.getByTestId('admin-heading')).toHaveText('Site settings');
  await expect(page.getByTestId('settings-contactForm')).toBeDisabled();
  await expect(page.getByTestId('settings-save')).toHaveCount(0);
  // Posted from the site's own page, as the form would be: refused for the role.
  const refused = await page.request.post('/en/admin/settings', {
    form: { contactForm: 'on' },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(403);
});
