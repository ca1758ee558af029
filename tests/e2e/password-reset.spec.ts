import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Locale } from '../../domain/locales.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { asAdmin, staffHeaders } from './staff-api.ts';

/*
 * A forgotten password from end to end (decision 026): the login page's link, the request (the
 * same answer for an address without an account), the mailed link read from the outbox as staff
 * would, the new password typed twice, signing in with it, the old one refused, and the used link.
 * Each test has a member of its own, made through the API.
 */

// A refused form (400) and a used link (410) are logged by the browser as console errors: those are the point here.
test.use({ allowedConsoleErrors: [/status of (400|410)/] });

async function newMember(request: APIRequestContext, locale: Locale) {
  const member = {
    email: `reset-${locale}-${randomBytes(4).toString('hex')}@example.test`,
    password: 'Before-reset-1',
    name: 'Chan Tai Man',
    locale,
  };
  const response = await request.post('/api/users', {
    headers: await staffHeaders(request),
    data: { ...member, role: 'member' },
  });
  expect(response.status(), 'an admin makes the member').toBe(201);
  return member;
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
        return /\/reset-password\?token=/.test(String(mail.text ?? ''));
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const link = /(http\S+\/reset-password\?token=\S+)/.exec(String(mail.text))![1]!;
  const url = new URL(link);
  return { path: `${url.pathname}${url.search}`, text: String(mail.text), subject: String(mail.subject) };
}

async function signIn(page: Page, locale: Locale, email: string, password: string) {
  await page.goto(`/${locale}/login`);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.getByRole('button', { name: locale === 'en' ? 'Log in' : '登入', exact: true }).click();
}

test('a member who forgot their password asks for a link, sets a new one and signs in with it', async ({
  page,
  request,
  browser,
}) => {
  const member = await newMember(request, 'en');
  await page.goto('/en/login');
  await hydrated(page);
  await page.getByTestId('login-forgot').click();
  await expect(page).toHaveURL(/\/en\/forgot-password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();

  // An address without an account gets the same answer.
  const nobody = `nobody-${randomBytes(4).toString('hex')}@example.test`;
  await page.locator('#reset-email').fill(nobody);
  await page.getByTestId('reset-request-submit').click();
  await expect(page.getByTestId('reset-requested')).toContainText(
    `If an account uses ${nobody}, a link to set a new password is on its way there.`,
  );

  await page.goto('/en/forgot-password');
  await hydrated(page);
  await page.locator('#reset-email').fill(member.email.toUpperCase());
  await page.getByTestId('reset-request-submit').click();
  await expect(page.getByTestId('reset-requested')).toContainText(
    `If an account uses ${member.email}, a link to set a new password is on its way there.`,
  );

  const mail = await mailedLink(request, member.email);
  expect(mail.subject).toBe('Set a new password for your Tillpoint account');
  expect(mail.path).toMatch(/^\/en\/reset-password\?token=[A-Za-z0-9_-]{43}$/);

  // The page holds the link's token: no cache, shared or not, keeps it.
  const opened = await page.goto(mail.path);
  expect(opened?.headers()['cache-control']).toBe('private, no-store');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
  await page.locator('#reset-password').fill('After-reset-2');
  await page.locator('#reset-passwordConfirm').fill('After-reset-3');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('error-reset-passwordConfirm')).toHaveText('The passwords are inconsistent.');
  await expect(page.locator('#reset-password')).toHaveValue('');

  await page.locator('#reset-password').fill('After-reset-2');
  await page.locator('#reset-passwordConfirm').fill('After-reset-2');
  await page.getByTestId('reset-submit').click();
  // Signed in with the new password, on the dashboard.
  await expect(page).toHaveURL(/\/en\/portal$/);
  await expect(page.getByTestId('user-badge')).toContainText('Chan Tai Man');

  // The link works once.
  await page.goto(mail.path);
  await hydrated(page);
  await page.locator('#reset-password').fill('Third-password-4');
  await page.locator('#reset-passwordConfirm').fill('Third-password-4');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-link-problem')).toHaveText(
    'This link has already been used. Ask for a new one if you need to set your password again.',
  );
  await expect(page.getByTestId('reset-ask-again')).toHaveAttribute('href', '/en/forgot-password');

  // Elsewhere: the old password is refused, the new one signs in.
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await signIn(elsewhere, 'en', member.email, member.password);
  await expect(elsewhere.getByTestId('login-error')).toBeVisible();
  await signIn(elsewhere, 'en', member.email, 'After-reset-2');
  await expect(elsewhere).toHaveURL(/\/en\/portal$/);
  await other.close();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a member reads the mail in their language and sets a new password in Traditional Chinese', async ({
    page,
    request,
  }) => {
    const member = await newMember(request, 'zh-hk');
    // Asked from the English page: the mail and its link follow the account's language.
    await page.goto('/en/forgot-password');
    await page.locator('#reset-email').fill(member.email);
    await page.getByTestId('reset-request-submit').click();
    await expect(page.getByTestId('reset-requested')).toBeVisible();

    const mail = await mailedLink(request, member.email);
    expect(mail.subject).toBe('為你的 Tillpoint 帳戶設定新密碼');
    expect(mail.path).toMatch(/^\/zh-hk\/reset-password\?token=/);

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
    await expect(page).toHaveURL(/\/zh-hk\/portal$/);

    await page.goto(mail.path);
    await page.locator('#reset-password').fill('Reset-in-zh-6');
    await page.locator('#reset-passwordConfirm').fill('Reset-in-zh-6');
    await page.getByTestId('reset-submit').click();
    await expect(page.getByTestId('reset-link-problem')).toHaveText(
      '此連結已使用過。如需再次設定密碼，請重新索取連結。',
    );

    // A link that is not one says so before anything is typed.
    await page.goto('/zh-hk/reset-password?token=nope');
    await expect(page.getByTestId('reset-link-problem')).toHaveText('此設定新密碼的連結無效，請重新索取。');
    await expect(page.getByTestId('reset-ask-again')).toHaveText('重新索取連結');
  });
});
