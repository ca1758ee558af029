import { expect, hydrated, test } from './fixtures.ts';
import { users } from './users.ts';

/*
 * The plan in detail (`/{locale}/portal/plan`): the contract terms and what happens next, from
 * the same billing rules as the dashboard, whose figures the page must agree with.
 */

test.use({ colorScheme: 'light' });

test('a Lite member without a contract reads their terms and what happens after the prepaid months', async ({
  page,
  login,
}) => {
  await login(users.monthly);
  await page.goto('/en/portal');
  const end = (await page.getByTestId('figure-contract-end').textContent()) ?? '';
  const monthly = (await page.getByTestId('figure-next-pay-amount').textContent()) ?? '';
  await hydrated(page);
  await page.getByTestId('plan-details').click();
  await expect(page).toHaveURL('/en/portal/plan');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Lite plan');
  await expect(page.getByTestId('term-contract')).toHaveText('No contract: stop at the end of any billing period');
  await expect(page.getByTestId('term-ending')).toHaveCount(0);
  // The card the plan was paid with: brand, last four digits and expiry, nothing more.
  await expect(page.getByTestId('card-text')).toHaveText(/^VISA ending in 4242, expires 12\/\d{4}$/);
  await expect(page.getByTestId('term-prepaid')).toHaveText(`12 months paid with the order, until ${end}`);
  await expect(page.getByTestId('renewal-monthly')).toHaveText(
    `From ${end}, when the prepaid months end, you are billed ${monthly} a month.`,
  );
  await expect(page.getByTestId('plan-monthly')).toHaveText(monthly);
  await expect(page.getByTestId('renewal-contract')).toContainText('Lite goes on month by month');
});

test('a Flexi member paid 24 months ahead reads a 24-month contract, ended early only by termination, in Traditional Chinese', async ({
  page,
  login,
}) => {
  await login(users.prepaid);
  await page.goto('/zh-hk/portal');
  const end = (await page.getByTestId('figure-contract-end').textContent()) ?? '';
  await page.goto('/zh-hk/portal/plan');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Flexi 方案');
  await expect(page.getByTestId('term-contract')).toContainText('24 個月合約');
  await expect(page.getByTestId('card-text')).toHaveText(/^VISA，尾號 4242，有效期至 12\/\d{4}$/);
  await expect(page.getByTestId('term-contract')).toContainText(end);
  await expect(page.getByTestId('term-ending')).toHaveText(
    `最短合約期於 ${end} 屆滿，之後只需提前 30 日通知即可停止方案。`,
  );
  await expect(page.getByTestId('renewal-contract')).toContainText(`${end} 後方案會按相同條款逐月延續`);
});
