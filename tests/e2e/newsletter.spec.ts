import type { APIRequestContext } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';
import { asAdmin } from './staff-api.ts';

async function subscribers(request: APIRequestContext, email: string) {
  const { data } = await asAdmin(request, `subscribers?email=${encodeURIComponent(email)}`);
  return data as unknown as { email: string; campaign: string; name?: string; phone?: string }[];
}

// Refused answers that reach the page (without JavaScript, or sent before the page's scripts have
// started) are answered with a 400, as every form's are, and the browser logs that status.
test.use({ allowedConsoleErrors: [/status of 400/] });

test('the Singapore form checks the email in the browser, then subscribes (en)', async ({ page, request }) => {
  const posts: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST') posts.push(sent.url());
  });
  await page.goto('/en/campaign/sg23');
  await hydrated(page, '[data-testid="newsletter-form"]');
  const form = page.getByTestId('newsletter-form');
  await form.getByLabel('Name', { exact: true }).fill('Ann Tan');
  await form.getByLabel('Company name').fill('Kopi Co');
  await form.getByLabel('Email', { exact: true }).fill('ann@kopi');
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByText('Please Input Correct Email !')).toBeVisible();
  await expect(form.getByLabel('Email', { exact: true })).toBeFocused();
  await expect(form.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  expect(posts).toEqual([]);

  await form.getByLabel('Email', { exact: true }).fill('ann@kopi.sg');
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByTestId('newsletter-thanks')).toContainText('Thank you for subscribing!');
  await expect(page.getByTestId('newsletter-thanks')).toContainText(
    'You will now receive updates and promotions directly to your inbox.',
  );
  expect(await subscribers(request, 'ann@kopi.sg')).toEqual([
    expect.objectContaining({ campaign: 'sg23', name: 'Ann Tan' }),
  ]);
});

test('the Singapore form refuses a phone that is not +65 (zh-hk)', async ({ page }) => {
  await page.goto('/zh-hk/campaign/sg23');
  const form = page.getByTestId('newsletter-form');
  await form.getByLabel('姓名').fill('陳大文');
  await form.getByLabel('公司名稱').fill('大文茶餐廳');
  await form.getByLabel('電話（選填）').fill('71234567');
  await form.getByRole('button', { name: '訂閱' }).click();
  await expect(form.getByText('請輸入正確的 +65 電話號碼！')).toBeVisible();
  await expect(form.getByText('請輸入正確的電郵地址！')).toBeVisible();
});

test('with all four fields filled, the Singapore form goes through (the loose rule)', async ({ page, request }) => {
  await page.goto('/en/campaign/sg23');
  const form = page.getByTestId('newsletter-form');
  await form.getByLabel('Name', { exact: true }).fill('Ben Lim');
  await form.getByLabel('Company name').fill('Lim Hardware');
  await form.getByLabel('Phone (optional)').fill('12345');
  await form.getByLabel('Email', { exact: true }).fill('ben@lim-hardware.sg');
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByTestId('newsletter-thanks')).toBeVisible();
  expect(await subscribers(request, 'ben@lim-hardware.sg')).toHaveLength(1);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the Hong Kong form is a plain POST answered with its messages (zh-cn)', async ({ page, request }) => {
    await page.goto('/zh-cn/campaign/23hkrace');
    const form = page.getByTestId('newsletter-form');
    await form.getByLabel('邮箱').fill('mei@shop');
    await form.getByRole('button', { name: '订阅' }).click();
    await expect(page.getByText('请输入有效的邮箱地址，例如 name@company.com。')).toBeVisible();
    await expect(page.getByTestId('newsletter-form').getByLabel('邮箱')).toHaveValue('mei@shop');
    // The first field with an error takes the focus, from the page's HTML alone.
    await expect(page.getByTestId('newsletter-form').getByLabel('邮箱')).toBeFocused();

    await page.getByTestId('newsletter-form').getByLabel('邮箱').fill('mei@shop.hk');
    await page.getByTestId('newsletter-form').getByRole('button', { name: '订阅' }).click();
    await expect(page.getByTestId('newsletter-thanks')).toContainText('感谢订阅！');
    expect(await subscribers(request, 'mei@shop.hk')).toEqual([expect.objectContaining({ campaign: '23hkrace' })]);
  });
});
