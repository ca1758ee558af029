/**
 * Ending a plan inside its minimum term, in WebKit and Firefox (decision 044): the confirmation is
 * a modal `<dialog>`; a card on file that cannot be charged changes nothing and leads to the card
 * page, where a new card goes in through the sandbox's frame; then the fee is charged and the plan
 * ends. The amounts, the invoice and `/plan/{id}` are tested in Chromium (termination.spec.ts);
 * each engine signs in as a member of its own.
 */
import { terminationMembers } from '../users.ts';
import { expect, hydrate, logInOnTheWayTo, PHONE, test, until } from './fixtures.ts';

const TEXT = {
  en: { refused: 'Your plan was not ended.', saved: 'Your new card is saved.', ended: 'Your plan has ended.' },
  'zh-hk': { refused: '你的方案未有結束。', saved: '新信用卡已儲存。', ended: '你的方案已結束。' },
} as const;

test('a Flexi member ends the plan now, after putting in a card the fee can be charged to', async ({
  openTab,
  engine,
}) => {
  test.setTimeout(180_000);
  const lang = engine === 'webkit' ? 'en' : 'zh-hk';
  const member = engine === 'webkit' ? terminationMembers.webkit : terminationMembers.firefox;
  const text = TEXT[lang];
  const tab = await openTab(PHONE);
  await logInOnTheWayTo(tab, `/${lang}/portal/plan`, member);
  await until(
    tab,
    'the member reaches their plan',
    (path) => window.location.pathname === path && document.querySelector('[data-testid="terminate-open"]') !== null,
    `/${lang}/portal/plan`,
  );
  await hydrate(tab);

  // The demo card on file is held by no gateway: nothing is charged, and the page says where to go.
  await tab.click('[data-testid="terminate-open"]');
  await until(
    tab,
    'the dialog opens',
    () => document.querySelector<HTMLDialogElement>('[data-testid="terminate-dialog"]')?.open === true,
  );
  await tab.click('[data-testid="terminate-confirm"]');
  await until(
    tab,
    'the plan is not ended',
    (refused) => document.querySelector('[data-testid="terminate-error"]')?.textContent?.includes(refused) === true,
    text.refused,
  );
  expect(
    await tab.evaluate(
      () => document.querySelector<HTMLDialogElement>('[data-testid="terminate-dialog"]')?.open ?? false,
    ),
  ).toBe(false);

  // Another card through the sandbox's frame.
  await tab.click('[data-testid="terminate-change-card"]');
  await until(
    tab,
    'the card frame is ready',
    (path) =>
      window.location.pathname === path &&
      document.querySelector('[data-testid="card-frame"]')?.getAttribute('data-ready') === 'true',
    `/${lang}/portal/card`,
  );
  await hydrate(tab);
  await tab.fillInFrame('[data-testid="card-frame"]', '#number', '4242424242424242');
  await tab.fillInFrame('[data-testid="card-frame"]', '#expiry', '1234');
  await tab.fillInFrame('[data-testid="card-frame"]', '#cvc', '123');
  await until(
    tab,
    'the frame holds a whole card',
    () => document.querySelector('[data-testid="card-frame"]')?.getAttribute('data-complete') === 'true',
  );
  await tab.click('[data-testid="card-save"]');
  await until(
    tab,
    'the card is saved',
    (saved) => [...document.querySelectorAll('[role="status"]')].some((status) => status.textContent?.includes(saved)),
    text.saved,
  );

  // Now the fee is charged and the plan ends at once.
  await tab.goto(`/${lang}/portal/plan`);
  await hydrate(tab);
  await tab.click('[data-testid="terminate-open"]');
  await until(
    tab,
    'the dialog opens again',
    () => document.querySelector<HTMLDialogElement>('[data-testid="terminate-dialog"]')?.open === true,
  );
  await tab.click('[data-testid="terminate-confirm"]');
  await until(
    tab,
    'the plan has ended',
    (ended) => [...document.querySelectorAll('[role="status"]')].some((status) => status.textContent?.includes(ended)),
    text.ended,
  );
  await until(tab, 'the plan shows as ended', () => document.querySelector('[data-testid="plan-ended"]') !== null);
  expect(await tab.evaluate(() => document.querySelector('[data-testid="plan-terminate"]') === null)).toBe(true);
});
