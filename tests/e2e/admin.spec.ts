import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { adminRows, users, type AdminRow } from './users.ts';

/*
 * The back office (`/{locale}/admin`, issue 21, decision 034): staff only; an entity's table
 * generated from its definition, its view held whole in the URL; the editor over the table and as
 * a page; deleting one record or a selection. Each test works on subscribers of its own
 * (tests/e2e/users.ts `adminRows`), so no other test sees them change.
 */

// A refused save answers 400 (its errors) or 409 (a conflict), as any form's action does.
test.use({ colorScheme: 'light', allowedConsoleErrors: [/status of 40[039]/] });

const emails = (page: Page) => page.getByTestId('admin-row').locator('[data-column="email"]').allTextContents();
const tableEmails = adminRows.table.map((row) => row.email);

test('the back office is for staff: visitors and members are sent to sign in, editors see no delete', async ({
  page,
  login,
}) => {
  await page.goto('/en/admin/subscribers');
  await expect(page).toHaveURL(/\/en\/login\?from=%2Fen%2Fadmin%2Fsubscribers$/);

  // A member is asked to sign in as staff (going back to the back office would only send them here again).
  await login(users.owner);
  await page.goto('/en/admin');
  await expect(page).toHaveURL(/\/en\/login\?from=%2Fen%2Fadmin$/);
  await expect(page.getByTestId('login-staff-only')).toHaveText(
    'This page is for staff. Sign in with a staff account to open it.',
  );

  await login(users.editor);
  await page.goto(`/en/admin/subscribers?q=${encodeURIComponent('admin-table-0')}`);
  await expect(page.getByTestId('admin-heading')).toHaveText('Newsletter subscribers');
  await expect(page.getByTestId('admin-row')).toHaveCount(9);
  // Only admins remove subscribers: the editor's table has no Delete, nor selection.
  await expect(page.getByTestId('row-remove')).toHaveCount(0);
  await expect(page.getByTestId('select-row')).toHaveCount(0);
  // An editor follows a subscriber up (status and notes) and changes nothing else of theirs.
  await page.goto(`/en/admin/subscribers/edit/${adminRows.table[0]!._id}`);
  await expect(page.locator('#field-followUp')).toBeVisible();
  await expect(page.locator('#field-notes')).toBeVisible();
  await expect(page.locator('#field-email')).toHaveCount(0);
  await expect(page.getByTestId('record-readonly')).toContainText(adminRows.table[0]!.email);
  // Nor does an address reach what the role may not do: nobody adds an invoice.
  const refused = await page.goto('/en/admin/invoices/new');
  expect(refused?.status()).toBe(403);
  // The menu lists what an editor may read; the overview counts it.
  await page.goto('/en/admin');
  await expect(page.getByTestId('admin-menu-subscribers')).toBeVisible();
  await expect(page.getByTestId('admin-card-subscribers')).toContainText(/\d+ records/);
});

test('the table’s view lives in the URL: search, sort, page size, pages, filters, reload and back', async ({
  page,
  login,
}) => {
  await login(users.admin);
  await page.goto('/en/admin/subscribers');
  await hydrated(page);
  await page.getByTestId('search-q').fill('admin-table');
  await page.getByTestId('search-apply').click();
  await expect(page).toHaveURL(/[?&]q=admin-table/);
  await expect(page.getByTestId('admin-total')).toHaveAttribute('data-total', '12');
  // Newest first by default: the seed made the first row last.
  expect(await emails(page)).toEqual(tableEmails.slice(0, 10));

  await page.getByTestId('sort-email').click();
  await expect(page).toHaveURL(/sort=email/);
  await expect(page.locator('th[aria-sort="ascending"]')).toContainText('Email');
  expect(await emails(page)).toEqual(tableEmails.slice(0, 10));
  await page.getByTestId('sort-email').click();
  await expect(page).toHaveURL(/sort=-email/);
  await expect.poll(() => emails(page)).toEqual([...tableEmails].reverse().slice(0, 10));

  await page.getByTestId('page-size').selectOption('5');
  await expect(page).toHaveURL(/size=5/);
  await expect(page.getByTestId('admin-row')).toHaveCount(5);
  await page.getByTestId('page-2').click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId('page-2')).toHaveAttribute('aria-current', 'page');
  await expect.poll(() => emails(page)).toEqual([...tableEmails].reverse().slice(5, 10));
  await expect(page.getByTestId('admin-total')).toHaveText('6–10 of 12');

  // The one before after going back, this one again going forward, and the same after a reload.
  await page.goBack();
  await expect(page).not.toHaveURL(/page=2/);
  await expect.poll(() => emails(page)).toEqual([...tableEmails].reverse().slice(0, 5));
  await page.goForward();
  await expect(page).toHaveURL(/page=2/);
  await expect.poll(() => emails(page)).toEqual([...tableEmails].reverse().slice(5, 10));
  await page.reload();
  await expect.poll(() => emails(page)).toEqual([...tableEmails].reverse().slice(5, 10));

  // A campaign filter: the Singapore rows only, still sorted and searched.
  await page.locator('summary', { hasText: 'Filters' }).click();
  await page.getByTestId('filter-campaign').selectOption('sg23');
  await page.getByTestId('search-apply').click();
  await expect(page).toHaveURL(/f\.campaign=sg23/);
  await expect(page.getByTestId('admin-total')).toHaveAttribute('data-total', '4');
  await expect(page.getByTestId('admin-row').locator('[data-column="campaign"]')).toHaveText(
    Array(4).fill('Singapore 2023'),
  );

  // Text that matches nothing says so; Clear brings every row back.
  await page.getByTestId('search-q').fill('no-such-reader');
  await page.getByTestId('search-apply').click();
  await expect(page.getByTestId('admin-empty')).toHaveText(
    /No records match\.\s*Try other words or clear the filters\./,
  );
  await expect(page.getByTestId('admin-empty')).toHaveAttribute('data-narrowed', 'true');
  await page.getByTestId('search-clear').click();
  await expect(page).toHaveURL(/\/en\/admin\/subscribers$/);
  await expect(page.getByTestId('admin-row').first()).toBeVisible();
});

