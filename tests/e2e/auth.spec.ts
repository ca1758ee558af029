import { expect, hydrated, SESSION_COOKIE, submitLoginForm, test } from './fixtures.ts';
import { users } from './users.ts';

test('the portal sends a signed-out visitor to log in, then back to the portal', async ({ page, navigate }) => {
  await navigate('/:lang/portal', { lang: 'en' });
  await expect(page).toHaveURL('/en/login?from=%2Fen%2Fportal');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in to your account');

  await page.getByLabel('Email').fill(users.owner.email);
  await page.getByLabel('Password').fill(users.owner.password);
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page).toHaveURL('/en/portal');
  await expect(page.getByTestId('welcome')).toHaveText('Welcome back, Mei Chan.');
  // The session lives in an httpOnly cookie that page scripts cannot read.
  const session = (await page.context().cookies()).find((cookie) => cookie.name === SESSION_COOKIE);
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe('Lax');
  expect(await page.evaluate(() => document.cookie)).not.toContain(SESSION_COOKIE);
});

test('a protected link in Traditional Chinese: logged in on the way, the member lands back on the page it named', async ({
  page,
}) => {
  await page.goto('/zh-hk/portal/invoices');
  await expect(page).toHaveURL(`/zh-hk/login?from=${encodeURIComponent('/zh-hk/portal/invoices')}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('登入你的帳戶');
  await submitLoginForm(page, { email: '電郵', password: '密碼', submit: '登入' }, users.monthly);
  await expect(page).toHaveURL('/zh-hk/portal/invoices');
  await expect(page.getByTestId('invoices')).toBeVisible();
});

const wrongPasswords = [
  { lang: 'en', email: users.owner.email, message: 'Incorrect email or password.', submit: 'Log in' },
  // An unknown account gets the same answer as a wrong password.
  { lang: 'zh-hk', email: 'nobody@tillpoint.test', message: '電郵或密碼不正確。', submit: '登入' },
  { lang: 'zh-cn', email: users.editor.email, message: '邮箱或密码不正确。', submit: '登录' },
] as const;

for (const { lang, email, message, submit } of wrongPasswords) {
  test.describe(`a wrong password in ${lang}`, () => {
    test.use({ allowedConsoleErrors: [/status of 401/] });
    test('shows the translated error and keeps the email', async ({ page, navigate }) => {
      await navigate('/:lang/login', { lang });
      await page.locator('input[name=email]').fill(email);
      await page.locator('input[name=password]').fill('Wrong-password-1');
      await page.getByRole('button', { name: submit }).click();

      await expect(page.getByTestId('snackbar-error')).toHaveText(message);
      await expect(page.getByTestId('login-error')).toHaveText(message);
      await expect(page).toHaveURL(new RegExp(`/${lang}/login`));
      await expect(page.locator('input[name=email]')).toHaveValue(email);
      await expect(page.getByTestId('welcome')).toHaveCount(0);
    });
  });
}

test('a signed-in member sees their name in the header and the portal', async ({ page, navigate, login }) => {
  const user = await login(users.owner);
  expect(user.email).toBe(users.owner.email);
  await navigate('/:lang/portal', { lang: 'zh-hk' });
  await expect(page.getByTestId('welcome')).toHaveText('Mei Chan，歡迎回來。');
  await expect(page.getByRole('banner')).toContainText('Mei Chan');
});

test('logging in while signed in goes straight to where the visitor was going', async ({ page, login }) => {
  await login();
  await page.goto('/en/login?from=%2Fen%2Fportal');
  await expect(page).toHaveURL('/en/portal');
});

test('the login form never follows a return path to another site', async ({ page }) => {
  await page.goto('/en/login?from=%2F%2Fevil.example%2F');
  await page.getByLabel('Email').fill(users.owner.email);
  await page.getByLabel('Password').fill(users.owner.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // Signing in hashes the password: seconds on a busy machine.
  await expect(page).toHaveURL('/en/portal', { timeout: 15_000 });
});

test('a visitor without an account is offered a plan from the login page', async ({ page }) => {
  await page.goto('/zh-hk/login');
  await hydrated(page);
  const buy = page.getByTestId('login-buy');
  await expect(buy).toHaveText('揀選計劃，網上購買');
  await buy.click();
  await expect(page).toHaveURL(/\/zh-hk\/subscription/);
  await expect(page.getByTestId('subscription-flow')).toBeVisible();
});

test('logging out returns home and closes the portal', async ({ page, navigate, login }) => {
  await login();
  await navigate('/:lang/portal', { lang: 'en' });
  await expect(page.getByTestId('welcome')).toContainText('Mei Chan');

  await page.getByTestId('user-menu').click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/en');
  await expect(page.getByTestId('snackbar-success')).toHaveText('You have logged out.');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(page.getByTestId('industries')).toContainText('Restaurants');

  await navigate('/:lang/portal', { lang: 'en' });
  await expect(page).toHaveURL('/en/login?from=%2Fen%2Fportal');
});

test('after logging out, a kept copy of the session cookie no longer opens the portal', async ({
  page,
  navigate,
  login,
}) => {
  await login();
  await navigate('/:lang/portal', { lang: 'en' });
  const session = (await page.context().cookies()).find((cookie) => cookie.name === SESSION_COOKIE);
  expect(session).toBeDefined();
  await page.getByTestId('user-menu').click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/en');
  await expect(page.getByTestId('snackbar-success')).toHaveText('You have logged out.');

  if (session) await page.context().addCookies([session]);
  await navigate('/:lang/portal', { lang: 'en' });
  await expect(page).toHaveURL('/en/login?from=%2Fen%2Fportal');
});
