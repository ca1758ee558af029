import { expect, hydrated, test } from './fixtures.ts';
import { pagerRows, users } from './users.ts';

/*
 * The table's pager over more matches than page mode counts (decision 045): 1 003 subscribers of
 * this spec's own (tests/e2e/users.ts `pagerRows`), of which the table counts 1 000. The total
 * shows as "1,000+", the page buttons reach as far as was counted, Next goes on past it, and the
 * last page knows the exact total.
 */

test.use({ colorScheme: 'light' });

const search = 'q=admin-pager';

test('a search past the count’s cap shows “1,000+”, and Next reaches the last page, which counts exactly', async ({
  page,
  login,
}) => {
  await login(users.admin);
  await page.goto(`/en/admin/subscribers?${search}`);
  await hydrated(page);
  const total = page.getByTestId('admin-total');
  await expect(total).toHaveText('1–10 of 1,000+');
  await expect(total).toHaveAttribute('data-total-capped', '');
  await expect(page.getByTestId('admin-row')).toHaveCount(10);
  await expect(page.getByTestId('page-10')).toBeVisible();
  await expect(page.getByTestId('page-11')).toHaveCount(0);

  // A hundred a page: the ten buttons are every page counted, and a mark says more follow.
  await page.getByTestId('page-size').selectOption('100');
  await expect(page).toHaveURL(/[?&]size=100/);
  await expect(total).toHaveText('1–100 of 1,000+');
  await expect(page.getByTestId('page-more')).toBeVisible();
  await page.getByTestId('page-10').click();
  await expect(page).toHaveURL(/[?&]page=10/);
  await expect(total).toHaveText('901–1,000 of 1,000+');
  await expect(page.getByTestId('admin-row')).toHaveCount(100);

  // Past the cap: the three left, and the exact total.
  await page.getByTestId('page-next').click();
  await expect(page).toHaveURL(/[?&]page=11/);
  await expect(total).toHaveText('1,001–1,003 of 1,003');
  await expect(total).not.toHaveAttribute('data-total-capped');
  await expect(page.getByTestId('admin-row').locator('[data-column="email"]')).toHaveText(
    pagerRows.slice(1000).map((row) => row.email),
  );
  await expect(page.getByTestId('page-more')).toHaveCount(0);
  // Next is no longer a link, only its greyed-out words.
  await expect(page.getByTestId('page-next')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Pages' }).getByText('Next')).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await expect(page.getByTestId('page-11')).toHaveAttribute('aria-current', 'page');

  // Back with the browser: the view and its capped total come back from the address.
  await page.goBack();
  await expect(total).toHaveText('901–1,000 of 1,000+');

  // A page past what was counted and past the end (an old link) shows the last page counted.
  await page.goto(`/en/admin/subscribers?${search}&page=200`);
  await expect(page.getByTestId('admin-total')).toHaveText('991–1,000 of 1,000+');
  await expect(page.getByTestId('page-100')).toHaveAttribute('aria-current', 'page');

  // In Chinese, the same floor.
  await page.goto(`/zh-hk/admin/subscribers?${search}`);
  await expect(page.getByTestId('admin-total')).toHaveText('第 1–10 項，共超過 1,000 項');
  await page.goto(`/zh-cn/admin/subscribers?${search}&page=3`);
  await expect(page.getByTestId('admin-total')).toHaveText('第 21–30 条，共超过 1,000 条');
});
