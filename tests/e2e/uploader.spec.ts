import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { HTML_PAGE, png } from '../integration/upload-fixtures.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { users } from './users.ts';

/**
 * The site's one uploader as people use it (spec section 7): cancelling a file on its way, the
 * drop zone's filter, and the whole of it by keyboard with what a screen reader is told. The
 * upload panel of the media library and an article's cover field are its hosts here.
 */

// The browser logs the refused upload (415 or 422) as a console error: that is the point here.
test.use({ allowedConsoleErrors: [/status of (415|422)/] });

/**
 * Holds in flight the uploads of a file whose name is `name` (its multipart body names it) until
 * `release()`; other uploads go through. `held` settles once one such upload has been caught.
 */
async function holdUploadOf(page: Page, name: string) {
  let release = () => {};
  let caught = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = new Promise<void>((resolve) => {
    caught = resolve;
  });
  await page.route('**/api/attachments/upload/**', async (route) => {
    const request = route.request();
    if (!request.postDataBuffer()?.includes(`filename="${name}"`)) return route.fallback();
    // The browser tells of a request the page gave up while it was held: seen here, not raced.
    const givenUp = new Promise<void>((resolve) =>
      page.on('requestfailed', (failed) => {
        if (failed === request) resolve();
      }),
    );
    caught();
    await gate;
    // The page has given the request up (the test released it after the page said so): nothing is
    // sent on. A page that still held it on would send it, and the file would be stored.
    const gone = await Promise.race([
      givenUp.then(() => true),
      new Promise<boolean>((r) => setTimeout(r, 5_000, false)),
    ]);
    if (gone || request.failure()) return route.abort().catch(() => undefined);
    await route.continue().catch(() => undefined);
  });
  return { held, release };
}

/** The names of the stored attachments whose name holds `run`, as staff read them through the API. */
async function storedNames(request: APIRequestContext, run: string): Promise<string[]> {
  const response = await request.get(`/api/attachments?name[$regex]=${run}&name[$options]=i&$limit=20`, {
    headers: await staffHeaders(request),
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { name: string }[] }).data.map((file) => file.name).sort();
}

/** Opens the media library's upload panel as an editor. */
async function mediaPanel(page: Page, lang: 'en' | 'zh-hk'): Promise<Locator> {
  await page.goto(`/${lang}/admin/attachments`);
  await hydrated(page);
  await page.getByTestId('admin-upload').click();
  return page.getByTestId('media-upload');
}

