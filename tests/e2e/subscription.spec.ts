import type { Page } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';
import { chooseFirstDate } from './flow.ts';
import { planId } from './plans.ts';

/** The step on show: its name in the address and its heading, which has the focus after a change. */
async function expectStep(page: Page, step: string, heading: string | RegExp) {
  await expect(page).toHaveURL(new RegExp(`[?&]step=${step}(&|$)`));
  await expect(page.getByTestId('subscription-flow')).toHaveAttribute('data-step', step);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
}

const stored = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('subscriptionForm') ?? 'null') as Record<string, unknown> | null);

test('the pricing page’s button opens the flow with the calculator’s choice preselected', async ({ page }) => {
  await page.goto('/en/pricing?industry=restaurant');
  await hydrated(page);
  await page.getByRole('checkbox', { name: /^Online Shop/ }).check();
  await page.getByRole('checkbox', { name: /^Self-Order Kiosk/ }).check();
  await page.getByLabel('How many for Self-Order Kiosk').fill('3');
  await page.getByLabel('Months paid ahead').selectOption('36');
  await expect(page.getByTestId('calculator-action')).toHaveAttribute('href', /plan=restaurant-flexi$/);
  await page.getByTestId('calculator-action').click();

  await expectStep(page, 'summary', 'Your order');
  // The choice left the address once taken into the flow's state.
  await expect(page).toHaveURL('/en/subscription?step=summary');
  const lines = page.getByTestId('summary-line');
  await expect(lines).toHaveCount(3);
  await expect(lines.nth(0)).toContainText('Restaurant Flexi');
  await expect(lines.nth(1)).toContainText('Online Shop');
  await expect(lines.nth(2)).toContainText('Self-Order Kiosk × 3');
  await expect(page.getByLabel('Months paid ahead')).toHaveValue('36');
  await expect(page.getByLabel('Deliver to')).toHaveValue('HK');
  // HK$2,125 + HK$488 + 3 × HK$588 a month, 36 months ahead; no tax line for Hong Kong.
  await expect(page.getByTestId('summary-monthly')).toHaveText('HK$4,377');
  await expect(page.getByTestId('summary-due')).toHaveText('HK$157,572');
  await expect(page.getByTestId('summary-gst')).toHaveCount(0);
  await expect(page.getByTestId('contract-note')).toContainText('12-month contract');
  await expect(page.getByTestId('contract-note')).toContainText('runs 36 months');
  const state = await stored(page);
  expect(state).toMatchObject({ planInfo: { prepaidMonths: 36 } });
  expect((state?.planInfo as { addOns: unknown[] }).addOns).toHaveLength(2);
});

test('the plan page’s button opens the flow on that plan’s add-ons', async ({ page, request }) => {
  await page.goto(`/en/plan/${await planId(request, 'restaurant-lite')}`);
  await hydrated(page);
  await page.getByTestId('plan-action').click();
  await expectStep(page, 'addons', 'Add what you need');
  await expect(page.getByTestId('total-aside')).toContainText('Restaurant Lite');
  await expect(page.getByTestId('aside-monthly')).toHaveText('HK$688');
});

test('a buyer walks industry, plan, add-ons and the summary, and the totals follow every change', async ({ page }) => {
  await page.goto('/en/subscription');
  await hydrated(page);
  await expectStep(page, 'industry', 'What kind of business is it for?');
  await page.getByTestId('industry-restaurant').click();

  await expectStep(page, 'plan', 'Choose your plan');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.getByRole('button', { name: 'Choose Restaurant Lite' }).click();

  await expectStep(page, 'addons', 'Add what you need');
  await page.getByRole('button', { name: 'Add Kitchen Display System' }).click();
  await page.getByLabel('How many for Kitchen Display System').fill('2');
  await expect(page.getByLabel('How many for Kitchen Display System')).toHaveAttribute('aria-valuetext', '2 devices');
  await page.getByRole('button', { name: 'Add Loyalty Programme' }).click();
  await page.getByRole('button', { name: 'Add Online Shop' }).click();
  await expect(page.getByTestId('aside-monthly')).toHaveText('HK$1,880');
  // Cancelled again: it leaves the order.
  await page.getByRole('button', { name: 'Cancel Loyalty Programme' }).click();
  await expect(page.getByRole('button', { name: 'Add Loyalty Programme' })).toBeVisible();
  await expect(page.getByTestId('aside-monthly')).toHaveText('HK$1,552');
  await page.getByRole('button', { name: 'Review order' }).click();

  await expectStep(page, 'summary', 'Your order');
  await expect(page.getByTestId('summary-line')).toHaveCount(3);
  // HK$688 + 2 × HK$188 + HK$488 a month, 24 months ahead by default.
  await expect(page.getByTestId('summary-monthly')).toHaveText('HK$1,552');
  await expect(page.getByLabel('Months paid ahead')).toHaveValue('24');
  await expect(page.getByTestId('summary-due')).toHaveText('HK$37,248');
  await page.getByRole('button', { name: 'Remove Online Shop' }).click();
  await expect(page.getByTestId('summary-line')).toHaveCount(2);
  await expect(page.getByTestId('summary-monthly')).toHaveText('HK$1,064');
  await expect(page.getByTestId('summary-due')).toHaveText('HK$25,536');
  await page.getByLabel('Months paid ahead').selectOption('12');
  await expect(page.getByTestId('summary-prepaid')).toHaveText('HK$12,768');
  await expect(page.getByTestId('summary-due')).toHaveText('HK$12,768');
  await expect(page.getByTestId('contract-note')).toContainText('Lite has no contract');

  // Delivered to Singapore: sold in SGD, GST-inclusive, the GST it contains shown.
  const before = (await stored(page))?.idempotencyKey;
  await page.getByLabel('Deliver to').selectOption('SG');
  await expect(page.getByTestId('summary-monthly')).toHaveText('S$183.02');
  await expect(page.getByTestId('summary-due')).toHaveText('S$2,196.24');
  await expect(page.getByTestId('summary-gst')).toHaveText('S$181.34');
  await expect(page.getByTestId('summary-totals')).toContainText('Includes GST at 9%');
  // Another order content, another idempotency key.
  expect((await stored(page))?.idempotencyKey).not.toBe(before);

  await page.getByRole('button', { name: 'Check out' }).click();
  await expectStep(page, 'shipping', 'Where should we deliver?');
  await expect(page.getByLabel('Country')).toHaveValue('SG');
});

