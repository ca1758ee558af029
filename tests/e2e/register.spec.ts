import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { bothThemesViolations } from './axe.ts';
import { expect, hydrated, submitLoginForm, test } from './fixtures.ts';
import { verificationCode } from './mail.ts';
import { users } from './users.ts';

/*
 * The register page (issue 37, decision 020's addendum): an account without buying. Reached from
 * the login page's link; the registration form of the purchase flow, checked in the browser and by
 * the server; then the mailed code in place, and the portal, signed in.
 */

// A refused registration (400, 409), a wrong code and a new code asked for too soon (429) are
// logged by the browser as console errors.
test.use({ allowedConsoleErrors: [/status of (400|409|429)/] });

const PASSWORD = 'Register-page-37';

const newEmail = () => `register-${randomBytes(4).toString('hex')}@example.test`;

async function fillRegistration(page: Page, email: string, passwordConfirm = PASSWORD) {
  await page.locator('#reg-email').fill(email);
  await page.locator('#reg-name').fill('Wong Ka Yan');
  await page.locator('#reg-companyName').fill('Ka Yan Tea House');
  await page.locator('#reg-companyAddress').fill('18 Queen’s Road Central');
  await page.locator('#reg-phone').fill('2345 6789');
  await page.locator('#reg-phoneConfirm').fill('23456789');
  await page.locator('#reg-password').fill(PASSWORD);
  await page.locator('#reg-passwordConfirm').fill(passwordConfirm);
}

test.describe('register page', () => {
  test('a new person registers from the login page, enters the mailed code and lands on the portal', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const email = newEmail();
    await page.goto('/en/login?from=%2Fen%2Fportal');
    await hydrated(page);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(/\/en\/register\?from=%2Fen%2Fportal$/);
    await expect(page).toHaveTitle(/^Create an account \| /);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.getByTestId('register-login')).toHaveAttribute('href', '/en/login?from=%2Fen%2Fportal');
    await hydrated(page);
    expect(await bothThemesViolations(page)).toEqual([]);

    await fillRegistration(page, email);
    await page.getByTestId('register-submit').click();

    // Signed in, and asked for the code in place.
    await expect(page).toHaveURL(/\/en\/register\?step=verify&from=%2Fen%2Fportal$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your email');
    await expect(page.getByTestId('register-verify')).toContainText(email);
    await expect(page.getByTestId('verify-resend')).toBeDisabled();
    await hydrated(page);
    expect(await bothThemesViolations(page)).toEqual([]);

    // A wrong code first: the server's message at the field.
    await page.getByTestId('verify-code').fill('000000');
    await page.getByTestId('verify-submit').click();
    await expect(page.getByTestId('error-verify-code')).toContainText('That code is not correct');

    const code = await verificationCode(request, email);
    await page.getByTestId('verify-code').fill(code);
    await page.getByTestId('verify-submit').click();
    await expect(page).toHaveURL(/\/en\/portal$/);
    await expect(page.getByTestId('no-subscription').getByRole('heading')).toHaveText('You have no plan yet');

    // Signed in and verified: the register page sends them on to the portal.
    await page.goto('/en/register');
    await expect(page).toHaveURL(/\/en\/portal$/);
  });

  test('an existing email is refused at its field in zh-hk, with signing in offered instead', async ({ page }) => {
    await page.goto('/zh-hk/register');
    await hydrated(page);
    await expect(page).toHaveTitle(/^建立帳戶 \| /);
    await expect(page.getByTestId('register-login')).toHaveText('登入');
    await fillRegistration(page, users.owner.email.toUpperCase());
    await page.getByTestId('register-submit').click();
    await expect(page.getByTestId('error-reg-email')).toHaveText('帳戶已存在');
    await expect(page.locator('#reg-email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#reg-email')).toBeFocused();
    await expect(page.locator('#reg-name')).toHaveValue('Wong Ka Yan');
    await page.getByTestId('register-sign-in').click();
    await expect(page).toHaveURL(/\/zh-hk\/login$/);
  });

  test('mismatched passwords are shown at the confirmation field, before anything is sent', async ({ page }) => {
    await page.goto('/en/register');
    await hydrated(page);
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST') posted += 1;
    });
    await fillRegistration(page, newEmail(), `${PASSWORD}x`);
    await page.getByTestId('register-submit').click();
    await expect(page.getByTestId('error-reg-passwordConfirm')).toHaveText('The passwords are inconsistent.');
    await expect(page.locator('#reg-passwordConfirm')).toBeFocused();
    expect(posted).toBe(0);
  });

  test('a signed-in member opening the register page is sent to the portal', async ({ page }) => {
    await page.goto('/en/login');
    await submitLoginForm(page, { email: 'Email', password: 'Password', submit: 'Log in' }, users.owner);
    await expect(page).toHaveURL(/\/en\/portal/);
    await page.goto('/en/register');
    await expect(page).toHaveURL(/\/en\/portal$/);
  });
});

test.describe('register page without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the server checks the form and registers; the code is entered with a plain form', async ({ page, request }) => {
    test.setTimeout(60_000);
    const email = newEmail();
    await page.goto('/en/register?from=%2Fen%2Fportal%2Fprofile');
    await fillRegistration(page, email, `${PASSWORD}x`);
    await page.getByTestId('register-submit').click();
    await expect(page.getByTestId('error-reg-passwordConfirm')).toHaveText('The passwords are inconsistent.');
    await expect(page.locator('#reg-passwordConfirm')).toBeFocused();
    // The page the server answers holds what was typed, but never a password.
    await expect(page.locator('#reg-email')).toHaveValue(email);
    await expect(page.locator('#reg-password')).toHaveValue('');

    await fillRegistration(page, email);
    await page.getByTestId('register-submit').click();
    await expect(page).toHaveURL(/\/en\/register\?step=verify&from=%2Fen%2Fportal%2Fprofile$/);
    // A new code is asked for with a plain form too (no countdown runs here): the server keeps the
    // minute since the first one and says so.
    const resend = page.getByTestId('verify-resend');
    await expect(resend).toBeEnabled();
    await expect(resend).toHaveText('Send a new code');
    await resend.click();
    await expect(page.getByTestId('error-verify-code')).toHaveText(
      'A code was sent a moment ago. Please wait a minute before asking for another.',
    );
    // Enter in the code's field sends the code, not a request for another.
    await page.getByTestId('verify-code').fill('000000');
    await page.getByTestId('verify-code').press('Enter');
    await expect(page.getByTestId('error-verify-code')).toContainText('That code is not correct');

    await page.getByTestId('verify-code').fill(await verificationCode(request, email));
    await page.getByTestId('verify-submit').click();
    await expect(page).toHaveURL(/\/en\/portal\/profile$/);
  });
});