/** Keeps every text the uploader's live region takes, in order, in `window.said`. */
async function listenToLiveRegion(panel: Locator) {
  await panel.getByTestId('uploader-live').evaluate((region) => {
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    new MutationObserver(() => said.push(region.textContent ?? '')).observe(region, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  return (page: Page) => page.evaluate(() => (window as unknown as { said: string[] }).said);
}

test('a file on its way is cancelled: it shows so, is announced, never stored, and can then be removed', async ({
  page,
  login,
  request,
}) => {
  const run = randomBytes(3).toString('hex');
  const held = `held-${run}.png`;
  const later = `later-${run}.png`;
  await login(users.editor);
  const hold = await holdUploadOf(page, held);
  const panel = await mediaPanel(page, 'zh-hk');
  const said = await listenToLiveRegion(panel);

  await panel
    .locator('input[type="file"]')
    .setInputFiles({ name: held, mimeType: 'image/png', buffer: await png(800, 600) });
  await hold.held;
  const item = panel.getByRole('listitem').filter({ hasText: held });
  await expect(item).toHaveAttribute('data-status', 'processing');
  await expect(item).toContainText('上載中');
  await item.getByRole('button', { name: `取消上載 ${held}` }).click();

  await expect(item).toHaveAttribute('data-status', 'cancelled');
  await expect(item).toContainText('已取消');
  await expect(item.getByRole('progressbar')).not.toHaveJSProperty('value', 1);
  await expect(panel.getByTestId('uploader-live')).toContainText(`已取消上載 ${held}。`);
  expect(await said(page)).toContainEqual(expect.stringContaining(`已取消上載 ${held}。`));
  // Let the held request go: the page gave it up, so nothing reaches the server.
  hold.release();

  // A later file goes through; once it is stored, the cancelled one is still not.
  await panel
    .locator('input[type="file"]')
    .setInputFiles({ name: later, mimeType: 'image/png', buffer: await png(400, 300) });
  await expect(panel.getByRole('listitem').filter({ hasText: later })).toHaveAttribute('data-status', 'success');
  await expect.poll(() => storedNames(request, run)).toEqual([later]);

  // Done, the cancelled file's button removes it from the list.
  await item.getByRole('button', { name: `移除 ${held}` }).click();
  await expect(item).toHaveCount(0);
  await expect(panel.getByRole('listitem')).toHaveCount(1);
  expect(await storedNames(request, run)).toEqual([later]);
});

test('a drop takes only what the filter allows: the image is uploaded, the text file is left out with a message', async ({
  page,
  login,
  request,
}) => {
  const run = randomBytes(3).toString('hex');
  await login(users.editor);
  await page.goto('/en/admin/blogs/new');
  await hydrated(page);
  const field = page.getByTestId('image-coverImage');
  const zone = field.getByTestId('uploader-drop');
  const posts: string[] = [];
  await page.route('**/api/attachments/upload/**', async (route) => {
    posts.push(route.request().postDataBuffer()?.toString('latin1') ?? '');
    await route.fallback();
  });

  // A drop as the browser delivers it: a drag over the zone, then the drop, with a picture and a text file.
  await zone.evaluate(
    async (element, names) => {
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 400;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      context.fillStyle = '#25978a';
      context.fillRect(0, 0, 640, 400);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made as Blob), 'image/png'));
      const files = new DataTransfer();
      files.items.add(new File([blob], names.image, { type: 'image/png' }));
      files.items.add(new File(['opening hours: 8am to 10pm'], names.text, { type: 'text/plain' }));
      (window as unknown as { dropped: DataTransfer }).dropped = files;
      element.dispatchEvent(new DragEvent('dragover', { dataTransfer: files, bubbles: true, cancelable: true }));
    },
    { image: `dropped-${run}.png`, text: `notes-${run}.txt` },
  );
  await expect(zone).toHaveAttribute('data-dragging', 'true');
  await zone.evaluate((element) => {
    const files = (window as unknown as { dropped: DataTransfer }).dropped;
    element.dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true, cancelable: true }));
  });

  // The text file is named as left out; the picture alone is in the list, uploaded, and fills the field.
  await expect(field.getByRole('alert')).toHaveText(
    `1 file was left out, as this uploader does not take their type: notes-${run}.txt`,
  );
  const items = field.getByRole('listitem');
  await expect(items).toHaveCount(1);
  await expect(items).toContainText(`dropped-${run}.png`);
  await expect(items).toHaveAttribute('data-status', 'success', { timeout: 20_000 });
  await expect(page.locator('#field-coverImage')).toHaveValue(/^\/api\/attachments\/[\w-]+/);
  await expect(zone).not.toHaveAttribute('data-dragging');

  // One upload left the page, with the picture only; the server keeps the picture only.
  expect(posts).toHaveLength(1);
  expect(posts[0]).toContain(`filename="dropped-${run}.png"`);
  expect(posts[0]).not.toContain(`notes-${run}`);
  expect(await storedNames(request, run)).toEqual([`dropped-${run}.png`]);
});

