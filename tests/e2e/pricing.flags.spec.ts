import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { planId } from './plans.ts';
import { DEFAULT_FLAGS, setFeatures } from './site-features.ts';

/**
 * The main button of the calculator (/pricing) and of a plan's page (/plan/{id}) under each
 * setting of the site's flags (spec "Pricing calculator"). These tests change the site-wide
 * flags: they run one after another and put them back.
 */
test.describe.configure({ mode: 'serial' });

test.afterAll(async ({ request }) => {
  await setFeatures(request, DEFAULT_FLAGS);
});

/** The enquiry form, loaded, with the plan the button named already chosen. */
async function expectEnquiryForm(page: Page, lang: string, heading: string, planLabel: string, plan: string) {
  await expect(page).toHaveURL(`/${lang}/enquiryForm?plan=${plan}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  await expect(page.getByLabel(planLabel)).toHaveValue(plan);
}

test('with subscriptions on, a listed plan subscribes', async ({ page, request }) => {
  await setFeatures(request, { subscription: true, contactForm: true });

  await page.goto('/en/pricing?industry=restaurant');
  const calculator = page.getByTestId('calculator-action');
  await expect(calculator).toHaveText('Subscribe to this plan');
  // The calculator's plan for the industry travels with the button, and so do the add-ons chosen.
  await expect(calculator).toHaveAttribute('href', '/en/subscription?industry=restaurant&plan=restaurant-flexi');
  await page.getByRole('checkbox', { name: /^Online Shop/ }).check();
  await expect(calculator).toHaveAttribute(
    'href',
    '/en/subscription?industry=restaurant&addons=online-shop&plan=restaurant-flexi',
  );

  await page.goto(`/zh-hk/plan/${await planId(request, 'restaurant-lite')}`);
  const action = page.getByTestId('plan-action');
  await expect(action).toHaveText('訂購此方案');
  await expect(action).toHaveAttribute('href', '/zh-hk/subscription?industry=restaurant&plan=restaurant-lite');
  expect(await action.getAttribute('target')).toBeNull();
});

test('with subscriptions on, an enterprise plan (Flexi+) still goes to the enquiry form', async ({ page, request }) => {
  await setFeatures(request, { subscription: true, contactForm: true });

  // Chains and franchises show their Flexi+ in the calculator. By mouse:
  await page.goto('/zh-hk/pricing?industry=chain-franchise');
  await expect(page.getByTestId('calculator-action')).toHaveText('查詢此方案');
  await page.getByTestId('calculator-action').click();
  await expectEnquiryForm(page, 'zh-hk', '查詢表格', '所需計劃', 'chain-franchise-flexi-plus');

  // By keyboard, from the plan's page:
  await page.goto(`/en/plan/${await planId(request, 'restaurant-flexi-plus')}`);
  const action = page.getByTestId('plan-action');
  await expect(action).toHaveText('Ask us about this plan');
  await action.focus();
  await page.keyboard.press('Enter');
  await expectEnquiryForm(page, 'en', 'Enquiry form', 'Plan needed', 'restaurant-flexi-plus');
});

test('with subscriptions off and the contact form on, every plan goes to the enquiry form', async ({
  page,
  request,
}) => {
  await setFeatures(request, { subscription: false, contactForm: true });

  // By keyboard, from the calculator:
  await page.goto('/en/pricing?industry=retail');
  const calculator = page.getByTestId('calculator-action');
  await expect(calculator).toHaveText('Ask us about this plan');
  await calculator.focus();
  await page.keyboard.press('Enter');
  await expectEnquiryForm(page, 'en', 'Enquiry form', 'Plan needed', 'retail-flexi');

  // By mouse, from a plan's page:
  await page.goto(`/zh-cn/plan/${await planId(request, 'retail-lite')}`);
  await expect(page.getByTestId('plan-action')).toHaveText('咨询此方案');
  await page.getByTestId('plan-action').click();
  await expectEnquiryForm(page, 'zh-cn', '咨询表格', '所需方案', 'retail-lite');
});

test('with both off, the button opens the chat in a new tab', async ({ page, request }) => {
  await setFeatures(request, { subscription: false, contactForm: false });

  await page.goto('/en/pricing?industry=restaurant');
  const calculator = page.getByTestId('calculator-action');
  await expect(calculator).toHaveText('Chat with us about this plan');
  await expect(calculator).toHaveAttribute('href', /^https:\/\/wa\.me\//);
  await expect(calculator).toHaveAttribute('target', '_blank');
  await expect(calculator).toHaveAttribute('rel', 'noopener');

  for (const key of ['restaurant-flexi', 'restaurant-flexi-plus']) {
    await page.goto(`/zh-hk/plan/${await planId(request, key)}`);
    const action = page.getByTestId('plan-action');
    await expect(action).toHaveText('與我們對話了解此方案');
    await expect(action).toHaveAttribute('href', /^https:\/\/wa\.me\//);
    await expect(action).toHaveAttribute('target', '_blank');
  }
});
