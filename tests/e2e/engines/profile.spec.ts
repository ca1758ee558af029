/**
 * The member's profile page in WebKit and Firefox (decision 025): signed in from the page's own
 * address, the member changes their company's name on a phone and sees it saved, and the page
 * read again shows it. The rules and the password and picture parts are tested in Chromium
 * (profile.spec.ts); each engine signs in as a member of its own.
 */
import { upgradeMembers } from '../users.ts';
import { expect, hydrate, logInOnTheWayTo, PHONE, test, until } from './fixtures.ts';

const SAVED = { en: 'Your details have been saved.', 'zh-cn': '您的资料已保存。' } as const;

test('a member changes their details on a phone and sees them saved', async ({ openTab, engine }) => {
  test.setTimeout(120_000);
  const lang = engine === 'webkit' ? 'en' : 'zh-cn';
  const member = engine === 'webkit' ? upgradeMembers.webkit : upgradeMembers.firefox;
  const company = `${member.name} Kitchen ${engine}`;
  const tab = await openTab(PHONE);
  await logInOnTheWayTo(tab, `/${lang}/portal/profile`, member);
  await until(
    tab,
    'the member reaches their profile',
    (path) => window.location.pathname === path && document.querySelector('[data-testid="profile-form"]') !== null,
    `/${lang}/portal/profile`,
  );
  await hydrate(tab);

  await tab.fill('#profile-companyName', company);
  await tab.click('[data-testid="profile-submit"]');
  await until(
    tab,
    'the details are saved',
    (text) => document.querySelector('[data-testid="profile-saved"]')?.textContent === text,
    SAVED[lang],
  );

  await tab.goto(`/${lang}/portal/profile`);
  await hydrate(tab);
  expect(await tab.evaluate(() => document.querySelector<HTMLInputElement>('#profile-companyName')?.value ?? '')).toBe(
    company,
  );
});
