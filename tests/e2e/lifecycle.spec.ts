import type { Page } from '@playwright/test';
import { bothThemesViolations } from './axe.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { lifecycleMembers } from './users.ts';

/*
 * A plan's life after the purchase (decision 031), as the member sees it: stopping the plan at
 * the end the terms allow and keeping it after all, and paying an overdue renewal by putting in
 * another card, which brings the plan back at once.
 */

test.use({ colorScheme: 'light' });
// Each test walks several pages and waits on the gateway: more than the default time on a busy machine.
test.describe.configure({ timeout: 90_000 });

/**
 * Saves the card from the keyboard: the button is pressed where it is now, whatever the page's
 * late layout (a font arriving) has moved since it was found.
 */
async function saveCard(page: Page) {
  await page.getByTestId('card-save').press('Enter');
}

async function fillCard(page: Page, number = '4242424242424242') {
  await expect(page.getByTestId('card-frame')).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  const frame = page.frameLocator('[data-testid="card-frame"]');
  await frame.locator('#number').fill(number);
  await frame.locator('#expiry').fill('1234');
  await frame.locator('#cvc').fill('123');
  await expect(page.getByTestId('card-frame')).toHaveAttribute('data-complete', 'true');
}

test('a Lite member stops the plan at the end of the period, then keeps it', async ({ page, login }) => {
  await login(lifecycleMembers.stopEn);
  await page.goto('/en/portal/plan');
  await hydrated(page);
  await expect(page.getByTestId('plan-status')).toHaveText('Active');
  const when = page.getByTestId('plan-stop-when');
  await expect(when).toContainText('If you stop now, your plan ends on');
  const endsOn = ((await when.textContent()) ?? '').match(/ends on (.+?), at the end/)?.[1] ?? '';
  expect(endsOn).not.toBe('');

  await page.getByTestId('plan-stop-open').click();
  const dialog = page.getByTestId('plan-stop-dialog');
  await expect(dialog).toBeVisible();
  // The dialog meets the accessibility budget in both themes.
  expect(await bothThemesViolations(page, '[data-testid="plan-stop-dialog"]')).toEqual([]);
  // "Not now" leaves everything as it was.
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('plan-status')).toHaveText('Active');

  await page.getByTestId('plan-stop-open').click();
  await dialog.getByTestId('plan-stop-confirm').click();
  await expect(page.getByTestId('plan-stopping')).toContainText(`Your plan stops on ${endsOn}`, { timeout: 15_000 });
  await expect(page.getByTestId('plan-status')).toHaveText('Stopping');
  await expect(page.getByRole('status').filter({ hasText: `Your plan will stop on ${endsOn}.` })).toBeVisible();

  // The dashboard says so too.
  await page.goto('/en/portal');
  await expect(page.getByTestId('lifecycle-banner')).toHaveText(`Your plan stops on ${endsOn}.See your plan`);
  await page.goto('/en/portal/plan');
  await hydrated(page);
  await page.getByTestId('plan-resume').click();
  await expect(page.getByTestId('plan-stop')).toBeVisible();
  await expect(page.getByTestId('plan-status')).toHaveText('Active');
});

test('a Flexi member in the minimum term sees the termination fee and stops at the term’s end, in Traditional Chinese', async ({
  page,
  login,
}) => {
  await login(lifecycleMembers.stopZh);
  await page.goto('/zh-hk/portal');
  const end = (await page.getByTestId('figure-contract-end').textContent()) ?? '';
  await page.goto('/zh-hk/portal/plan');
  await hydrated(page);
  // Twelve months paid ahead on a 12-month term: nothing is left to pay for ending at the term's end.
  await expect(page.getByTestId('term-ending')).toHaveText(
    `最短合約期於 ${end} 屆滿，之後只需提前 30 日通知即可停止方案。`,
  );
  await expect(page.getByTestId('plan-stop-when')).toHaveText(
    `你的方案設有最短合約期：如現在停止，方案會於合約期屆滿的 ${end} 結束，在此之前照常收費。`,
  );
  await page.getByTestId('plan-stop-open').click();
  await page.getByTestId('plan-stop-confirm').click();
  await expect(page.getByTestId('plan-stopping')).toContainText(`你的方案將於 ${end} 停止`, { timeout: 15_000 });
  await expect(page.getByTestId('plan-status')).toHaveText('即將停止');
  await page.getByTestId('plan-resume').click();
  await expect(page.getByTestId('plan-status')).toHaveText('使用中');
});

