import type { Locator } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { bothThemesViolations } from './axe.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { users } from './users.ts';

/*
 * The apps' settings in the back office (decision 046): one record, its colours, map points and
 * sponsor's days edited through their own widgets, checked before sending by the service's own
 * schemas, saved, and read back through the API as the apps read it (signed out).
 */

// Both tests edit the one record: one at a time, or a save would meet the other's change.
test.describe.configure({ mode: 'serial' });

type Settings = Record<string, unknown> & { _id: string };
const WRITTEN = [
  'header',
  'headerPhoto',
  'footerColor1',
  'footerColor2',
  'showEvent',
  'showShop',
  'sponsorName',
  'sponsorShown',
  'mapHongKong',
  'mapCanada',
];

/** Pastes text into an input as a browser's paste does: a clipboard event the page may take over. */
async function paste(input: Locator, text: string): Promise<void> {
  await input.focus();
  await input.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

test('staff edit the apps’ settings through the colour, map and day-range widgets, and the apps read them', async ({
  page,
  login,
  request,
}) => {
  test.setTimeout(120_000);
  const read = async () => {
    const response = await request.get('/api/appSettings');
    expect(response.status()).toBe(200);
    return ((await response.json()) as { data: Settings[] }).data;
  };
  const [original] = await read();
  if (!original) throw new Error('the seed made no app settings');
  const headers = await staffHeaders(request);
  try {
    await login(users.editor);
    await page.goto('/en/admin/appSettings');
    await hydrated(page);
    // One record, nothing to add or delete; colours as swatches, points as text, the days as a range.
    const row = page.getByTestId('admin-row');
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId('admin-add')).toHaveCount(0);
    await expect(row.getByTestId('colour-swatch')).toHaveCount(2);
    await expect(row.locator('[data-column="footerColor1"]')).toHaveText(String(original.footerColor1));
    await expect(row.locator('[data-column="mapHongKong"]')).toHaveText('22.3193, 114.1694 (±0.35, ±0.35)');
    const shown = original.sponsorShown as { from: string; to: string };
    await expect(row.locator('[data-column="sponsorShown"]')).toHaveText(`${shown.from} – ${shown.to}`);

    await row.getByTestId('row-edit').click();
    const dialog = page.getByTestId('editor-dialog');
    await expect(dialog).toBeVisible();
    expect(await bothThemesViolations(page, '[data-testid="editor-dialog"]')).toEqual([]);

    // A colour picked is written as its hex; one typed without its # gets it when the box is left.
    await dialog.getByTestId('colour-footerColor1').getByTestId('colour-picker').fill('#336699');
    await expect(dialog.locator('#field-footerColor1')).toHaveValue('#336699');
    await dialog.locator('#field-footerColor2').fill('1A2B3C');
    await dialog.locator('#field-footerColor2').blur();
    await expect(dialog.locator('#field-footerColor2')).toHaveValue('#1a2b3c');
    await expect(dialog.getByTestId('colour-footerColor2').getByTestId('colour-picker')).toHaveValue('#1a2b3c');

    // A point pasted from a map fills both coordinates, and the link opens it on OpenStreetMap.
    const hongKong = dialog.getByTestId('map-mapHongKong');
    await paste(hongKong.locator('#field-mapHongKong-latitude'), '22.2855, 114.1577');
    await expect(hongKong.locator('#field-mapHongKong-latitude')).toHaveValue('22.2855');
    await expect(hongKong.locator('#field-mapHongKong-longitude')).toHaveValue('114.1577');
    await hongKong.locator('#field-mapHongKong-longitudeDelta').fill('0.2');
    await expect(hongKong.getByTestId('map-link')).toHaveAttribute(
      'href',
      'https://www.openstreetmap.org/?mlat=22.2855&mlon=114.1577#map=11/22.2855/114.1577',
    );
    await expect(hongKong.getByTestId('map-link')).toHaveAttribute('target', '_blank');

    // Wrong values are caught before anything is sent, each beside its own part.
    const posts: string[] = [];
    page.on('request', (sent) => {
      if (sent.method() === 'POST' && !sent.url().includes('/api/')) posts.push(sent.url());
    });
    const canada = dialog.getByTestId('map-mapCanada');
    await canada.locator('#field-mapCanada-latitude').fill('95');
    await canada.locator('#field-mapCanada-longitudeDelta').fill('0');
    const range = dialog.getByTestId('range-sponsorShown');
    await range.locator('#field-sponsorShown-from').fill('2026-12-01');
    await range.locator('#field-sponsorShown-to').fill('2026-11-30');
    await dialog.getByTestId('editor-save').click();
    await expect(dialog.getByTestId('error-field-mapCanada-latitude')).toHaveText('Enter a latitude from -90 to 90.');
    await expect(dialog.getByTestId('error-field-mapCanada-longitudeDelta')).toHaveText(
      'Enter a longitude span above 0 and up to 360.',
    );
    await expect(dialog.getByTestId('error-field-sponsorShown-to')).toHaveText(
      'The last day cannot be before the first day.',
    );
    // The first field to correct, in the form's order, has the focus: the sponsor's last day.
    await expect(range.locator('#field-sponsorShown-to')).toBeFocused();
    await expect(canada.locator('#field-mapCanada-latitude')).toHaveAttribute('aria-invalid', 'true');
    expect(posts).toEqual([]);
    await expect(canada.getByTestId('map-link')).toHaveCount(0);

    await canada.locator('#field-mapCanada-latitude').fill('49.2827');
    await expect(dialog.getByTestId('error-field-mapCanada-latitude')).toHaveCount(0);
    await canada.locator('#field-mapCanada-longitude').fill('-123.1207');
    await canada.locator('#field-mapCanada-longitudeDelta').fill('0.5');
    await range.locator('#field-sponsorShown-to').fill('2027-01-31');

    // The header photo: uploaded into the settings folder, shown from the stored file.
    const photo = dialog.getByTestId('image-headerPhoto');
    const picture = await sharp({ create: { width: 800, height: 300, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    await photo
      .locator('input[type="file"]')
      .setInputFiles({ name: 'app-header.png', mimeType: 'image/png', buffer: picture });
    await expect(photo.getByTestId('image-name')).toHaveText('app-header.png', { timeout: 20_000 });
    await expect
      .poll(() => photo.getByTestId('image-preview').evaluate((image) => (image as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);

    await dialog.getByTestId('editor-save').click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('snackbar-success')).toContainText('Saved.');
    await expect(row.locator('[data-column="mapCanada"]')).toHaveText('49.2827, -123.1207 (±30, ±0.5)');
    await expect(row.locator('[data-column="sponsorShown"]')).toHaveText('2026-12-01 – 2027-01-31');
    await expect(row.getByTestId('image-thumb')).toBeVisible();

    // What the apps read, signed out.
    const [saved] = await read();
    expect(saved).toMatchObject({
      footerColor1: '#336699',
      footerColor2: '#1a2b3c',
      mapHongKong: { latitude: 22.2855, longitude: 114.1577, latitudeDelta: 0.35, longitudeDelta: 0.2 },
      mapCanada: { latitude: 49.2827, longitude: -123.1207, latitudeDelta: 30, longitudeDelta: 0.5 },
      sponsorShown: { from: '2026-12-01', to: '2027-01-31' },
      header: original.header,
    });
    const file = await request.get(`/api/attachments/${String(saved?.headerPhoto)}`, { headers });
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('image/png');
    const stored = await request.get(`/api/attachments/${String(saved?.headerPhoto)}`, {
      headers: { ...headers, accept: 'application/json' },
    });
    expect(await stored.json()).toMatchObject({ folder: 'settings', name: 'app-header.png' });
  } finally {
    // The record is every spec's: it goes back as it was.
    const restored = await request.patch(`/api/appSettings/${original._id}`, {
      headers,
      data: Object.fromEntries(WRITTEN.map((name) => [name, original[name]])),
    });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});

test('staff fill the home screen’s gallery, put it in order with the buttons and with Alt and the arrow keys, and it is saved in that order', async ({
  page,
  login,
  request,
}) => {
  test.setTimeout(90_000);
  const run = randomBytes(3).toString('hex');
  const names = [`harbour-${run}.png`, `counter-${run}.png`, `terrace-${run}.png`];
  const settingsId = ((await (await request.get('/api/appSettings')).json()) as { data: Settings[] }).data[0]?._id;
  if (!settingsId) throw new Error('the seed made no app settings');
  const headers = await staffHeaders(request);
  const gallery = async () =>
    ((await (await request.get(`/api/appSettings/${settingsId}`)).json()) as Settings).homeGallery as string[];
  const picture = (colour: string) =>
    sharp({ create: { width: 320, height: 200, channels: 3, background: colour } })
      .png()
      .toBuffer();
  try {
    await login(users.editor);
    await page.goto('/en/admin/appSettings');
    await hydrated(page);
    await page.getByTestId('admin-row').getByTestId('row-edit').click();
    const dialog = page.getByTestId('editor-dialog');
    const field = dialog.getByTestId('gallery-homeGallery');
    await expect(field).toBeVisible();
    await field.locator('input[type="file"]').setInputFiles([
      { name: names[0] as string, mimeType: 'image/png', buffer: await picture('#14625c') },
      { name: names[1] as string, mimeType: 'image/png', buffer: await picture('#fbbf4d') },
      { name: names[2] as string, mimeType: 'image/png', buffer: await picture('#b91c1c') },
    ]);
    const items = field.getByRole('listitem');
    await expect(field.locator('li[data-status="success"]')).toHaveCount(3, { timeout: 20_000 });
    const order = () => items.locator('.truncate').allInnerTexts();
    expect(await order()).toEqual(names);

    // The buttons: the terrace up one place; the first file cannot go further up.
    await expect(items.nth(0).getByRole('button', { name: `Move ${names[0]} up` })).toBeDisabled();
    await items
      .nth(2)
      .getByRole('button', { name: `Move ${names[2]} up` })
      .click();
    expect(await order()).toEqual([names[0], names[2], names[1]]);

    // The keyboard: Tab to the harbour's row, Alt + Down twice takes it to the end, keeping the focus.
    const harbour = items.filter({ hasText: names[0] as string });
    await expect(harbour).toHaveAccessibleDescription('Alt and the arrow keys move this file in the list.');
    await field.locator('input[type="file"]').focus();
    await page.keyboard.press('Tab');
    await expect(harbour).toBeFocused();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(order).toEqual([names[2], names[0], names[1]]);
    await expect(harbour).toBeFocused();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(order).toEqual([names[2], names[1], names[0]]);
    await expect(harbour).toBeFocused();
    // Past the end it stays; Alt + Up brings it back one place.
    await page.keyboard.press('Alt+ArrowDown');
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(order).toEqual([names[2], names[0], names[1]]);

    await dialog.getByTestId('editor-save').click();
    await expect(page.getByTestId('snackbar-success')).toContainText('Saved.');

    // Saved in that order, as the apps read it (signed out); each id is the file of that name.
    const saved = await gallery();
    expect(saved).toHaveLength(3);
    const stored = await Promise.all(
      saved.map(
        async (id) =>
          (await (
            await request.get(`/api/attachments/${id}`, { headers: { ...headers, accept: 'application/json' } })
          ).json()) as { name: string; folder: string },
      ),
    );
    expect(stored.map((file) => [file.name, file.folder])).toEqual(
      [names[2], names[0], names[1]].map((name) => [name, 'settings']),
    );

    // Opened again, the gallery shows the pictures in the saved order.
    await page.goto('/en/admin/appSettings');
    await hydrated(page);
    await page.getByTestId('admin-row').getByTestId('row-edit').click();
    const again = page.getByTestId('editor-dialog').getByTestId('gallery-homeGallery');
    await expect(again.getByRole('listitem')).toHaveCount(3);
    expect(await again.getByRole('listitem').locator('.truncate').allInnerTexts()).toEqual([
      names[2],
      names[0],
      names[1],
    ]);
    await expect
      .poll(() =>
        again
          .getByRole('listitem')
          .first()
          .locator('img')
          .evaluate((image: HTMLImageElement) => image.naturalWidth),
      )
      .toBeGreaterThan(0);
  } finally {
    const restored = await request.patch(`/api/appSettings/${settingsId}`, { headers, data: { homeGallery: [] } });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});
