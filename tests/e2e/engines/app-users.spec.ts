/**
 * An app user's page in WebKit and Firefox: an editor sees the email but no box to change it (nor
 * the password), changes the name and the date of birth, which comes back as the very day typed
 * (a day, not a moment: no time zone may move it), and switches the account off. Searching,
 * filtering, the devices and the export are tested in Chromium (app-users.spec.ts); each engine
 * works on an app user of its own (tests/e2e/users.ts `appUserRows`).
 */
import { appUserRows, users } from '../users.ts';
import { DESKTOP, expect, hydrate, logInOnTheWayTo, test, until } from './fixtures.ts';

test('an editor changes an app user’s name and birth day and disables them; the email stays read-only', async ({
  openTab,
  engine,
}) => {
  test.setTimeout(120_000);
  const lang = engine === 'webkit' ? 'en' : 'zh-hk';
  const person = engine === 'webkit' ? appUserRows.webkit : appUserRows.firefox;
  const page = `/${lang}/admin/appUsers/edit/${person._id}`;
  const tab = await openTab(DESKTOP);
  await logInOnTheWayTo(tab, page, users.editor);
  await until(
    tab,
    'the app user’s page shows',
    (path) => window.location.pathname === path && document.querySelector('#field-name') !== null,
    page,
  );
  await hydrate(tab);

  // The email shows, read-only; neither it nor the password has a box.
  expect(
    await tab.evaluate(
      (email) =>
        document.querySelector('#field-email') === null &&
        document.querySelector('#field-password') === null &&
        (document.querySelector('[data-testid="record-readonly"]')?.textContent ?? '').includes(email),
      person.email,
    ),
  ).toBe(true);
  expect(await tab.evaluate(() => document.querySelector<HTMLInputElement>('#field-date')?.value)).toBe(
    person.birthDay,
  );

  await tab.fill('#field-name', `${person.name} (${engine})`);
  // The day is set as a date picker sets it (the value, then input and change): typing into a date
  // box goes by the engine's own locale's order of day, month and year.
  await tab.evaluate(() => {
    const box = document.querySelector<HTMLInputElement>('#field-date');
    if (!box) throw new Error('no date box');
    box.focus();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(box, '1990-05-17');
    box.dispatchEvent(new Event('input', { bubbles: true }));
    box.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await tab.click('#field-disabledAt');
  await until(
    tab,
    'the switch is on',
    () => document.querySelector<HTMLInputElement>('#field-disabledAt')?.checked === true,
  );
  await tab.click('[data-testid="editor-save"]');
  await until(
    tab,
    'the change is saved',
    (path) => window.location.pathname === path && document.querySelector('[data-testid="snackbar-success"]') !== null,
    `/${lang}/admin/appUsers`,
  );

  // Opened again: the same day, the new name, the account off since today.
  await tab.goto(page);
  await hydrate(tab);
  await until(
    tab,
    'the page shows the day as typed, the name, and the switch on',
    (name) =>
      document.querySelector<HTMLInputElement>('#field-date')?.value === '1990-05-17' &&
      document.querySelector<HTMLInputElement>('#field-name')?.value === name &&
      document.querySelector<HTMLInputElement>('#field-disabledAt')?.checked === true,
    `${person.name} (${engine})`,
  );
});
