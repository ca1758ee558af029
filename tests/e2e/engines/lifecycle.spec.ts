/**
 * Stopping a plan and keeping it, in WebKit and Firefox (decision 031): the confirmation is a
 * modal `<dialog>`, which older Safari opened only from 15.4 on; the member opens it on a phone,
 * confirms, sees the day the plan stops, and keeps the plan. The rules and the card page are
 * tested in Chromium (lifecycle.spec.ts); each engine signs in as a member of its own.
 */
import { lifecycleMembers } from '../users.ts';
import { expect, hydrate, logInOnTheWayTo, PHONE, test, until } from './fixtures.ts';

const TEXT = {
  en: { stopping: 'Your plan stops on', active: 'Active' },
  'zh-hk': { stopping: '你的方案將於', active: '使用中' },
} as const;

test('a member stops the plan in the confirmation dialog, then keeps it', async ({ openTab, engine }) => {
  test.setTimeout(120_000);
  const lang = engine === 'webkit' ? 'en' : 'zh-hk';
  const member = engine === 'webkit' ? lifecycleMembers.webkit : lifecycleMembers.firefox;
  const tab = await openTab(PHONE);
  await logInOnTheWayTo(tab, `/${lang}/portal/plan`, member);
  await until(
    tab,
    'the member reaches their plan',
    (path) => window.location.pathname === path && document.querySelector('[data-testid="plan-stop"]') !== null,
    `/${lang}/portal/plan`,
  );
  await hydrate(tab);

  await tab.click('[data-testid="plan-stop-open"]');
  await until(
    tab,
    'the dialog opens',
    () => document.querySelector<HTMLDialogElement>('[data-testid="plan-stop-dialog"]')?.open === true,
  );
  await tab.click('[data-testid="plan-stop-confirm"]');
  await until(
    tab,
    'the plan is stopping',
    (text) => document.querySelector('[data-testid="plan-stopping"]')?.textContent?.includes(text) === true,
    TEXT[lang].stopping,
  );
  await tab.click('[data-testid="plan-resume"]');
  await until(
    tab,
    'the plan is kept',
    (text) => document.querySelector('[data-testid="plan-status"]')?.textContent === text,
    TEXT[lang].active,
  );
  expect(await tab.evaluate(() => document.querySelector('[data-testid="plan-stop"]') !== null)).toBe(true);
});
