/**
 * The portal's apps in WebKit and Firefox (decision 030): signed in from the app's own address, a
 * member registers a kitchen screen on a phone, sees its pairing code, and removes it after the
 * confirmation. Renaming, refusals and other members are tested in Chromium (apps.spec.ts); each
 * engine has a member of its own.
 */
import { PAIRING_CODE_PATTERN } from '../../../domain/apps/devices.ts';
import { appsMembers } from '../users.ts';
import { expect, hydrate, logInOnTheWayTo, PHONE, test, until } from './fixtures.ts';

const REMOVED = { en: 'The device was removed.', 'zh-cn': '已移除设备。' } as const;

test('a member registers a kitchen screen on a phone, sees its pairing code and removes it', async ({
  openTab,
  engine,
}) => {
  test.setTimeout(120_000);
  const lang = engine === 'webkit' ? 'en' : 'zh-cn';
  const member = engine === 'webkit' ? appsMembers.webkit : appsMembers.firefox;
  const appPath = `/${lang}/portal/apps/kds`;
  const tab = await openTab(PHONE);
  await logInOnTheWayTo(tab, appPath, member);
  await until(
    tab,
    'the member reaches the app',
    (path) => window.location.pathname === path && document.querySelector('[data-testid="register-form"]') !== null,
    appPath,
  );
  await hydrate(tab);

  await tab.fill('[data-testid="register-name"]', `Pass ${engine}`);
  await tab.click('[data-testid="register-submit"]');
  await until(tab, 'the screen is registered', () => document.querySelector('[data-testid="pairing-code"]') !== null);
  const code = await tab.evaluate(() => document.querySelector('[data-testid="pairing-code"]')?.textContent ?? '');
  expect(code).toMatch(PAIRING_CODE_PATTERN);
  expect(await tab.evaluate(() => document.querySelector('[data-testid="device-name"]')?.textContent ?? '')).toBe(
    `Pass ${engine}`,
  );

  await hydrate(tab);
  await tab.click('[data-testid="device-remove"]');
  await until(tab, 'the removal is asked', () => document.querySelector('[data-testid="remove-yes"]') !== null);
  await tab.click('[data-testid="remove-yes"]');
  await until(
    tab,
    'the screen is removed',
    (text) => document.querySelector('[data-testid="device-removed"]')?.textContent === text,
    REMOVED[lang],
  );
  expect(await tab.evaluate(() => document.querySelector('[data-testid="devices-none"]') !== null)).toBe(true);
});
