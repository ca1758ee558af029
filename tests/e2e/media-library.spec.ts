import { randomBytes } from 'node:crypto';
import { pdfOf, png } from '../integration/upload-fixtures.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { users } from './users.ts';

/**
 * The media library (the back office's files and images): staff upload several files at once
 * into a content folder through the site's one uploader, each with its own progress and state,
 * and the table lists them as they are stored.
 */

test.use({ allowedConsoleErrors: [/status of 415/] });

test('staff upload several files into a folder, each with its progress, and the table lists them', async ({
  page,
  login,
  request,
}) => {
  const run = randomBytes(3).toString('hex');
  await login(users.editor);
  await page.goto('/zh-hk/admin/attachments');
  await hydrated(page);
  await expect(page.getByTestId('media-upload')).toHaveCount(0);
  const open = page.getByTestId('admin-upload');
  await expect(open).toHaveText('上載檔案');
  await open.click();
  await expect(open).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByTestId('media-upload');
  await expect(panel.getByRole('heading', { name: '上載到媒體庫' })).toBeVisible();
  await panel.getByLabel('資料夾').selectOption({ label: '新聞' });

  // Three files picked at once: two images and a PDF; a text file among them is left out.
  await panel.locator('input[type="file"]').setInputFiles([
    { name: `菜單-${run}.png`, mimeType: 'image/png', buffer: await png(1200, 800) },
    { name: `shop-${run}.png`, mimeType: 'image/png', buffer: await png(640, 480) },
    { name: `price-list-${run}.pdf`, mimeType: 'application/pdf', buffer: pdfOf(20_000) },
    { name: `notes-${run}.txt`, mimeType: 'text/plain', buffer: Buffer.from('not a picture') },
  ]);
  await expect(panel.getByRole('alert').first()).toContainText('1');
  const done = panel.locator('li[data-status="success"]');
  await expect(done).toHaveCount(3);
  for (const item of await done.all()) {
    await expect(item.locator('progress')).toHaveJSProperty('value', 1);
    await expect(item).toContainText('已上載');
  }
  // Each image has its preview; sizes are in human units.
  await expect(panel.locator('li[data-status="success"] img')).toHaveCount(2);

  // The table lists the new files, newest first, in the chosen folder.
  const table = page.getByTestId('admin-page');
  for (const name of [`菜單-${run}.png`, `shop-${run}.png`, `price-list-${run}.pdf`])
    await expect(table.getByRole('row', { name: new RegExp(name) })).toBeVisible();

  // Stored as sent, in the news folder, served from their addresses.
  const found = await request.get(`/api/attachments?name[$regex]=${run}&name[$options]=i&$limit=10`, {
    headers: await staffHeaders(request),
  });
  expect(found.status()).toBe(200);
  const stored = (
    (await found.json()) as {
      data: { _id: string; name: string; folder: string; mime: string; width: number | null }[];
    }
  ).data;
  expect(stored.map((file) => [file.name, file.folder, file.mime, file.width]).sort()).toEqual(
    [
      [`price-list-${run}.pdf`, 'news', 'application/pdf', null],
      [`shop-${run}.png`, 'news', 'image/png', 640],
      [`菜單-${run}.png`, 'news', 'image/png', 1200],
    ].sort(),
  );
  const image = stored.find((file) => file.width === 1200);
  const variant = await request.get(`/api/attachments/${image?._id}?width=small&format=jpg`);
  expect(variant.status()).toBe(200);
  expect(variant.headers()['content-type']).toBe('image/jpeg');

  // A page renamed as a picture is refused, with the server's message on that file.
  await panel.locator('input[type="file"]').setInputFiles({
    name: `poster-${run}.png`,
    mimeType: 'image/png',
    buffer: Buffer.from('<!doctype html><p>hi</p>'),
  });
  const failed = panel.locator('li[data-status="error"]');
  await expect(failed).toHaveCount(1);
  await expect(failed.getByRole('alert')).not.toBeEmpty();
  await expect(table.getByRole('row', { name: new RegExp(`poster-${run}`) })).toHaveCount(0);
});
