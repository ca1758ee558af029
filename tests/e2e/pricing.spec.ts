import { expect, holdScripts, hydrated, test } from './fixtures.ts';

test('the calculator prices a plan with add-ons, by mouse, and keeps the choice in the address', async ({ page }) => {
  await page.goto('/en/pricing?industry=restaurant');
  const totals = page.getByTestId('totals');
  // Restaurant Flexi: HK$2,125 a month, 24 months prepaid.
  await expect(page.getByTestId('monthly-total')).toHaveText('HK$2,125');
  await expect(page.getByTestId('prepaid-total')).toHaveText('HK$51,000');
  await expect(totals).toHaveAttribute('aria-live', 'polite');

  await page.getByRole('checkbox', { name: /^Online Shop/ }).check();
  await expect(page.getByTestId('monthly-total')).toHaveText('HK$2,613');
  await page.getByRole('checkbox', { name: /^Self-Order Kiosk/ }).check();
  await expect(page.getByTestId('monthly-total')).toHaveText('HK$3,201');
  // A counter module: a slider for how many.
  const kiosks = page.getByLabel('How many for Self-Order Kiosk');
  await kiosks.fill('3');
  await expect(page.getByTestId('monthly-total')).toHaveText('HK$4,377');
  await expect(page).toHaveURL(/addons=online-shop%2Ckiosk-self-order%3A3/);
  await page.getByLabel('Months paid ahead').selectOption('12');
  await expect(page.getByTestId('prepaid-total')).toHaveText('HK$52,524');

  await page.reload();
  await expect(page.getByTestId('monthly-total')).toHaveText('HK$4,377');
  await expect(page.getByRole('checkbox', { name: /^Online Shop/ })).toBeChecked();

  // Another industry starts again with no add-ons.
  await page.getByLabel('Your industry').selectOption({ label: 'Retail Stores' });
  await expect(page).toHaveURL('/en/pricing?industry=retail');
  await expect(page.getByRole('checkbox', { name: /^Self-Order Kiosk/ })).not.toBeChecked();
  await expect(page.getByTestId('monthly-total')).toHaveText('HK$2,125');
});

test('a choice made before the page hydrated is kept, and priced once it has', async ({ page }) => {
  const scripts = await holdScripts(page);
  await page.goto('/en/pricing?industry=restaurant');
  await page.getByRole('checkbox', { name: /^Online Shop/ }).check();
  await page.getByLabel('Months paid ahead').selectOption('12');
  scripts.release();
  await hydrated(page);
  await expect(page.getByTestId('monthly-total')).toHaveText('HK$2,613');
  await expect(page).toHaveURL(/addons=online-shop&months=12$/);
  await expect(page.getByRole('checkbox', { name: /^Online Shop/ })).toBeChecked();
  await expect(page.getByLabel('Months paid ahead')).toHaveValue('12');
});

test('the calculator works by keyboard', async ({ page }) => {
  await page.goto('/zh-hk/pricing?industry=restaurant');
  await page.getByRole('checkbox', { name: /^自助點餐機/ }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: /^自助點餐機/ })).toBeChecked();
  const slider = page.getByLabel('自助點餐機數量');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveValue('3');
  await expect(page.getByTestId('monthly-total')).toHaveText('HK$3,889');
  await expect(page.getByTestId('calculator-action')).toHaveAttribute(
    'href',
    /^\/zh-hk\/subscription\?industry=restaurant&addons=kiosk-self-order%3A3/,
  );
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the calculator is a form that the server prices', async ({ page }) => {
    await page.goto('/zh-cn/pricing?industry=restaurant');
    await page.getByRole('checkbox', { name: /^线上商城/ }).check();
    await page.getByRole('button', { name: '更新价格' }).click();
    await expect(page).toHaveURL(/addon=online-shop/);
    await expect(page.getByTestId('monthly-total')).toHaveText('HK$2,613');
  });
});
