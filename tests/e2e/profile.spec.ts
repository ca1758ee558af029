import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { pngBomb } from '../integration/upload-fixtures.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import type { DemoUser } from './users.ts';

/**
 * The member's profile page (spec section 2, "Profile"): details, the language of their mail, the
 * password, and the picture through the site's uploader. Each test has a member of its own, so a
 * changed password or picture touches no other test.
 */

// The browser logs each refused form (400) and upload (415, 422) as a console error: those are the point here.
test.use({ allowedConsoleErrors: [/status of (400|415|422)/] });

async function newMember(request: APIRequestContext, label: string): Promise<DemoUser & { _id: string }> {
  const user = {
    email: `profile-${label}-${randomBytes(4).toString('hex')}@example.test`,
    password: 'Profile-pass-1',
    name: 'Lee Siu Ming',
  };
  const response = await request.post('/api/users', {
    headers: await staffHeaders(request),
    data: { ...user, role: 'member' },
  });
  expect(response.status(), 'an admin makes the member').toBe(201);
  const { _id } = (await response.json()) as { _id: string };
  return { ...user, _id };
}

async function storedUser(request: APIRequestContext, id: string): Promise<Record<string, unknown>> {
  const response = await request.get(`/api/users/${id}`, { headers: await staffHeaders(request) });
  expect(response.status()).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** A photo-like PNG of this size, made here. */
function photo(width: number, height: number, hue: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: hue, g: 151, b: 138 } } })
    .png()
    .toBuffer();
}

async function choose(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByTestId('profile-page').locator('input[type="file"]').setInputFiles(file);
}

test('a member corrects their details after being told what is wrong, and they are kept', async ({
  page,
  login,
  request,
}) => {
  const member = await newMember(request, 'details');
  await login(member);
  await page.goto('/en/portal/profile');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
  await expect(page.getByTestId('profile-email')).toHaveText(member.email);
  await expect(page.locator('#profile-name')).toHaveValue('Lee Siu Ming');

  await page.locator('#profile-name').fill('');
  await page.locator('#profile-phone').fill('call me');
  await page.locator('#profile-companyName').fill('Siu Ming Bakery');
  await page.getByTestId('profile-submit').click();
  await expect(page.getByTestId('profile-problem')).toHaveText('Please check the highlighted fields.');
  await expect(page.getByTestId('error-profile-name')).toHaveText('Required');
  await expect(page.getByTestId('error-profile-phone')).toHaveText('Invalid phone format.');
  await expect(page.locator('#profile-name')).toBeFocused();
  // What was typed stays.
  await expect(page.locator('#profile-companyName')).toHaveValue('Siu Ming Bakery');
  expect((await storedUser(request, member._id)).companyName ?? null).toBeNull();

  await page.locator('#profile-name').fill('Siu Ming Lee');
  await page.locator('#profile-firstName').fill('Siu Ming');
  await page.locator('#profile-lastName').fill('Lee');
  await page.locator('#profile-phone').fill('+852 9123 4567');
  await page.locator('#profile-companyAddress').fill('2 Nathan Road, Kowloon');
  await page.locator('#profile-locale').selectOption('zh-hk');
  await page.getByTestId('profile-submit').click();
  await expect(page.getByTestId('profile-saved')).toHaveText('Your details have been saved.');
  // The header names the member by the new name at once.
  await expect(page.getByTestId('user-badge')).toContainText('Siu Ming Lee');

  expect(await storedUser(request, member._id)).toMatchObject({
    name: 'Siu Ming Lee',
    firstName: 'Siu Ming',
    lastName: 'Lee',
    companyName: 'Siu Ming Bakery',
    phone: '+852 9123 4567',
    companyAddress: '2 Nathan Road, Kowloon',
    locale: 'zh-hk',
  });
  await page.reload();
  // Typed into once the page is live: text typed while it hydrates can be lost.
  await hydrated(page);
  await expect(page.locator('#profile-locale')).toHaveValue('zh-hk');
  await expect(page.locator('#profile-companyAddress')).toHaveValue('2 Nathan Road, Kowloon');

  // Emptied, an optional field is cleared.
  await page.locator('#profile-companyAddress').fill('');
  await page.getByTestId('profile-submit').click();
  await expect(page.getByTestId('profile-saved')).toBeVisible();
  expect((await storedUser(request, member._id)).companyAddress).toBe('');
});

const passwordTexts = [
  {
    lang: 'zh-hk',
    heading: '更改密碼',
    mismatch: '兩次輸入的密碼不一致。',
    short: '最少 8 個字元',
    wrong: '現有密碼不正確。',
    saved: '密碼已更改，其他裝置已被登出。',
  },
  {
    lang: 'en',
    heading: 'Change password',
    mismatch: 'The passwords are inconsistent.',
    short: 'Minimum 8 characters',
    wrong: 'Your current password is not correct.',
    saved: 'Your password has been changed. Other devices have been signed out.',
  },
] as const;