test('cursor mode pages by next and previous without counting, and switches back to page numbers', async ({
  page,
  login,
}) => {
  await login(users.admin);
  await page.goto('/en/admin/subscribers?q=admin-table&sort=email&size=5');
  await hydrated(page);
  await page.getByTestId('page-mode').click();
  await expect(page).toHaveURL(/mode=cursor/);
  await expect(page.getByTestId('admin-total')).toHaveText('5 shown of 999+');
  await expect(page.getByTestId('admin-total')).toHaveAttribute('data-total', '999');
  expect(await emails(page)).toEqual(tableEmails.slice(0, 5));
  await page.getByTestId('page-next').click();
  await expect(page).toHaveURL(/cursor=/);
  await expect.poll(() => emails(page)).toEqual(tableEmails.slice(5, 10));
  await page.getByTestId('page-next').click();
  await expect.poll(() => emails(page)).toEqual(tableEmails.slice(10, 12));
  await expect(page.getByTestId('page-next')).toHaveCount(0);
  await page.getByTestId('page-previous').click();
  await expect.poll(() => emails(page)).toEqual(tableEmails.slice(5, 10));
  // The same page after a reload: the cursor is in the URL.
  await page.reload();
  await expect.poll(() => emails(page)).toEqual(tableEmails.slice(5, 10));
  await page.getByTestId('page-mode').click();
  await expect(page).not.toHaveURL(/cursor/);
  await expect(page.getByTestId('admin-total')).toHaveText('1–5 of 12');
});

test('a row opens to show its record in detail, with its sub-list, and stays open in the URL', async ({
  page,
  login,
}) => {
  await login(users.editor);
  await page.goto(`/en/admin/appTemplates?q=${encodeURIComponent('Restaurant Flexi+')}`);
  await hydrated(page);
  const row = page.getByTestId('admin-row').first();
  const toggle = row.getByTestId('row-expand');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(page).toHaveURL(/[?&]open=/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const detail = page.getByTestId('row-detail');
  await expect(detail).toContainText('Included modules');
  await expect(detail.getByTestId('sub-list').locator('tbody tr').first()).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('row-detail')).toBeVisible();
  await page.getByTestId('row-expand').first().click();
  await expect(page.getByTestId('row-detail')).toHaveCount(0);
  await expect(page).not.toHaveURL(/open=/);
});

test('the table is a grid for the keyboard: one tab stop, arrows between cells, Space selects, Enter opens', async ({
  page,
  login,
}) => {
  await login(users.admin);
  await page.goto('/en/admin/subscribers?q=admin-table&sort=email&size=5');
  await hydrated(page);
  // Tab from the page size reaches the grid once, at its first row's first part (the checkbox).
  await page.getByTestId('search-q').focus();
  const firstBox = page.getByTestId('select-row').first();
  for (let i = 0; i < 10 && !(await firstBox.evaluate((box) => box === document.activeElement)); i += 1)
    await page.keyboard.press('Tab');
  await expect(firstBox).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('row-expand').first()).toBeFocused();
  await page.keyboard.press('ArrowRight');
  const firstEmail = page.getByTestId('admin-row').first().locator('[data-column="email"]');
  await expect(firstEmail).toBeFocused();
  await page.keyboard.press(' ');
  await expect(firstBox).toBeChecked();
  await expect(page.getByTestId('selection-bar')).toContainText('1 selected');
  await page.keyboard.press('ArrowDown');
  const secondEmail = page.getByTestId('admin-row').nth(1).locator('[data-column="email"]');
  await expect(secondEmail).toBeFocused();
  // Only one part of the grid is in the tab order.
  expect(await page.getByTestId('admin-table').locator('tbody [tabindex="0"]').count()).toBe(1);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('editor-dialog')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`editor=${adminRows.table[1]!._id}`));
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('editor-dialog')).toBeHidden();
});

