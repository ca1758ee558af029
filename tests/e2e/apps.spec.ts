import type { APIRequestContext } from '@playwright/test';
import { PAIRING_CODE_PATTERN } from '../../domain/apps/devices.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { appsMembers, users, type DemoUser } from './users.ts';

/*
 * The portal's apps (decision 030), as a member uses them: the grid of the plan's apps, an
 * included one opened, a device registered (its pairing code shown), renamed and removed; an add-on
 * the plan could add leading into the upgrade with it chosen; and another member's device not
 * found. Each test has a member of its own (tests/e2e/users.ts), so no other spec sees its devices.
 */

async function tokenOf(request: APIRequestContext, user: DemoUser): Promise<string> {
  const login = await request.post('/api/authentication', {
    data: { strategy: 'local', email: user.email, password: user.password },
  });
  expect(login.status()).toBe(201);
  return ((await login.json()) as { accessToken: string }).accessToken;
}

async function moduleId(request: APIRequestContext, key: string): Promise<string> {
  const found = (await (await request.get(`/api/modules?key=${key}`)).json()) as { data: { _id: string }[] };
  const module = found.data[0];
  if (!module) throw new Error(`no module ${key}`);
  return module._id;
}

test.describe('the portal’s apps', () => {
  // A refused name is a 400; a removed device's address, and another member's, are the not-found page.
  test.use({ colorScheme: 'light', allowedConsoleErrors: [/status of (400|404)/] });

  test('a member opens an included app, registers a kitchen screen, renames it and removes it; an add-on leads to the upgrade', async ({
    page,
    login,
    request,
  }) => {
    test.setTimeout(120_000);
    await login(appsMembers.en);
    await page.goto('/en/portal');
    await hydrated(page);
    await page.getByTestId('portal-nav-apps').click();
    await expect(page).toHaveURL('/en/portal/apps');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Apps');

    // The plan's kitchen display is included and active.
    const kdsCard = page.locator('[data-testid="app-card"][data-app="kds"]');
    await expect(kdsCard).toHaveAttribute('data-status', 'active');
    await expect(kdsCard.getByTestId('app-status')).toHaveText('Active');
    await expect(kdsCard).toContainText('Included in your plan');
    await kdsCard.getByTestId('app-open').click();
    await expect(page).toHaveURL('/en/portal/apps/kds');
    await hydrated(page);
    await expect(page.getByTestId('setup-steps').locator('li')).toHaveCount(5);
    await expect(page.getByTestId('setup-steps')).toContainText('Install Tillpoint KDS');
    // The downloads lead off the site (placeholders until the real listings are published).
    for (const href of await page
      .getByTestId('download')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))) {
      expect(new URL(href).origin).not.toBe(new URL(page.url()).origin);
    }
    await expect(page.getByTestId('devices-none')).toBeVisible();
    await expect(page.getByTestId('devices-limit')).toHaveText('0 of 1 registered');

    // A name is needed; the server's message shows by the field.
    await page.getByTestId('register-submit').click();
    await expect(page.getByTestId('error-device-name')).toHaveText('Required');
    await expect(page.getByTestId('register-name')).toBeFocused();

    await page.getByTestId('register-name').fill('  Hot kitchen ');
    await page.getByTestId('register-submit').click();
    await expect(page).toHaveURL(/\/en\/portal\/apps\/kds\/[A-Za-z0-9_-]+\?registered=1$/);
    await expect(page.getByTestId('device-registered')).toBeVisible();
    await expect(page.getByTestId('device-name')).toHaveText('Hot kitchen');
    await expect(page.getByTestId('pairing-code')).toHaveText(PAIRING_CODE_PATTERN);
    await expect(page.getByTestId('detail-status')).toHaveText('Waiting for pairing');
    await expect(page.getByTestId('detail-last-seen')).toHaveText('Never');
    const deviceUrl = new URL(page.url()).pathname;

    await hydrated(page);
    await page.getByTestId('rename-name').fill('Wok station');
    await page.getByTestId('rename-submit').click();
    await expect(page.getByTestId('device-renamed')).toHaveText('The name has been saved.');
    await expect(page.getByTestId('device-name')).toHaveText('Wok station');
    // A change made elsewhere (the app renaming it through the API) reads the page again; the
    // confirmation of the member's own save stays until they leave the page.
    const deviceId = deviceUrl.split('/').pop() ?? '';
    const renamedElsewhere = await request.patch(`/api/devices/${deviceId}`, {
      headers: { authorization: `Bearer ${await tokenOf(request, appsMembers.en)}` },
      data: { name: 'Wok station 2' },
    });
    expect(renamedElsewhere.status()).toBe(200);
    await expect(page.getByTestId('device-name')).toHaveText('Wok station 2');
    await expect(page.getByTestId('device-renamed')).toHaveText('The name has been saved.');

    // Back on the app: one screen on the plan, and it is registered.
    await page.getByTestId('app-back').click();
    await expect(page).toHaveURL('/en/portal/apps/kds');
    await expect(page.getByTestId('device')).toHaveCount(1);
    await expect(page.getByTestId('device-open')).toHaveText('Wok station 2');
    await expect(page.getByTestId('devices-full')).toBeVisible();
    await expect(page.getByTestId('register-form')).toHaveCount(0);

    // Removing asks first; cancelling keeps it.
    await page.getByTestId('device-remove').click();
    await expect(page.getByTestId('remove-confirm')).toContainText('Remove “Wok station 2”?');
    await page.getByTestId('remove-cancel').click();
    await expect(page.getByTestId('remove-confirm')).toHaveCount(0);
    await page.getByTestId('device-remove').click();
    await page.getByTestId('remove-yes').click();
    await expect(page).toHaveURL('/en/portal/apps/kds?removed=1');
    await expect(page.getByTestId('device-removed')).toHaveText('The device was removed.');
    await expect(page.getByTestId('devices-none')).toBeVisible();
    expect((await page.goto(deviceUrl))?.status()).toBe(404);

    // An add-on the plan could add: what it does, its price, and the upgrade with it chosen.
    await page.goto('/en/portal/apps');
    await hydrated(page);
    const shop = page.locator('[data-testid="offered-card"][data-app="online-shop"]');
    await expect(shop.getByTestId('offered-price')).toHaveText('HK$488 / month');
    const subscriptions = (await (
      await request.get('/api/subscriptions', {
        headers: { authorization: `Bearer ${await tokenOf(request, appsMembers.en)}` },
      })
    ).json()) as {
      data: { _id: string }[];
    };
    const subscription = subscriptions.data[0]?._id;
    const shopId = await moduleId(request, 'online-shop');
    await shop.getByTestId('offered-add').click();
    await expect(page).toHaveURL(`/en/upgrade/${subscription}?add=${shopId}`);
    await hydrated(page);
    await expect(page.getByTestId('add-on-online-shop')).toHaveAttribute('data-chosen', 'true');

    // Its own page says what it does, and leads there too.
    await page.goto('/en/portal/apps/online-shop');
    await expect(page.getByTestId('app-page')).toHaveAttribute('data-state', 'offered');
    await expect(page.getByTestId('app-description')).toContainText('branded web shop');
    await expect(page.getByTestId('app-add')).toHaveAttribute('href', `/en/upgrade/${subscription}?add=${shopId}`);
  });

  test('in Traditional Chinese, inside the company’s apps (?sso): a kiosk registered, refused names, renamed and removed', async ({
    page,
    login,
  }) => {
    test.setTimeout(120_000);
    await login(appsMembers.zhHk);
    await page.goto('/zh-hk/portal/apps?sso');
    await hydrated(page);
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.locator('[data-testid="app-card"][data-app="kiosk-self-order"]')).toContainText('共 2 部');
    await page.locator('[data-testid="app-card"][data-app="kiosk-self-order"] [data-testid="app-open"]').click();
    await expect(page).toHaveURL('/zh-hk/portal/apps/kiosk-self-order?sso');
    await hydrated(page);
    await expect(page.getByTestId('setup-steps')).toContainText('安裝 Tillpoint Kiosk');

    await page.getByTestId('register-name').fill('x'.repeat(61));
    // The browser stops at 60 characters; the server is asked with one more all the same.
    await page.getByTestId('register-name').evaluate((input: HTMLInputElement) => {
      input.removeAttribute('maxlength');
      input.value = 'x'.repeat(61);
    });
    await page.getByTestId('register-submit').click();
    await expect(page.getByTestId('error-device-name')).toHaveText('最多 60 個字元。');

    await page.getByTestId('register-name').fill('門口自助機');
    await page.getByTestId('register-submit').click();
    await expect(page).toHaveURL(/\/zh-hk\/portal\/apps\/kiosk-self-order\/[A-Za-z0-9_-]+\?registered=1&sso$/);
    await expect(page.getByTestId('device-registered')).toHaveText('裝置已登記。請在裝置的應用程式內輸入以下配對碼。');
    await expect(page.getByTestId('pairing-code')).toHaveText(PAIRING_CODE_PATTERN);
    await expect(page.getByTestId('detail-status')).toHaveText('等待配對');

    await hydrated(page);
    await page.getByTestId('rename-name').fill('');
    await page.getByTestId('rename-submit').click();
    await expect(page.getByTestId('error-rename-name')).toHaveText('必填');
    await page.getByTestId('rename-name').fill('收銀旁自助機');
    await page.getByTestId('rename-submit').click();
    await expect(page.getByTestId('device-renamed')).toHaveText('名稱已儲存。');
    await expect(page.getByTestId('device-name')).toHaveText('收銀旁自助機');

    // Removed from its own page, asked first.
    await page.getByTestId('device-remove').click();
    await expect(page).toHaveURL(/\?remove=1&sso$/);
    await page.getByTestId('remove-yes').click();
    await expect(page).toHaveURL('/zh-hk/portal/apps/kiosk-self-order?removed=1&sso');
    await expect(page.getByTestId('device-removed')).toHaveText('已移除裝置。');
    await expect(page.getByRole('banner')).toHaveCount(0);
  });

  test.describe('another member', () => {
    test('gets the not-found page for the first one’s device, and their API does not find it', async ({
      page,
      login,
      request,
    }) => {
      const token = await tokenOf(request, appsMembers.en);
      const created = await request.post('/api/devices', {
        data: { module: await moduleId(request, 'kiosk-self-order'), name: 'Front door kiosk' },
        headers: { authorization: `Bearer ${token}` },
      });
      expect(created.status(), await created.text()).toBe(201);
      const device = (await created.json()) as { _id: string; pairingCode: string };
      try {
        await login(users.monthly);
        const response = await page.goto(`/en/portal/apps/kiosk-self-order/${device._id}`);
        expect(response?.status()).toBe(404);
        await expect(page.locator('main')).not.toContainText('Front door kiosk');
        await expect(page.locator('main')).not.toContainText(device.pairingCode);
        const theirs = await request.get(`/api/devices/${device._id}`, {
          headers: { authorization: `Bearer ${await tokenOf(request, users.monthly)}` },
        });
        expect(theirs.status()).toBe(404);
      } finally {
        await request.delete(`/api/devices/${device._id}`, { headers: { authorization: `Bearer ${token}` } });
      }
    });
  });
});
