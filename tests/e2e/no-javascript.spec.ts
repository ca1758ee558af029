import { expect, test } from './fixtures.ts';
import { users } from './users.ts';

// Server-rendered pages and plain HTML forms: everything here works before (or without) hydration.
test.use({ javaScriptEnabled: false });

test('home renders the catalogue on the server', async ({ page, navigate }) => {
  await navigate('/:lang', { lang: 'zh-hk' });
  await expect(page.getByTestId('industries')).toContainText('餐廳');
  await expect(page.getByTestId('plans')).toContainText('HK$2,125');
});

test('logging in and out works without JavaScript', async ({ page, navigate }) => {
  await navigate('/:lang/portal', { lang: 'en' });
  await expect(page).toHaveURL('/en/login?from=%2Fen%2Fportal');
  await page.getByLabel('Email').fill(users.owner.email);
  await page.getByLabel('Password').fill(users.owner.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL('/en/portal');
  await expect(page.getByTestId('welcome')).toHaveText('Welcome back, Mei Chan.');

  await page.getByTestId('user-menu').click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/en');
  await navigate('/:lang/portal', { lang: 'en' });
  await expect(page).toHaveURL('/en/login?from=%2Fen%2Fportal');
});

test.describe('a wrong password without JavaScript', () => {
  test.use({ allowedConsoleErrors: [/status of 401/] });
  test('shows the error and keeps the email', async ({ page, navigate }) => {
    await navigate('/:lang/login', { lang: 'en' });
    await page.getByLabel('Email').fill(users.admin.email);
    await page.getByLabel('Password').fill('Wrong-password-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Incorrect email or password.');
    await expect(page.getByLabel('Email')).toHaveValue(users.admin.email);
  });
});

test.describe('the back office’s editor without JavaScript', () => {
  test.use({ allowedConsoleErrors: [/status of 400/] });
  test('posts natively: the service’s messages show by field, and a valid record is saved', async ({ page, login }) => {
    await login(users.admin);
    await page.goto('/en/admin/subscribers/new');
    const form = page.getByTestId('record-form');
    await form.locator('#field-email').fill('not-an-email');
    await form.getByTestId('editor-save').click();
    await expect(form.getByTestId('error-field-email')).not.toBeEmpty();
    await expect(form.locator('#field-email')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByTestId('edit-error')).toHaveText('Please correct the fields marked below.');

    const email = `no-script-${Date.now()}@tillpoint.test`;
    await form.locator('#field-email').fill(email);
    await form.getByTestId('editor-save').click();
    await expect(page).toHaveURL('/en/admin/subscribers');
    await page.goto(`/en/admin/subscribers?q=${encodeURIComponent(email)}`);
    await expect(page.getByTestId('admin-row').locator('[data-column="email"]')).toHaveText([email]);
  });
});