test('the editor asks before unsaved changes are lost, and only when something is changed', async ({ page, login }) => {
  await login(users.admin);
  const row = adminRows.table[3]!;
  const open = async () => {
    await page.goto(`/en/admin/subscribers?q=admin-table&editor=${row._id}`);
    await hydrated(page);
    await expect(page.getByTestId('editor-dialog')).toBeVisible();
  };
  const dialog = page.getByTestId('editor-dialog');
  const asked: string[] = [];
  let leave = false;
  page.on('dialog', (question) => {
    asked.push(question.message());
    void (leave ? question.accept() : question.dismiss());
  });

  // Nothing changed: it closes at once.
  await open();
  await dialog.getByTestId('editor-cancel').click();
  await expect(dialog).toBeHidden();
  expect(asked).toEqual([]);

  // A change: Cancel and Escape ask first, and staying keeps what was typed.
  await open();
  await dialog.locator('#field-name').fill('Not saved');
  await dialog.getByTestId('editor-cancel').click();
  expect(asked).toEqual(['You have unsaved changes. Leave without saving?']);
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect.poll(() => asked.length).toBe(2);
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('#field-name')).toHaveValue('Not saved');

  // Typed back as it was: nothing to lose.
  await dialog.locator('#field-name').fill(row.name);
  await dialog.getByTestId('editor-cancel').click();
  await expect(dialog).toBeHidden();
  expect(asked).toHaveLength(2);

  // Leaving anyway, once asked.
  await open();
  await dialog.locator('#field-companyName').fill('Elsewhere');
  leave = true;
  await dialog.getByTestId('editor-close').click();
  await expect(dialog).toBeHidden();
  expect(asked).toHaveLength(3);
});

test('an admin edits a record over the table in Chinese: errors by field, saved, and a conflict shown instead of overwriting', async ({
  page,
  login,
  request,
}) => {
  await login(users.admin);
  const row = adminRows.edit;
  await page.goto(`/zh-hk/admin/subscribers?q=${row.email}`);
  await hydrated(page);
  await page.getByTestId('row-edit').click();
  const dialog = page.getByTestId('editor-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('#editor-title')).toHaveText(`編輯：${row.email}`);
  await expect(page).toHaveURL(new RegExp(`editor=${row._id}`));

  // A wrong email is caught before anything is sent, by the service's own schema, in Chinese,
  // beside its field, which gets the focus; its message goes once the field is changed.
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url());
  });
  await dialog.locator('#field-email').fill('not-an-email');
  await dialog.getByTestId('editor-save').click();
  await expect(dialog.getByTestId('error-field-email')).toHaveText('請輸入有效的電郵地址，例如 name@company.com。');
  await expect(dialog.getByTestId('edit-error')).toHaveText('請更正以下標示的欄位。');
  expect(posts).toEqual([]);
  await expect(dialog.locator('#field-email')).toBeFocused();
  await dialog.locator('#field-email').fill('');
  await expect(dialog.getByTestId('error-field-email')).toHaveCount(0);
  await dialog.getByTestId('editor-save').click();
  await expect(dialog.getByTestId('error-field-email')).toHaveText('必填');
  expect(posts).toEqual([]);

  await dialog.locator('#field-email').fill(row.email);
  await dialog.locator('#field-name').fill('陳大文');
  await dialog.getByTestId('editor-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('snackbar-success')).toContainText('已儲存。');
  await expect(page.getByTestId('admin-row').locator('[data-column="name"]')).toHaveText(['陳大文']);
  await expect(page).not.toHaveURL(/editor=/);
  // Its history, from the audit log: who changed the name, from what to what.
  await page.getByTestId('row-edit').click();
  const change = dialog.getByTestId('history-entry').first();
  await expect(change).toContainText('修改');
  await expect(change).toContainText(users.admin.email);
  await expect(change).toContainText(`${row.name} → 陳大文`);
  await dialog.getByTestId('editor-close').click();
  await expect(dialog).toBeHidden();

  // Someone else saves the record while it is open here: saving shows the conflict, and keeps theirs.
  // The table behind shows their change at once (live), while what was typed here stays in the editor.
  const other = adminRows.conflict;
  // With the editor open, the page's loader reads the table with the record: one read a change, none through the socket.
  const socketFinds: string[] = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      if (typeof payload === 'string' && /^42\d*\["find","subscribers"/.test(payload)) socketFinds.push(payload);
    });
  });
  await page.goto(`/zh-hk/admin/subscribers?q=${other.email}&editor=${other._id}`);
  await hydrated(page);
  await expect(page.getByTestId('admin-page')).toHaveAttribute('data-live', 'on');
  await dialog.locator('#field-name').fill('Mine');
  const headers = await staffHeaders(request);
  const theirs = await request.patch(`/api/subscribers/${other._id}`, { headers, data: { name: 'Theirs' } });
  expect(theirs.status()).toBe(200);
  await expect(page.getByTestId('admin-row').locator('[data-column="name"]')).toHaveText(['Theirs']);
  await expect(dialog.getByTestId('edit-conflict')).toContainText('有其他人更改了此記錄');
  await expect(dialog.locator('#field-name')).toHaveValue('Mine');
  expect(socketFinds).toEqual([]);
  await dialog.getByTestId('editor-save').click();
  await expect(dialog.getByTestId('edit-conflict')).toContainText('有其他人更改了此記錄');
  const stored = await request.get(`/api/subscribers/${other._id}`, { headers });
  expect(((await stored.json()) as { name: string }).name).toBe('Theirs');
});