test('the shipping step names every problem, tied to its field, in English and in Traditional Chinese', async ({
  page,
}) => {
  await page.goto('/en/subscription?industry=restaurant&plan=restaurant-lite&addons=kds');
  await hydrated(page);
  await expectStep(page, 'summary', 'Your order');
  await page.getByRole('button', { name: 'Check out' }).click();
  await expectStep(page, 'shipping', 'Where should we deliver?');

  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('shipping-summary')).toHaveText('Please fill in the blanks.');
  const person = page.getByLabel('Contact person');
  await expect(person).toBeFocused();
  await expect(person).toHaveAttribute('aria-invalid', 'true');
  await expect(person).toHaveAccessibleDescription('Required');
  const date = page.getByLabel('Shipping date');
  await expect(date).toHaveAccessibleDescription(/Please choose a date\.$/);
  await expect(page.getByTestId('error-ship-shippingDate')).toHaveText('Please choose a date.');
  // Hong Kong was the default country: no postcode asked.
  await expect(page.getByTestId('error-ship-zipcode')).toHaveCount(0);

  await person.fill('Chan Tai Man');
  await page.getByLabel('Contact number').fill('call me');
  await page.getByLabel('Building / street').fill('1 Queen’s Road Central');
  await page.getByLabel('City').fill('Hong Kong');
  await chooseFirstDate(date);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('shipping-summary')).toHaveText('Please check the highlighted fields.');
  await expect(page.getByLabel('Contact number')).toBeFocused();
  await expect(page.getByLabel('Contact number')).toHaveAccessibleDescription('Invalid phone format.');
});

/** A choice, already made, waiting in the browser's storage (as a visitor who left at the shipping step). */
async function storeChoice(page: Page, shippingInfo: Record<string, string>) {
  await page.goto('/zh-hk/subscription?industry=restaurant&plan=restaurant-lite&addons=kds');
  await hydrated(page);
  await expectStep(page, 'summary', '你的訂單');
  await page.evaluate((info) => {
    const form = JSON.parse(localStorage.getItem('subscriptionForm') ?? '{}') as {
      shippingInfo: Record<string, string>;
    };
    localStorage.setItem(
      'subscriptionForm',
      JSON.stringify({ ...form, shippingInfo: { ...form.shippingInfo, ...info } }),
    );
  }, shippingInfo);
}

test('the shipping step in Traditional Chinese: the same messages, and an account is asked for next', async ({
  page,
}) => {
  await storeChoice(page, { contactPerson: '', contactNumber: 'call me', country: 'HK' });
  await page.goto('/zh-hk/subscription?step=shipping');
  await hydrated(page);
  await expectStep(page, 'shipping', '送貨到哪裏？');
  await page.getByRole('button', { name: '繼續' }).click();
  await expect(page.getByTestId('shipping-summary')).toHaveText('請填寫所有空白欄位。');
  await expect(page.getByLabel('聯絡人')).toBeFocused();
  await expect(page.getByLabel('聯絡人')).toHaveAccessibleDescription('必填');
  await expect(page.getByTestId('error-ship-shippingDate')).toHaveText('請選擇日期。');
  await expect(page.getByLabel('聯絡電話')).toHaveAccessibleDescription('電話號碼格式無效。');

  const date = page.getByLabel('送貨日期');
  await page.getByLabel('聯絡人').fill('陳大文');
  await page.getByLabel('聯絡電話').fill('2345 6789');
  await page.getByLabel('大廈 / 街道').fill('皇后大道中 1 號');
  await page.getByLabel('城市').fill('香港');
  await chooseFirstDate(date);
  await page.getByRole('button', { name: '繼續' }).click();
  await expectStep(page, 'account', '你的帳戶');
  // The account step asks for an account (a new one, or signing in); nothing is passed without one.
  await expect(page.getByTestId('register-form')).toBeVisible();
  await expect(page.getByTestId('account-tab-signIn')).toHaveText('我已有帳戶');
  await expect(page.getByTestId('step-continue')).toHaveCount(0);
});

