/**
 * The news editor in WebKit and Firefox (decision 056): an editor writes an item with its event
 * (a rich text, a reference, a checkbox and times to the minute in Hong Kong time) and finds it
 * saved as written when it is opened again. Publishing and registrations are tested in Chromium
 * (news.spec.ts); each engine writes a draft of its own, which no list of the apps shows.
 */
import { users } from '../users.ts';
import { DESKTOP, hydrate, logInOnTheWayTo, test, until } from './fixtures.ts';

test('an editor writes a news item with an event, and it is saved as written', async ({ openTab, engine }) => {
  test.setTimeout(120_000);
  const title = `Event written in ${engine} ${Date.now()}`;
  const tab = await openTab(DESKTOP);
  await logInOnTheWayTo(tab, '/en/admin/news/new', users.editor);
  await until(tab, 'the editor shows', () => document.querySelector('[data-testid="rich-v.content.en"]') !== null);
  await hydrate(tab);
  await tab.fill('#field-title-en', title);
  await tab.click('[data-testid="rich-v.content.en"]');
  await tab.type('Tea, talks and a tour of the kitchen.');
  await tab.select('#field-region', 'hk');
  await tab.fill('#field-category', 'Even');
  await until(
    tab,
    'the category is offered',
    () => document.querySelectorAll('[data-testid="reference-category"] [role="option"]').length === 1,
  );
  await tab.press('ArrowDown');
  await tab.press('Enter');
  await until(
    tab,
    'the category is chosen',
    () => document.querySelector<HTMLInputElement>('input[name="v.category"]')?.value === 'events',
  );
  await tab.select('#field-status', 'draft');
  await tab.click('#field-hasEvent');
  await tab.fill('#field-eventTitle-en', `Open kitchen, ${engine}`);
  // The times as a date picker sets them (each engine draws its own picker; typing into it differs).
  await tab.evaluate(
    (values: Record<string, string>) => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
      for (const [id, value] of Object.entries(values)) {
        const input = document.querySelector<HTMLInputElement>(`#${id}`);
        if (!input || !setValue) return false;
        setValue.call(input, value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }
      return true;
    },
    { 'field-eventStartDate': '2030-07-01T19:30', 'field-eventEndDate': '2030-07-01T21:00' },
  );
  await tab.select('#field-eventLocation', 'canada');
  await tab.fill('#field-eventCapacity', '30');
  await tab.click('[data-testid="editor-save"]');
  await until(
    tab,
    'the item is saved',
    () =>
      window.location.pathname === '/en/admin/news' &&
      document.querySelector('[data-testid="snackbar-success"]') !== null,
  );

  // Found in the table and opened again: the editor shows the event as written.
  await tab.goto(`/en/admin/news?q=${encodeURIComponent(title)}`);
  await hydrate(tab);
  await until(
    tab,
    'the table lists the item',
    () => document.querySelectorAll('[data-testid="admin-row"]').length === 1,
  );
  await tab.click('[data-testid="row-edit"]');
  await until(tab, 'the editor shows the event as written', () => {
    const value = (css: string) => document.querySelector<HTMLInputElement | HTMLSelectElement>(css)?.value;
    return (
      document.querySelector<HTMLInputElement>('#field-hasEvent')?.checked === true &&
      value('#field-eventStartDate') === '2030-07-01T19:30' &&
      value('#field-eventEndDate') === '2030-07-01T21:00' &&
      value('#field-eventLocation') === 'canada' &&
      value('#field-eventCapacity') === '30' &&
      document.querySelector('[data-testid="rich-v.content.en"]')?.textContent ===
        'Tea, talks and a tour of the kitchen.'
    );
  });
});
