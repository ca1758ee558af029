import { expect, hydrated, test } from './fixtures.ts';
import { users } from './users.ts';

/*
 * The back office's Admins area (decision 052): under System for admins, who add staff with a
 * password typed twice (a difference is shown before anything is sent) and change their type; an
 * editor has no Admins on the menu and no export of a table holding personal data.
 */

test.use({ colorScheme: 'light' });

test('an admin adds an editor, whose password must match its confirmation, then makes them an admin', async ({
  page,
  login,
}) => {
  await login(users.admin);
  await page.goto('/en/admin');
  const menuItem = page.getByTestId('admin-menu-admins');
  await expect(menuItem).toHaveText('Admins');
  await expect(page.locator('#admin-group-system + ul').getByTestId('admin-menu-admins')).toHaveCount(1);
  await menuItem.click();
  await expect(page.getByTestId('admin-heading')).toHaveText('Admins');
  // The demo staff accounts, and no member.
  const emails = page.getByTestId('admin-row').locator('[data-column="email"]');
  await page.goto('/en/admin/admins?q=tillpoint.test&size=100');
  await expect(emails.filter({ hasText: users.editor.email })).toHaveCount(1);
  await expect(emails.filter({ hasText: users.admin.email })).toHaveCount(1);
  await expect(emails.filter({ hasText: users.owner.email })).toHaveCount(0);

  // A new editor: the confirmation differs, which the form says beside it before sending anything.
  const email = `staff-${Date.now()}@example.test`;
  await page.goto('/en/admin/admins/new');
  await hydrated(page);
  const posts: string[] = [];
  // The page's own saves (its live connection's ticket is not one).
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/admin/admins')) posts.push(request.url());
  });
  await page.locator('#field-name').fill('Lee Ka Yan');
  await page.locator('#field-email').fill(email);
  await page.locator('#field-password').fill('Staff12345');
  await page.locator('#field-passwordConfirm').fill('Staff12354');
  await page.locator('#field-type').selectOption('editor');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('error-field-passwordConfirm')).toHaveText('Password is different');
  await expect(page.locator('#field-passwordConfirm')).toBeFocused();
  expect(posts).toEqual([]);

  await page.locator('#field-passwordConfirm').fill('Staff12345');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('snackbar-success')).toBeVisible();
  await expect(page).toHaveURL(/\/en\/admin\/admins$/);

  // Found in the table as an editor; made an admin in the editor over the table.
  await hydrated(page);
  await page.getByTestId('search-q').fill(email);
  await page.getByTestId('search-apply').click();
  const row = page.getByTestId('admin-row');
  await expect(row.locator('[data-column="email"]')).toHaveText([email]);
  await expect(row.locator('[data-column="type"]')).toHaveText(['Editor']);
  await row.getByTestId('row-edit').click();
  const dialog = page.getByTestId('editor-dialog');
  await expect(dialog).toBeVisible();
  // On edit the password is optional: both boxes empty keep it.
  await expect(dialog.locator('#field-password-hint')).toHaveText('Leave both empty to keep the current password.');
  await dialog.locator('#field-type').selectOption('admin');
  await dialog.getByTestId('editor-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('snackbar-success')).toBeVisible();
  await expect(row.locator('[data-column="type"]')).toHaveText(['Administrator']);
});

test('an editor has no Admins on the menu and no export of personal data, but exports content', async ({
  page,
  login,
}) => {
  await login(users.editor);
  await page.goto('/en/admin');
  await expect(page.getByTestId('admin-menu-contactForms')).toBeVisible();
  await expect(page.getByTestId('admin-menu-admins')).toHaveCount(0);

  // Contact forms are read and followed up, not exported; the catalogue is exported.
  await page.goto('/en/admin/modules');
  await hydrated(page);
  await expect(page.getByTestId('admin-export')).toBeVisible();
  await page.getByTestId('admin-menu-contactForms').click();
  await expect(page.getByTestId('admin-heading')).toHaveText('Contact forms');
  await hydrated(page);
  await expect(page.getByTestId('admin-export')).toHaveCount(0);
  await page.getByTestId('admin-menu-users').click();
  await expect(page.getByTestId('admin-heading')).toHaveText('Users');
  await expect(page.getByTestId('admin-export')).toHaveCount(0);
});