test('payment cannot be reached before the steps it needs', async ({ page }) => {
  await storeChoice(page, {});
  await page.goto('/zh-hk/subscription?step=payment');
  await hydrated(page);
  await expectStep(page, 'shipping', '送貨到哪裏？');
});

test('a reload in the middle keeps the choice, the step and what was typed', async ({ page }) => {
  await page.goto('/en/subscription?industry=retail&plan=retail-lite');
  await hydrated(page);
  await expectStep(page, 'addons', 'Add what you need');
  await page.getByRole('button', { name: 'Add Kitchen Display System' }).click();
  await page.getByLabel('How many for Kitchen Display System').fill('4');
  await page.reload();
  await hydrated(page);
  await expectStep(page, 'addons', 'Add what you need');
  await expect(page.getByLabel('How many for Kitchen Display System')).toHaveValue('4');
  await expect(page.getByTestId('aside-monthly')).toHaveText('HK$1,440');

  await page.getByRole('button', { name: 'Review order' }).click();
  await page.getByRole('button', { name: 'Check out' }).click();
  await expectStep(page, 'shipping', 'Where should we deliver?');
  await page.getByLabel('Contact person').fill('Lee Siu Ming');
  await page.getByLabel('Additional note').fill('Ring the bell twice');
  await page.reload();
  await hydrated(page);
  await expectStep(page, 'shipping', 'Where should we deliver?');
  await expect(page.getByLabel('Contact person')).toHaveValue('Lee Siu Ming');
  await expect(page.getByLabel('Additional note')).toHaveValue('Ring the bell twice');
});

test('the back button walks the steps, and a step that cannot be shown yet sends to the first incomplete one', async ({
  page,
}) => {
  await page.goto('/en/subscription?step=summary');
  await hydrated(page);
  await expectStep(page, 'industry', 'What kind of business is it for?');
  await page.getByTestId('industry-restaurant').click();
  await expectStep(page, 'plan', 'Choose your plan');
  await page.getByRole('button', { name: 'Choose Restaurant Flexi' }).click();
  await expectStep(page, 'addons', 'Add what you need');
  await page.getByRole('button', { name: 'Review order' }).click();
  await expectStep(page, 'summary', 'Your order');

  await page.goBack();
  await expectStep(page, 'addons', 'Add what you need');
  await page.goBack();
  await expectStep(page, 'plan', 'Choose your plan');
  await expect(page.getByRole('button', { name: 'Chosen Restaurant Flexi', pressed: true })).toBeVisible();
  await page.goForward();
  await expectStep(page, 'addons', 'Add what you need');
  // The progress bar goes back too.
  await page
    .getByTestId('step-progress')
    .getByRole('button', { name: /Industry/ })
    .click();
  await expectStep(page, 'industry', 'What kind of business is it for?');
  await expect(page.getByTestId('industry-restaurant')).toHaveAttribute('aria-pressed', 'true');
});

test('Flexi+ is not bought online: its card leads to the enquiry form with the plan chosen', async ({ page }) => {
  await page.goto('/en/subscription?industry=restaurant');
  await hydrated(page);
  await expectStep(page, 'plan', 'Choose your plan');
  const plus = page.getByTestId('plan-enterprise');
  await expect(plus).toContainText('Negotiable');
  await expect(plus.getByRole('button')).toHaveCount(0);
  await plus.getByRole('link', { name: 'Contact us' }).click();
  await expect(page).toHaveURL('/en/enquiryForm?plan=restaurant-flexi-plus');
  await expect(page.getByLabel('Plan needed')).toHaveValue('restaurant-flexi-plus');
});

test('signing in at the account step keeps the order, and the flow goes on from there', async ({ page, login }) => {
  await storeChoice(page, {
    contactPerson: '陳大文',
    contactNumber: '2345 6789',
    street: '皇后大道中 1 號',
    city: '香港',
    country: 'HK',
  });
  await page.goto('/zh-hk/subscription?step=shipping');
  await hydrated(page);
  const date = page.getByLabel('送貨日期');
  await chooseFirstDate(date);
  await page.getByRole('button', { name: '繼續' }).click();
  await expectStep(page, 'account', '你的帳戶');
  const before = await stored(page);

  await login();
  await page.reload();
  await hydrated(page);
  await expectStep(page, 'account', '你的帳戶');
  await expect(page.getByTestId('signed-in-as')).toHaveText('你已登入為 Mei Chan。');
  expect(await stored(page)).toEqual(before);
  // The demo account's email is verified: the flow goes straight on to payment.
  await page.getByTestId('step-continue').click();
  await expect(page.getByTestId('subscription-flow')).toHaveAttribute('data-step', 'payment');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
});