for (const texts of passwordTexts) {
  test(`a member changes their password (${texts.lang}); this session stays, the others end`, async ({
    page,
    login,
    request,
  }) => {
    const member = await newMember(request, `password-${texts.lang}`);
    await login(member);
    // A session on another device, signed in before the change.
    const other = await request.post('/api/authentication', {
      data: { strategy: 'local', email: member.email, password: member.password },
    });
    const otherToken = ((await other.json()) as { accessToken: string }).accessToken;
    await page.goto(`/${texts.lang}/portal/profile`);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 2, name: texts.heading })).toBeVisible();

    const newPassword = 'Dim sum on Sunday 88';
    const change = async (current: string, next: string, again: string) => {
      await page.locator('#profile-currentPassword').fill(current);
      await page.locator('#profile-password').fill(next);
      await page.locator('#profile-passwordConfirm').fill(again);
      await page.getByTestId('password-submit').click();
    };

    await change(member.password, newPassword, 'Dim sum on Saturday 88');
    await expect(page.getByTestId('error-profile-passwordConfirm')).toHaveText(texts.mismatch);
    await change(member.password, 'short', 'short');
    await expect(page.getByTestId('error-profile-password')).toHaveText(texts.short);
    await change('Not-my-password-1', newPassword, newPassword);
    await expect(page.getByTestId('error-profile-currentPassword')).toHaveText(texts.wrong);
    // Nothing typed stays in the form after an answer.
    await expect(page.locator('#profile-currentPassword')).toHaveValue('');

    await change(member.password, newPassword, newPassword);
    await expect(page.getByTestId('password-saved')).toHaveText(texts.saved);

    // This browser is still signed in; the other device's session has ended.
    await page.goto(`/${texts.lang}/portal`);
    await expect(page).toHaveURL(new RegExp(`/${texts.lang}/portal$`));
    const otherNow = await request.get(`/api/users/${member._id}`, {
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(otherNow.status()).toBe(401);
    // The old password no longer signs in; the new one does.
    const signIn = (password: string) =>
      request.post('/api/authentication', { data: { strategy: 'local', email: member.email, password } });
    expect((await signIn(member.password)).status()).toBe(401);
    expect((await signIn(newPassword)).status()).toBe(201);
  });
}

test('a member uploads a picture with progress, replaces it, and is refused a renamed page and a decompression bomb', async ({
  page,
  login,
  request,
}) => {
  const member = await newMember(request, 'picture');
  await login(member);
  await page.goto('/en/portal/profile');
  await hydrated(page);
  await expect(page.getByTestId('profile-initial')).toHaveText('L');
  await expect(page.getByTestId('user-picture')).toHaveCount(0);

  await choose(page, { name: 'shop-front.png', mimeType: 'image/png', buffer: await photo(1600, 1200, 37) });
  const uploaded = page.getByTestId('profile-page').locator('li[data-status="success"]');
  await expect(uploaded).toHaveCount(1);
  await expect(uploaded.locator('progress')).toHaveJSProperty('value', 1);
  await expect(uploaded).toContainText('Uploaded');

  // The page and its header show the new picture, served by the users' picture address.
  const picture = page.getByTestId('profile-picture');
  await expect(picture).toBeVisible();
  const first = await picture.getAttribute('src');
  expect(first).toMatch(new RegExp(`^/api/users/pic/${member._id}\\?v=`));
  await expect(page.getByTestId('user-picture')).toHaveAttribute(
    'src',
    new RegExp(`^/api/users/pic/${member._id}\\?v=`),
  );
  // Served to its owner (the browser's session); anyone else is answered 404.
  const served = await page.request.get(first ?? '');
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toBe('image/webp');
  expect((await request.get(first ?? '')).status()).toBe(404);
  const firstId = String((await storedUser(request, member._id)).picture);

  // A second picture replaces the first, which is removed.
  await choose(page, { name: 'logo.png', mimeType: 'image/png', buffer: await photo(800, 800, 200) });
  await expect(picture).not.toHaveAttribute('src', first ?? '');
  const secondId = String((await storedUser(request, member._id)).picture);
  expect(secondId).not.toBe(firstId);
  expect((await request.get(`/api/attachments/${firstId}`, { headers: await staffHeaders(request) })).status()).toBe(
    404,
  );

  // A page renamed as a picture, and a small file that would decode to a huge image: refused, said why.
  await choose(page, {
    name: 'holiday.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<!doctype html><script>alert(1)</script>'),
  });
  const failed = page.getByTestId('profile-page').locator('li[data-status="error"]');
  await expect(failed.getByRole('alert')).toHaveText('A picture must be a JPEG, PNG, WebP or GIF image.');
  await choose(page, { name: 'tiny.png', mimeType: 'image/png', buffer: pngBomb() });
  await expect(failed.last().getByRole('alert')).toContainText('This image has too many pixels to process');
  // The picture is still the second one.
  expect((await storedUser(request, member._id)).picture).toBe(secondId);
});

test('a member replaces their picture in Traditional Chinese, shown in the header, and a renamed page is refused in their language', async ({
  page,
  login,
  request,
}) => {
  const member = await newMember(request, 'picture-zh');
  await login(member);
  await page.goto('/zh-hk/portal/profile');
  await hydrated(page);
  await choose(page, { name: '門面.png', mimeType: 'image/png', buffer: await photo(900, 900, 90) });
  const uploaded = page.getByTestId('profile-page').locator('li[data-status="success"]');
  await expect(uploaded).toHaveCount(1);
  await expect(uploaded).toContainText('已上載');
  const header = page.getByTestId('user-picture');
  await expect(header).toHaveAttribute('src', new RegExp(`^/api/users/pic/${member._id}\\?v=`));
  const first = await header.getAttribute('src');
  await choose(page, { name: '標誌.png', mimeType: 'image/png', buffer: await photo(600, 600, 160) });
  await expect(header).not.toHaveAttribute('src', first ?? '');
  await expect.poll(() => header.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await choose(page, {
    name: '假期.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<!doctype html><p>not a picture</p>'),
  });
  await expect(page.getByTestId('profile-page').locator('li[data-status="error"]').getByRole('alert')).toHaveText(
    '頭像必須是 JPEG、PNG、WebP 或 GIF 圖片。',
  );
});
