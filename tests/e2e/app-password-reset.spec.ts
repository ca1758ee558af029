import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type { Locale } from '../../domain/locales.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { asAdmin, staffHeaders } from './staff-api.ts';

/*
 * A forgotten password of a user of the company's apps, from end to end (decision 026, addendum):
 * the app asks for a link through the API (the same answer for an address without an app user),
 * the mailed link is read from the outbox as staff would, the new password is set on the site's
 * page for the apps, which says to go back to the app, and the app signs in with it through the
 * API. Each test has an app user of its own, made through the API.
 */

// A refused form (400) and a used link (410) are logged by the browser as console errors: those are the point here.
test.use({ allowedConsoleErrors: [/status of (400|410)/] });

async function newAppUser(request: APIRequestContext, locale: Locale) {
  const appUser = {
    email: `app-reset-${locale}-${randomBytes(4).toString('hex')}@example.test`,
    password: 'Before-reset-1',
    name: 'Wong Siu Ming',
    locale,
  };
  const response = await request.post('/api/appUsers', { headers: await staffHeaders(request), data: appUser });
  expect(response.status(), 'an admin makes the app user').toBe(201);
  return appUser;
}

/** What the app does when its user forgot their password. */
async function askForLink(request: APIRequestContext, email: string, locale: Locale = 'en') {
  const response = await request.post('/api/appPasswordResets', { data: { email }, headers: { 'x-locale': locale } });
  expect(response.status()).toBe(201);
  return response.json();
}

/** What the app does to sign in: answers the status. */
async function appSignIn(request: APIRequestContext, email: string, password: string): Promise<number> {
  const response = await request.post('/api/appAuthentication', { data: { strategy: 'local', email, password } });
  return response.status();
}

/** The link of the newest mail to an address, as a path on the site under test. */
async function mailedLink(
  request: APIRequestContext,
  email: string,
): Promise<{ path: string; text: string; subject: string }> {
  let mail: Record<string, unknown> = {};
  await expect
    .poll(
      async () => {
        const { data } = await asAdmin(request, `outbox?to=${encodeURIComponent(email)}&$sort[createdAt]=-1&$limit=1`);
        mail = data[0] ?? {};
        return /\/app\/reset-password\?token=/.test(String(mail.text ?? ''));
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const link = /(http\S+\/app\/reset-password\?token=\S+)/.exec(String(mail.text))![1]!;
  const url = new URL(link);
  return { path: `${url.pathname}${url.search}`, text: String(mail.text), subject: String(mail.subject) };
}

test('an app user who forgot their password gets a link, sets a new one on the site and signs in with it in the app', async ({
  page,
  request,
}) => {
  const appUser = await newAppUser(request, 'en');
  // The same answer for an address no app user has.
  const nobody = `nobody-${randomBytes(4).toString('hex')}@example.test`;
  expect(await askForLink(request, nobody)).toEqual({ requested: true });
  expect(await askForLink(request, appUser.email.toUpperCase())).toEqual({ requested: true });

  const mail = await mailedLink(request, appUser.email);
  expect(mail.subject).toBe('Reset your password for the Tillpoint app');
  expect(mail.path).toMatch(/^\/en\/app\/reset-password\?token=[A-Za-z0-9_-]{43}$/);

  // The page holds the link's token: no cache, shared or not, keeps it, and robots stay out.
  const opened = await page.goto(mail.path);
  expect(opened?.headers()['cache-control']).toBe('private, no-store');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  // An app user has no portal: the page offers no sign-in on the site.
  await expect(page.getByRole('link', { name: 'Back to log in' })).toHaveCount(0);
  await page.locator('#reset-password').fill('After-reset-2');
  await page.locator('#reset-passwordConfirm').fill('After-reset-3');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('error-reset-passwordConfirm')).toHaveText('The passwords are inconsistent.');
  await expect(page.locator('#reset-password')).toHaveValue('');

  await page.locator('#reset-password').fill('After-reset-2');
  await page.locator('#reset-passwordConfirm').fill('After-reset-2');
  await page.getByTestId('reset-submit').click();
  await expect(page).toHaveURL(/\/en\/app\/reset-password\?done$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your password has been changed' })).toBeVisible();
  await expect(page.getByTestId('app-reset-done')).toHaveText('Go back to the app and sign in with your new password.');

  // The app signs in with the new password; the old one is refused.
  expect(await appSignIn(request, appUser.email, 'After-reset-2')).toBe(201);
  expect(await appSignIn(request, appUser.email, appUser.password)).toBe(401);

  // The link works once; the page says where a new one comes from.
  await page.goto(mail.path);
  await hydrated(page);
  await page.locator('#reset-password').fill('Third-password-4');
  await page.locator('#reset-passwordConfirm').fill('Third-password-4');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-link-problem')).toHaveText(
    'This link has already been used. Ask for a new one if you need to set your password again.',
  );
  await expect(page.getByTestId('app-reset-ask-in-app')).toHaveText(
    "To get a new link, ask for one again on the app's sign-in screen.",
  );
  expect(await appSignIn(request, appUser.email, 'Third-password-4')).toBe(401);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('an app user reads the mail in their language and sets a new password in Traditional Chinese', async ({
    page,
    request,
  }) => {
    const appUser = await newAppUser(request, 'zh-hk');
    // Asked in English: the mail and its link follow the app user's language.
    await askForLink(request, appUser.email, 'en');
    const mail = await mailedLink(request, appUser.email);
    expect(mail.subject).toBe('重設你的 Tillpoint 應用程式密碼');
    expect(mail.text).toContain('請開啟以下連結，為你的 Tillpoint 應用程式帳戶設定新密碼：');
    expect(mail.path).toMatch(/^\/zh-hk\/app\/reset-password\?token=/);

    await page.goto(mail.path);
    await expect(page.getByRole('heading', { level: 1, name: '設定新密碼' })).toBeVisible();
    await page.locator('#reset-password').fill('short');
    await page.locator('#reset-passwordConfirm').fill('short');
    await page.getByTestId('reset-submit').click();
    await expect(page.getByTestId('error-reset-password')).toHaveText('最少 8 個字元');
    await expect(page.locator('#reset-password')).toBeFocused();

    await page.locator('#reset-password').fill('Reset-in-zh-5');
    await page.locator('#reset-passwordConfirm').fill('Reset-in-zh-5');
    await page.getByTestId('reset-submit').click();
    await expect(page).toHaveURL(/\/zh-hk\/app\/reset-password\?done$/);
    await expect(page.getByTestId('app-reset-done')).toHaveText('請返回應用程式，以新密碼登入。');
    expect(await appSignIn(request, appUser.email, 'Reset-in-zh-5')).toBe(201);

    // A link that is not one says so before anything is typed.
    await page.goto('/zh-hk/app/reset-password?token=nope');
    await expect(page.getByTestId('reset-link-problem')).toHaveText('此設定新密碼的連結無效，請重新索取。');
    await expect(page.getByTestId('app-reset-ask-in-app')).toHaveText('如需新連結，請在應用程式的登入畫面重新索取。');
  });
});
