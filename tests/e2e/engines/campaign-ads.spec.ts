/**
 * The list-of-references picker in WebKit and Firefox (decision 061): on a phone's width, an
 * editor adds two ads to a new campaign by typing part of their names (one chosen with the arrow
 * key and Enter, one by a tap), takes one off with its button, and saves; the campaign holds the
 * other. Names on the table, a removed ad shown as gone and axe are tested in Chromium (ads.spec.ts).
 */
import { staffHeaders } from '../staff-api.ts';
import { users } from '../users.ts';
import { expect, hydrate, logInOnTheWayTo, PHONE, test, until } from './fixtures.ts';

test('an editor picks a campaign’s ads by name, takes one off and saves', async ({ openTab, engine, request }) => {
  test.setTimeout(120_000);
  const stamp = `${engine}-${Date.now().toString(36)}`;
  const headers = await staffHeaders(request, users.editor);
  const names = [`Tram tour ${stamp}`, `Egg tart ${stamp}`];
  const ids: string[] = [];
  for (const en of names) {
    const made = await request.post('/api/ads', { headers, data: { name: { en }, adType: 'list', status: 'draft' } });
    expect(made.status(), await made.text()).toBe(201);
    ids.push(((await made.json()) as { _id: string })._id);
  }
  const key = `e2e-refs-${stamp}`;
  const page = '/en/admin/campaigns/new';
  const tab = await openTab(PHONE);
  await logInOnTheWayTo(tab, page, users.editor);
  await until(
    tab,
    'the campaign editor shows',
    (path) => window.location.pathname === path && document.querySelector('#field-ads') !== null,
    page,
  );
  await hydrate(tab);
  await tab.fill('#field-name-en', `Old town ${stamp}`);
  await tab.fill('#field-key', key);

  const offered = (name: string) =>
    until(
      tab,
      `only ${name} is offered`,
      (wanted) => {
        const box = document.querySelector('#field-ads');
        const options = [...document.querySelectorAll('[role="listbox"] [role="option"]')];
        return (
          box?.getAttribute('aria-expanded') === 'true' &&
          box.getAttribute('aria-busy') === null &&
          options.length === 1 &&
          options[0]?.textContent?.trim() === wanted
        );
      },
      name,
    );
  const chips = (wanted: string[]) =>
    until(
      tab,
      `the chosen ads are ${wanted.join(', ')}`,
      (expected) =>
        JSON.stringify(
          [...document.querySelectorAll('[data-testid="reference-chip-label"]')].map((chip) =>
            chip.textContent?.trim(),
          ),
        ) === expected,
      JSON.stringify(wanted),
    );

  // The first by keyboard: typed, the arrow to it, Enter.
  await tab.fill('#field-ads', names[0] as string);
  await offered(names[0] as string);
  await tab.press('ArrowDown');
  await tab.press('Enter');
  await chips([names[0] as string]);
  // The second by a tap on it. Typed into the box the first left empty (a Backspace there would
  // take that one off again, as `fill` clears a box with one).
  await tab.type(names[1] as string);
  await offered(names[1] as string);
  await tab.click('[role="listbox"] [role="option"]');
  await chips(names);
  // Nothing runs off the phone's screen.
  expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // The first taken off with its button.
  await tab.click('[data-testid="reference-chip-remove"]');
  await chips([names[1] as string]);
  await tab.click('[data-testid="editor-save"]');
  await until(
    tab,
    'the campaign is saved',
    (path) => window.location.pathname === path && document.querySelector('[data-testid="snackbar-success"]') !== null,
    '/en/admin/campaigns',
  );
  const found = await request.get(`/api/campaigns?key=${key}`, { headers });
  const saved = ((await found.json()) as { data: { ads: string[] }[] }).data;
  expect(saved.map((campaign) => campaign.ads)).toEqual([[ids[1]]]);
});
