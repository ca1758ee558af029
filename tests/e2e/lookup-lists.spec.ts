import { expect, hydrated, test } from './fixtures.ts';
import { users } from './users.ts';

/*
 * The apps' lookup lists in the back office (decision 050): a group of their own on the menu,
 * each list in staff's order and in the reader's language, found by a name in any language, and a
 * new name written in the three languages; an editor adds and renames but does not delete.
 */

test.use({ colorScheme: 'light' });

test('an editor finds the apps’ lookup lists in Chinese and adds a name in three languages', async ({
  page,
  login,
}) => {
  await login(users.editor);
  await page.goto('/zh-hk/admin');
  await expect(page.getByTestId('admin-menu-doctordistricts')).toHaveText('醫生地區');
  await expect(page.getByTestId('admin-menu-doctorprofessions')).toHaveText('醫生專科');
  await expect(page.getByTestId('admin-menu-doctorgenders')).toHaveText('醫生性別');

  // The eighteen districts in the Government's order, ten to a page, named in the reader's language.
  await page.getByTestId('admin-menu-doctordistricts').click();
  await expect(page.getByTestId('admin-heading')).toHaveText('醫生地區');
  const names = page.getByTestId('admin-row').locator('[data-column="name"]');
  await expect(names).toHaveCount(10);
  await expect(names.first()).toHaveText('中西區');
  await expect(page.getByTestId('row-remove')).toHaveCount(0);

  // Found by its Simplified or English name too.
  await hydrated(page);
  await page.getByTestId('search-q').fill('湾仔');
  await page.getByTestId('search-apply').click();
  await expect(names).toHaveText(['灣仔']);

  // A new profession, in its place in the order.
  const english = `Geriatrics ${Date.now()}`;
  await page.goto('/zh-hk/admin/doctorprofessions/new');
  await hydrated(page);
  await page.locator('#field-name-en').fill(english);
  await page.locator('#field-name-tab-zh-hk').click();
  await page.locator('#field-name-zh-hk').fill('老人科');
  await page.locator('#field-name-tab-zh-cn').click();
  await page.locator('#field-name-zh-cn').fill('老年科');
  await page.locator('#field-order').fill('15');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('snackbar-success')).toBeVisible();
  await expect(page).toHaveURL(/\/zh-hk\/admin\/doctorprofessions$/);
  await hydrated(page);
  await page.getByTestId('search-q').fill(english);
  await page.getByTestId('search-apply').click();
  await expect(names).toHaveText(['老人科']);

  // In English, the same list reads in English.
  await page.goto(`/en/admin/doctorprofessions?q=${encodeURIComponent(english)}`);
  await expect(names).toHaveText([english]);
});