test('records others add, change and remove arrive through the table’s own reads, keeping the selection and open rows; Back after Reload shows them as they are', async ({
  page,
  login,
  request,
}) => {
  await login(users.admin);
  const [first, second] = adminRows.live as [AdminRow, AdminRow];
  const headers = await staffHeaders(request);
  const stamp = Date.now();
  const rowOf = (row: { _id: string }) => page.locator(`[data-testid="admin-row"][data-id="${row._id}"]`);
  const nameOf = (row: { _id: string }) => rowOf(row).locator('[data-column="name"]');
  const rename = async (row: { _id: string }, name: string) =>
    expect((await request.patch(`/api/subscribers/${row._id}`, { headers, data: { name } })).status()).toBe(200);
  await rename(second, second.name);

  await page.goto(`/en/admin/subscribers?q=admin-live&sort=email&open=${first._id}`);
  await hydrated(page);
  await expect(page.getByTestId('admin-page')).toHaveAttribute('data-live', 'on');
  expect(await emails(page)).toEqual([first.email, second.email]);
  await rowOf(first).getByTestId('select-row').check();
  await expect(page.getByTestId('selection-bar')).toContainText('1 selected');
  await expect(page.getByTestId('row-detail')).toBeVisible();

  // The page's loader is not asked again: the rows come through the live connection.
  const loaderReads: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname.endsWith('.data')) loaderReads.push(sent.url());
  });
  await rename(second, `Changed ${stamp}`);
  await expect(nameOf(second)).toHaveText(`Changed ${stamp}`);
  const added = await request.post('/api/subscribers', {
    headers,
    data: { email: `admin-live-new-${stamp}@tillpoint.test`, campaign: '23hkrace' },
  });
  expect(added.status()).toBe(201);
  await expect.poll(() => emails(page)).toEqual([first.email, second.email, `admin-live-new-${stamp}@tillpoint.test`]);
  expect(
    (await request.delete(`/api/subscribers/${((await added.json()) as { _id: string })._id}`, { headers })).status(),
  ).toBe(200);
  await expect.poll(() => emails(page)).toEqual([first.email, second.email]);
  expect(loaderReads).toEqual([]);
  // Where the staff member was is kept: the selection and the open row.
  await expect(rowOf(first).getByTestId('select-row')).toBeChecked();
  await expect(page.getByTestId('selection-bar')).toContainText('1 selected');
  await expect(page.getByTestId('row-detail')).toBeVisible();

  // Reload, another view, a change seen there, then Back: the first view shows the record as it is
  // now, not as it was kept when the view was left.
  await rename(second, `Reloaded ${stamp}`);
  await page.getByTestId('admin-refresh').click();
  await expect(nameOf(second)).toHaveText(`Reloaded ${stamp}`);
  await page.getByTestId('search-q').fill(second.email);
  await page.getByTestId('search-apply').click();
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(second.email)}`));
  await expect.poll(() => emails(page)).toEqual([second.email]);
  await rename(second, `Later ${stamp}`);
  await expect(nameOf(second)).toHaveText(`Later ${stamp}`);
  // Every name the record's row shows from here on, however briefly.
  await page.evaluate((id) => {
    const seen: string[] = [];
    (window as Window & { seenNames?: string[] }).seenNames = seen;
    new MutationObserver(() => {
      for (const cell of document.querySelectorAll(`[data-testid="admin-row"][data-id="${id}"] [data-column="name"]`))
        seen.push(cell.textContent ?? '');
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, second._id);
  await page.goBack();
  await expect(page).toHaveURL(/q=admin-live&/);
  await expect.poll(() => emails(page)).toEqual([first.email, second.email]);
  await expect(nameOf(second)).toHaveText(`Later ${stamp}`);
  // The view's address was read again by its loader (what the listener above would have seen).
  expect(loaderReads.length).toBeGreaterThan(0);
  // It stays so once any read still under way has answered, and showed nothing older meanwhile.
  await page.waitForLoadState('networkidle');
  await expect(nameOf(second)).toHaveText(`Later ${stamp}`);
  const seen = await page.evaluate(() => (window as Window & { seenNames?: string[] }).seenNames ?? []);
  expect(seen.length).toBeGreaterThan(0);
  expect(new Set(seen)).toEqual(new Set([`Later ${stamp}`]));
});

test('an admin deletes a record after confirming, then a selection, and adds one on its own page', async ({
  page,
  login,
  request,
}) => {
  await login(users.admin);
  await page.goto(`/en/admin/subscribers?q=${adminRows.remove.email}`);
  await hydrated(page);
  await page.getByTestId('row-remove').click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText(`“${adminRows.remove.email}” will be deleted.`);
  // Cancel keeps it; Escape would too.
  await confirm.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('admin-row')).toHaveCount(1);
  await page.getByTestId('row-remove').click();
  await confirm.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('snackbar-success')).toContainText('Deleted.');
  await expect(page.getByTestId('admin-empty')).toBeVisible();

  // A selection goes one by one through the live connection, with a progress bar; one record that
  // someone else deleted meanwhile fails in the middle, and the others are still deleted.
  await page.goto('/en/admin/subscribers?q=admin-batch&sort=email');
  await hydrated(page);
  await expect(page.getByTestId('admin-page')).toHaveAttribute('data-live', 'on');
  await expect(page.getByTestId('admin-row')).toHaveCount(3);
  await page.getByTestId('select-page').check();
  await expect(page.getByTestId('selection-bar')).toContainText('3 selected');
  await page.getByTestId('remove-selected').click();
  await expect(confirm).toContainText('Delete 3 records?');
  const headers = await staffHeaders(request);
  const [first, middle, last] = adminRows.batch;
  expect((await request.delete(`/api/subscribers/${middle!._id}`, { headers })).status()).toBe(200);
  await confirm.getByTestId('confirm-ok').click();
  const batch = page.getByTestId('batch-dialog');
  await expect(batch).toHaveAttribute('data-state', 'done');
  await expect(batch.getByRole('heading')).toHaveText('2 of 3 deleted');
  await expect(batch.getByTestId('batch-progress')).toHaveAttribute('value', '3');
  await expect(batch.getByTestId('batch-failure')).toHaveText([`${middle!.email}: This record no longer exists.`]);
  await batch.getByTestId('batch-close').click();
  await expect(page.getByTestId('snackbar-success')).toContainText('2 records deleted.');
  await expect(page.getByTestId('admin-empty')).toBeVisible();
  await expect(page.getByTestId('selection-bar')).toBeHidden();
  for (const row of [first!, last!])
    expect((await request.get(`/api/subscribers/${row._id}`, { headers })).status()).toBe(404);

  // A new record, on its own page: its required fields checked, then saved and listed.
  const email = `admin-new-${Date.now()}@tillpoint.test`;
  await page.goto('/en/admin/subscribers');
  await hydrated(page);
  await page.getByTestId('admin-add').click();
  await expect(page).toHaveURL(/\/en\/admin\/subscribers\/new$/);
  await expect(page.getByTestId('admin-heading')).toHaveText('Add to Newsletter subscribers');
  await hydrated(page);
  await page.locator('#field-email').fill(email);
  await page.locator('#field-campaign').selectOption('23hkrace');
  await page.getByTestId('editor-save').click();
  await expect(page).toHaveURL(/\/en\/admin\/subscribers$/);
  await expect(page.getByTestId('snackbar-success')).toContainText('Created.');
  await hydrated(page);
  await page.getByTestId('search-q').fill(email);
  await page.getByTestId('search-apply').click();
  await expect(page).toHaveURL(/[?&]q=admin-new-/);
  await expect(page.getByTestId('admin-row').locator('[data-column="email"]')).toHaveText([email]);
});

test('missing translations are listed by language, and a key marked translated leaves the list', async ({
  page,
  login,
}) => {
  await login(users.editor);
  await page.goto('/en/admin');
  await page.getByTestId('admin-menu-translations').click();
  await expect(page.getByTestId('admin-heading')).toHaveText('Missing translations');
  const rows = page.getByTestId('translation-row');
  await expect(rows.filter({ hasText: 'pricing.e2eOnlyInTests' })).toContainText('繁體中文');
  await page.getByTestId('translations-language').selectOption('zh-cn');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/language=zh-cn/);
  await expect(rows.filter({ hasText: 'pricing.e2eOnlyInTests' })).toHaveCount(0);
  await expect(rows.filter({ hasText: 'home.e2eOnlyInTests' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Mark home.e2eOnlyInTests translated' }).click();
  await expect(rows.filter({ hasText: 'home.e2eOnlyInTests' })).toHaveCount(0);
  // Emptying the whole list is an admin's: an editor is not offered it.
  await expect(page.getByTestId('translations-clear')).toHaveCount(0);
});

test('the back office’s code never loads on the public pages', async ({ page, login }) => {
  let scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.url());
  });
  // The table's own marks, TanStack Table's and TanStack Query's.
  const marks = ['admin-table', 'getIsAllPageRowsSelected', 'No QueryClient set'];
  const marksIn = async (url: string) => {
    const text = await (await page.request.get(url)).text();
    return marks.filter((mark) => text.includes(mark));
  };
  // Where it does load, the marks are found: the check below can see it.
  await login(users.admin);
  await page.goto('/en/admin/subscribers');
  await hydrated(page);
  expect(new Set((await Promise.all(scripts.map(marksIn))).flat())).toEqual(new Set(marks));
  // Leave the back office before signing out there: its live connection would take the page to the login.
  await page.goto('about:blank');
  await page.context().clearCookies();
  scripts = [];

  for (const path of ['/en', '/en/pricing', '/zh-hk/blogs']) {
    await page.goto(path);
    // Pages mostly read start their scripts at the first interaction: a pointer over the page.
    await page.mouse.move(3, 3);
    await page.mouse.move(1, 1);
    await page.waitForLoadState('networkidle');
  }
  expect(scripts.length).toBeGreaterThan(0);
  for (const url of scripts) expect(await marksIn(url), url).toEqual([]);
});

test('an admin exports the search as CSV in Chinese and the selection as XLSX, and both files read back', async ({
  page,
  login,
}) => {
  test.slow();
  await login(users.admin);
  await page.goto('/zh-hk/admin/subscribers?q=admin-table&sort=email');
  await hydrated(page);
  await expect(page.getByTestId('admin-page')).toHaveAttribute('data-live', 'on');

  // The whole search (twelve rows over two pages), without the creation date, as CSV.
  await page.getByTestId('admin-export').click();
  const dialog = page.getByTestId('export-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('export-column-createdAt').uncheck();
  await dialog.getByTestId('export-format-csv').check();
  await dialog.getByTestId('export-start').click();
  const csvLink = dialog.getByTestId('export-download');
  await expect(csvLink).toBeVisible({ timeout: 30_000 });
  const csvDownload = page.waitForEvent('download');
  await csvLink.click();
  const csvBytes = await readFile(await (await csvDownload).path());
  // UTF-8 with a byte-order mark, so Excel shows the Chinese headers.
  expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csvBytes.toString('utf8').slice(1).trim().split(/\r?\n/);
  const headers = (lines[0] ?? '').split(',');
  expect(headers).toContain('電郵');
  expect(headers).not.toContain('建立時間');
  const email = headers.indexOf('電郵');
  expect(lines.slice(1).map((line) => line.split(',')[email])).toEqual(tableEmails);
  await dialog.getByTestId('export-close').click();
  await expect(dialog).toBeHidden();

  // The first page's ten rows, selected, as an Excel workbook.
  await page.getByTestId('select-page').check();
  await page.getByTestId('admin-export').click();
  await expect(dialog.getByTestId('export-scope-selection')).toBeChecked();
  await dialog.getByTestId('export-format-xlsx').check();
  await dialog.getByTestId('export-start').click();
  const xlsxLink = dialog.getByTestId('export-download');
  await expect(xlsxLink).toBeVisible({ timeout: 30_000 });
  const xlsxDownload = page.waitForEvent('download');
  await xlsxLink.click();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await (await xlsxDownload).path());
  const sheet = workbook.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).filter(Boolean);
  expect(header).toContain('電郵');
  const emailColumn = (sheet.getRow(1).values as unknown[]).indexOf('電郵');
  const exported: string[] = [];
  sheet.eachRow((row, number) => {
    if (number > 1) exported.push(String(row.getCell(emailColumn).value));
  });
  expect(exported.sort()).toEqual(tableEmails.slice(0, 10));
});

test('an admin sends a mail that failed after all its retries again, and editors are not offered it', async ({
  page,
  login,
  request,
}) => {
  await login(users.editor);
  await page.goto('/en/admin/mailDeliveries?mode=page&f.state=failed');
  await expect(page.getByTestId('admin-row').filter({ hasText: 'nobody-e2e@tillpoint.test' })).toContainText(
    'ECONNREFUSED',
  );
  await expect(page.getByTestId('row-retry')).toHaveCount(0);

  await login(users.admin);
  await page.goto('/en/admin/mailDeliveries?mode=page&f.state=failed');
  await hydrated(page);
  const row = page.getByTestId('admin-row').filter({ hasText: 'nobody-e2e@tillpoint.test' });
  await row.getByTestId('row-retry').click();
  await expect(page.getByTestId('snackbar-success')).toContainText('Sent again.');
  // Sent again as a new job: no longer failed (with no account at that address, it ends without a mail).
  const headers = await staffHeaders(request);
  await expect
    .poll(
      async () =>
        ((await (await request.get('/api/mailDeliveries/e2efailedmail1', { headers })).json()) as { state: string })
          .state,
      { timeout: 20_000 },
    )
    .not.toBe('failed');
  await expect(row).toHaveCount(0, { timeout: 20_000 });
});

test('an image field takes an uploaded picture: its address fills in and it shows', async ({ page, login }) => {
  await login(users.editor);
  await page.goto('/en/admin/blogs/new');
  await hydrated(page);
  const field = page.getByTestId('image-coverImage');
  await expect(field).toBeVisible();
  await expect(field.getByTestId('image-preview')).toHaveCount(0);
  const picture = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#1f7a6d' } })
    .png()
    .toBuffer();
  await field
    .locator('input[type="file"]')
    .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: picture });
  await expect(page.locator('#field-coverImage')).toHaveValue(/^\/api\/attachments\/[\w-]+/, { timeout: 20_000 });
  await expect(field.getByTestId('image-preview')).toBeVisible();
  // Shown once its picture has loaded (the preview is in the page before its bytes arrive).
  await expect
    .poll(() => field.getByTestId('image-preview').evaluate((image) => (image as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
});

test('an article is written in the rich-text editor, a language per tab, and saved as written', async ({
  page,
  login,
  request,
}) => {
  test.setTimeout(60_000);
  await login(users.editor);
  const slug = `rich-text-${Date.now()}`;
  await page.goto('/en/admin/blogs/new');
  await hydrated(page);
  const title = page.getByTestId('translated-field-title');
  await title.locator('#field-title-en').fill('Orders at the table');
  await title.getByRole('tab', { name: /繁體中文/ }).click();
  await title.locator('#field-title-zh-hk').fill('枱邊落單');
  // The tab of a language still empty says so; one written in no longer does.
  await expect(title.getByRole('tab', { name: /繁體中文/ })).not.toContainText('empty');
  await expect(title.getByRole('tab', { name: /简体中文/ })).toContainText('empty');
  await page.locator('#field-slug').fill(slug);
  await page
    .getByTestId('translated-field-summary')
    .locator('#field-summary-en')
    .fill('How table ordering shortens the queue.');

  const body = page.getByTestId('translated-field-body');
  const text = body.getByTestId('rich-v.body.en');
  await text.click();
  await page.keyboard.type('Why order at the table');
  await body.getByRole('button', { name: 'H2 heading' }).first().click();
  await expect(text.locator('h2')).toHaveText('Why order at the table');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Guests order ');
  await body.getByRole('button', { name: 'Bold' }).first().click();
  await page.keyboard.type('from their phones');
  await body.getByRole('button', { name: 'Bold' }).first().click();
  await page.keyboard.type(' and pay there. ');
  await body.getByRole('button', { name: 'Link' }).first().click();
  const address = body.getByRole('textbox', { name: 'Link address' });
  await address.fill('javascript:alert(1)');
  await body.getByTestId('rich-link-apply').click();
  await expect(body.getByTestId('rich-link')).toContainText('Enter a web address');
  await address.fill('https://tillpoint.test/pricing');
  await address.press('Enter');
  await expect(text.locator('a')).toHaveAttribute('href', 'https://tillpoint.test/pricing');
  await expect(text.locator('strong')).toHaveText('from their phones');

  // The Chinese body in its own tab.
  await body.getByRole('tab', { name: /繁體中文/ }).click();
  await body.getByTestId('rich-v.body.zh-hk').click();
  await page.keyboard.type('客人用手機落單。');
  // The category from the list the news share (decision 056), found as it is typed.
  const category = page.getByRole('combobox', { name: 'Category' });
  await category.fill('Restaurant');
  await page.getByTestId('reference-category').getByRole('option', { name: 'Restaurant tips' }).click();
  await expect(page.locator('input[name="v.category"]')).toHaveValue('restaurant-tips');
  // A draft: a published article would join the blog list other tests count.
  await page.locator('#field-status').selectOption('draft');
  await page.getByTestId('editor-save').click();
  await expect(page).toHaveURL(/\/en\/admin\/blogs$/);
  await expect(page.getByTestId('snackbar-success')).toContainText('Created.');

  const headers = await staffHeaders(request);
  const saved = (await (await request.get(`/api/blogs?slug=${slug}`, { headers })).json()) as {
    data: { _id: string; body: Record<string, string> }[];
  };
  const article = saved.data[0]!;
  expect(article.body.en).toBe(
    '<h2>Why order at the table</h2><p>Guests order <strong>from their phones</strong> and pay there. <a rel="noopener" href="https://tillpoint.test/pricing">https://tillpoint.test/pricing</a></p>',
  );
  expect(article.body['zh-hk']).toBe('<p>客人用手機落單。</p>');

  // Opened again, the editor shows what was saved; a save that touched nothing changes nothing.
  await page.goto(`/en/admin/blogs/edit/${article._id}`);
  await hydrated(page);
  await expect(page.getByTestId('translated-field-body').getByTestId('rich-v.body.en').locator('h2')).toHaveText(
    'Why order at the table',
  );
  await page.getByTestId('translated-field-body').getByTestId('rich-v.body.en').locator('p').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Today.');
  await page.getByTestId('editor-save').click();
  await expect(page.getByTestId('snackbar-success')).toContainText('Saved.');
  const edited = (await (await request.get(`/api/blogs/${article._id}`, { headers })).json()) as {
    body: Record<string, string>;
  };
  expect(edited.body.en).toContain('https://tillpoint.test/pricing</a> Today.</p>');
  expect(edited.body['zh-hk']).toBe('<p>客人用手機落單。</p>');
});

test('a reference is found by typing part of its name: a table filtered by its buyer, a plan’s industry chosen by keyboard', async ({
  page,
  login,
  request,
}) => {
  await login(users.admin);
  await page.goto('/en/admin/orders');
  await hydrated(page);
  // Searched through the live connection, a pause after typing.
  await expect(page.getByTestId('admin-page')).toHaveAttribute('data-live', 'on');
  await page.getByTestId('search-panel').locator('summary').click();
  const buyer = page.getByRole('combobox', { name: 'Buyer' });
  await buyer.fill('prepaid@');
  const option = page.getByRole('option', { name: users.prepaid.email });
  await expect(option).toBeVisible();
  await expect(buyer).not.toHaveAttribute('aria-busy', 'true');
  // Enter straight after typing takes nothing from the earlier search's list (its one record shown),
  // and, once the search for what was typed has answered, the record it found.
  await buyer.fill(users.admin.email);
  await buyer.press('Enter');
  await expect(buyer).toHaveValue(users.admin.email);
  const offered = page.locator(`[id="${await buyer.getAttribute('aria-controls')}"]`);
  await expect(offered.getByRole('option')).toHaveText([users.admin.email]);
  await expect(buyer).not.toHaveAttribute('aria-busy', 'true');
  await buyer.press('Enter');
  await expect(buyer).toHaveValue(users.admin.email);
  await expect(offered).toBeHidden();
  await buyer.fill('prepaid@');
  await expect(option).toBeVisible();
  await option.click();
  await expect(buyer).toHaveValue(users.prepaid.email);
  await page.getByTestId('search-apply').click();
  await expect(page).toHaveURL(/[?&]f\.user=[\w-]+/);
  const buyers = page.getByTestId('admin-row').locator('[data-column="user"]');
  await expect(buyers.first()).toHaveText(users.prepaid.email);
  for (const text of await buyers.allTextContents()) expect(text).toBe(users.prepaid.email);
  // The view comes back whole from its address, the buyer by name.
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('combobox', { name: 'Buyer' })).toHaveValue(users.prepaid.email);

  // In the editor: a plan's industry, by keyboard.
  const headers = await staffHeaders(request);
  const industries = (await (await request.get('/api/industries?$limit=50', { headers })).json()) as {
    data: { _id: string; name: { en: string } }[];
  };
  const retail = industries.data.find((industry) => industry.name.en === 'Retail Stores')!;
  await page.goto('/en/admin/appTemplates/new');
  await hydrated(page);
  const industry = page.getByRole('combobox', { name: 'Industry' });
  await industry.click();
  await industry.pressSequentially('reta');
  const found = page.getByTestId('reference-industry').getByRole('option');
  await expect(found).toHaveText(['Retail Stores']);
  await industry.press('ArrowDown');
  await industry.press('Enter');
  await expect(industry).toHaveValue('Retail Stores');
  await expect(page.locator('input[name="v.industry"]')).toHaveValue(retail._id);
  // Typing what matches nothing says so, and leaves the choice as it was.
  await industry.fill('no such industry');
  await expect(page.getByTestId('reference-industry').getByTestId('reference-options-note')).toHaveText(
    'No matching records',
  );
  await industry.press('Escape');
  await expect(industry).toHaveValue('Retail Stores');
  await expect(page.locator('input[name="v.industry"]')).toHaveValue(retail._id);
});

test('every match of a search, across its pages, is selected, exported and deleted with a progress bar', async ({
  page,
  login,
  request,
}) => {
  // Seven subscribers of this test's own, shown five to a page.
  const run = `all-${Date.now().toString(36)}`;
  const headers = await staffHeaders(request);
  const ids: string[] = [];
  for (let i = 1; i <= 7; i += 1) {
    const made = await request.post('/api/subscribers', {
      headers,
      data: { email: `${run}-${i}@example.com`, campaign: '23hkrace' },
    });
    expect(made.status(), await made.text()).toBe(201);
    ids.push(((await made.json()) as { _id: string })._id);
  }
  await login(users.admin);
  await page.goto(`/en/admin/subscribers?q=${run}&mode=page&size=5`);
  await hydrated(page);
  await expect(page.getByTestId('admin-page')).toHaveAttribute('data-live', 'on');
  await expect(page.getByTestId('admin-row')).toHaveCount(5);

  // The page first; then every match, which the bar offers once the whole page is chosen.
  await expect(page.getByTestId('select-all-matches')).toBeHidden();
  await page.getByTestId('select-page').check();
  await expect(page.getByTestId('selection-count')).toHaveText('5 selected');
  await page.getByTestId('select-all-matches').click();
  await expect(page.getByTestId('selection-count')).toHaveText('All 7 matching records are selected');

  // The export of the selection `all` is the search's: every match, not the page.
  await page.getByTestId('admin-export').click();
  await expect(page.getByTestId('export-scope-query')).toBeChecked();
  await expect(page.getByTestId('export-scope-selection')).toBeHidden();
  await page.getByTestId('export-close').click();

  // Unchoosing one row of the page goes back to the rows chosen.
  await page.getByTestId('admin-row').first().getByRole('checkbox').uncheck();
  await expect(page.getByTestId('selection-count')).toHaveText('4 selected');
  await page.getByTestId('select-page').check();
  await page.getByTestId('select-all-matches').click();

  await page.getByTestId('remove-selected').click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText('Delete 7 records?');
  await confirm.getByTestId('confirm-ok').click();
  const batch = page.getByTestId('batch-dialog');
  await expect(batch).toHaveAttribute('data-state', 'done');
  await expect(batch.getByRole('heading')).toHaveText('7 of 7 deleted');
  await expect(batch.getByTestId('batch-progress')).toHaveAttribute('value', '7');
  await batch.getByTestId('batch-close').click();
  await expect(page.getByTestId('snackbar-success')).toContainText('7 records deleted.');
  await expect(page.getByTestId('admin-empty')).toBeVisible();
  for (const id of ids) expect((await request.get(`/api/subscribers/${id}`, { headers })).status()).toBe(404);
});