test('the uploader by keyboard alone, with its progress, outcomes and errors told to screen readers', async ({
  page,
  login,
  request,
}) => {
  test.setTimeout(60_000);
  const run = randomBytes(3).toString('hex');
  const [held, good, bad, spaced] = [`held-${run}.png`, `good-${run}.png`, `bad-${run}.png`, `space-${run}.png`];
  await login(users.editor);
  const hold = await holdUploadOf(page, held);
  await page.goto('/en/admin/attachments');
  await hydrated(page);
  const open = page.getByTestId('admin-upload');
  await open.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('media-upload');
  await expect(panel).toBeVisible();
  const said = await listenToLiveRegion(panel);

  // Tab reaches the picker: the browser's own file input, which Enter and Space open (the chooser
  // itself is the browser's, not drawn by the page, so the files are given to the focused input).
  const picker = panel.locator('input[type="file"]');
  for (let i = 0; i < 30 && !(await picker.evaluate((input) => input === document.activeElement)); i += 1)
    await page.keyboard.press('Tab');
  await expect(picker).toBeFocused();
  await expect(picker).toHaveAccessibleDescription('Drop files here, or choose them from your device.');
  expect(await picker.evaluate((input: HTMLInputElement) => input.multiple)).toBe(true);
  await picker.setInputFiles([
    { name: held, mimeType: 'image/png', buffer: await png(800, 600) },
    { name: good, mimeType: 'image/png', buffer: await png(1200, 800) },
    { name: bad, mimeType: 'image/png', buffer: HTML_PAGE },
  ]);
  await hold.held;

  // Each file's progress is a progressbar named after it; the outcomes come through the live region.
  const row = (name: string) => panel.getByRole('listitem').filter({ hasText: name });
  await expect(panel.getByRole('progressbar', { name: `Upload progress of ${good}` })).toHaveJSProperty('value', 1, {
    timeout: 20_000,
  });
  await expect(panel.getByRole('progressbar', { name: `Upload progress of ${held}` })).toBeVisible();
  await expect(row(good)).toHaveAttribute('data-status', 'success');
  await expect(row(bad)).toHaveAttribute('data-status', 'error');
  // The failed file carries the server's message as an alert.
  const alert = row(bad).getByRole('alert');
  await expect(alert).not.toBeEmpty();
  const message = (await alert.innerText()).trim();
  expect(message).toMatch(/\w{4,}/);
  await expect.poll(() => said(page)).toContainEqual(expect.stringContaining(`${good} uploaded.`));
  await expect.poll(() => said(page)).toContainEqual(expect.stringContaining(`${bad} failed: ${message}`));
  await expect(panel.getByTestId('uploader-live')).toContainText('2 of 3 files done');
  await expect(row(held)).toHaveAttribute('data-status', 'processing');

  // Tab goes on to each file's button: Cancel while on its way, then Remove; Enter works them.
  await page.keyboard.press('Tab');
  const cancel = row(held).getByRole('button', { name: `Cancel the upload of ${held}` });
  await expect(cancel).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row(held)).toHaveAttribute('data-status', 'cancelled');
  await expect(row(held)).toContainText('Cancelled');
  await expect(panel.getByTestId('uploader-live')).toHaveText(`Upload of ${held} cancelled. 3 of 3 files done`);
  // The same button, now Remove, keeps the focus.
  await expect(row(held).getByRole('button', { name: `Remove ${held}` })).toBeFocused();
  hold.release();

  await page.keyboard.press('Tab');
  await expect(row(good).getByRole('button', { name: `Remove ${good}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row(good)).toHaveCount(0);
  // The focus moves to the next file's button, then, with none after, to the one before, then to the picker.
  await expect(row(bad).getByRole('button', { name: `Remove ${bad}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row(bad)).toHaveCount(0);
  await expect(row(held).getByRole('button', { name: `Remove ${held}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('listitem')).toHaveCount(0);
  await expect(picker).toBeFocused();

  // The picker, focused again, takes another file.
  await picker.setInputFiles({ name: spaced, mimeType: 'image/png', buffer: await png(300, 200) });
  await expect(row(spaced)).toHaveAttribute('data-status', 'success', { timeout: 20_000 });
  await expect(panel.getByTestId('uploader-live')).toHaveText(`${spaced} uploaded. 1 of 1 file done`);

  // Stored: the two pictures that went through; neither the cancelled one nor the page in disguise.
  expect(await storedNames(request, run)).toEqual([good, spaced].sort());
});