for (const [locale, member, texts] of [
  [
    'en',
    lifecycleMembers.overdueEn,
    { overdue: 'Payment overdue', active: 'Active', banner: /Your payment of .+ is overdue\. We will try again on / },
  ],
  [
    'zh-hk',
    lifecycleMembers.overdueZh,
    { overdue: '逾期未付', active: '使用中', banner: /你有一筆 .+ 的款項逾期未付，我們會於 .+ 再次收費。/ },
  ],
] as const) {
  test(`a member with an overdue renewal puts in another card and the plan is paid at once (${locale})`, async ({
    page,
    login,
  }) => {
    await login(member);
    await page.goto(`/${locale}/portal`);
    await expect(page.getByTestId('lifecycle-banner')).toContainText(texts.banner);
    await page.goto(`/${locale}/portal/plan`);
    await expect(page.getByTestId('plan-status')).toHaveText(texts.overdue);
    await expect(page.getByTestId('payment-alert')).toBeVisible();
    await hydrated(page);
    // The plan page with its overdue alert, and the card page saying why it is asked, in both themes.
    if (locale === 'en') expect(await bothThemesViolations(page)).toEqual([]);
    await page.getByTestId('alert-change-card').click();
    await expect(page).toHaveURL(`/${locale}/portal/card`);
    await expect(page.getByTestId('card-overdue')).toBeVisible();
    await hydrated(page);
    if (locale === 'en') expect(await bothThemesViolations(page)).toEqual([]);

    // A declined card is kept on file but pays nothing: the plan stays overdue.
    await fillCard(page, '4000000000000002');
    await saveCard(page);
    await expect(page.getByTestId('card-current')).toContainText('0002', { timeout: 15_000 });
    await expect(page.getByTestId('card-overdue')).toBeVisible();

    await fillCard(page);
    await saveCard(page);
    await expect(page.getByTestId('card-current')).toContainText('4242', { timeout: 15_000 });
    await expect(page.getByTestId('card-overdue')).toHaveCount(0);
    await page.goto(`/${locale}/portal/plan`);
    await expect(page.getByTestId('plan-status')).toHaveText(texts.active);
    await expect(page.getByTestId('payment-alert')).toHaveCount(0);
    await page.goto(`/${locale}/portal`);
    await expect(page.getByTestId('lifecycle-banner')).toHaveCount(0);
  });
}

test('a member removes a bought add-on and its unused share is credited to the balance, in Traditional Chinese', async ({
  page,
  login,
}) => {
  await login(lifecycleMembers.removeZh);
  await page.goto('/zh-hk/portal');
  await expect(page.getByTestId('figure-balance')).toHaveText('沒有未付款項');
  await page.goto('/zh-hk/portal/plan');
  await hydrated(page);
  const before = (await page.getByTestId('plan-monthly').textContent()) ?? '';
  const row = page.getByTestId('plan-module').filter({ hasText: '廚房顯示系統' });
  await row.getByTestId('module-remove').click();
  const dialog = page.getByTestId('remove-dialog');
  await expect(dialog).toBeVisible();
  expect(await bothThemesViolations(page, '[data-testid="remove-dialog"]')).toEqual([]);
  const credit =
    ((await dialog.getByTestId('remove-credit').textContent()) ?? '').match(/費用 (HK\$[\d,.]+) 會撥入/)?.[1] ?? '';
  expect(credit).toMatch(/^HK\$/);
  await dialog.getByTestId('remove-confirm').click();
  await expect(page.getByTestId('plan-module').filter({ hasText: '廚房顯示系統' })).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId('plan-monthly')).not.toHaveText(before);
  await page.goto('/zh-hk/portal');
  await expect(page.getByTestId('figure-balance')).toContainText(credit);
});

test('another member cannot stop someone else’s plan through the page', async ({ page, login }) => {
  await login(lifecycleMembers.stopEn);
  await page.goto('/en/portal/plan');
  await hydrated(page);
  const mine = await page.locator('input[name="subscription"]').first().getAttribute('value');
  await login(lifecycleMembers.overdueEn);
  const response = await page.request.post('/en/portal/plan?_data', {
    form: { intent: 'cancel', subscription: mine ?? '' },
  });
  expect(response.status()).toBe(404);
});
