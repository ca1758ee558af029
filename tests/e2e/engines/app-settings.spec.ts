/**
 * The apps' settings editor's own widgets in WebKit and Firefox (decision 046): a colour typed
 * without its `#` is written as a hex and shown in the picker; a map point's parts and their
 * messages, checked before anything is sent, each beside its part, the first to correct focused.
 * Nothing is saved here (the record is one for every spec); saving, the header photo and what the
 * apps read are tested in Chromium (app-settings.spec.ts).
 */
import { users } from '../users.ts';
import { DESKTOP, expect, hydrate, logInOnTheWayTo, test, until } from './fixtures.ts';

test('staff use the colour and map point widgets, and wrong values are caught before saving', async ({ openTab }) => {
  test.setTimeout(120_000);
  const tab = await openTab(DESKTOP);
  await logInOnTheWayTo(tab, '/en/admin/appSettings', users.editor);
  await until(
    tab,
    'the table shows its one record',
    () =>
      window.location.pathname === '/en/admin/appSettings' &&
      document.querySelectorAll('[data-testid="admin-row"]').length === 1,
  );
  await hydrate(tab);
  await tab.click('[data-testid="admin-row"] [data-testid="row-edit"]');
  await until(
    tab,
    'the editor opens',
    () => document.querySelector('[data-testid="editor-dialog"] #field-footerColor2') !== null,
  );
  await hydrate(tab);

  // A colour typed without its # gets it when the box is left, and the picker shows it.
  await tab.fill('#field-footerColor2', '1A2B3C');
  await tab.press('Tab');
  await until(tab, 'the colour is written as its hex', () => {
    const box = document.querySelector<HTMLInputElement>('#field-footerColor2');
    const picker = document.querySelector<HTMLInputElement>(
      '[data-testid="colour-footerColor2"] [data-testid="colour-picker"]',
    );
    return box?.value === '#1a2b3c' && picker?.value === '#1a2b3c';
  });

  // A point's parts: wrong ones are caught before anything is sent, each beside its own part.
  await tab.fill('#field-mapCanada-latitude', '95');
  await tab.fill('#field-mapCanada-longitudeDelta', '0');
  await tab.click('[data-testid="editor-save"]');
  await until(
    tab,
    'each wrong part says why',
    () =>
      document.querySelector('[data-testid="error-field-mapCanada-latitude"]')?.textContent ===
        'Enter a latitude from -90 to 90.' &&
      document.querySelector('[data-testid="error-field-mapCanada-longitudeDelta"]')?.textContent ===
        'Enter a longitude span above 0 and up to 360.',
  );
  await until(
    tab,
    'the first part to correct has the focus',
    () => document.activeElement?.id === 'field-mapCanada-latitude',
  );
  expect(
    await tab.evaluate(() => document.querySelector('#field-mapCanada-latitude')?.getAttribute('aria-invalid')),
  ).toBe('true');
  expect(await tab.evaluate(() => document.querySelector('[data-testid="editor-dialog"]') !== null)).toBe(true);

  // Corrected, the part's message goes, and the map link comes back.
  await tab.fill('#field-mapCanada-latitude', '49.2827');
  await until(
    tab,
    'the corrected part has no message',
    () => document.querySelector('[data-testid="error-field-mapCanada-latitude"]') === null,
  );
  await tab.fill('#field-mapCanada-longitudeDelta', '0.5');
  await until(
    tab,
    'the map link points at the corrected point',
    () =>
      document
        .querySelector('[data-testid="map-mapCanada"] [data-testid="map-link"]')
        ?.getAttribute('href')
        ?.startsWith('https://www.openstreetmap.org/?mlat=49.2827&') === true,
  );
});
