import { readFile } from 'node:fs/promises';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { users } from './users.ts';

/*
 * The apps' news in the back office (decision 056): staff write an item with an event and publish
 * it, with a push notification and a Facebook post (decision 059), which its page shows; an app
 * user registers through the API as the apps do; staff find the registrant under the item and
 * export the list (registrants are personal data: an admin's export).
 */

test.use({ colorScheme: 'light' });

test('staff publish a news item with an event, an app user registers, staff see and export the registrant', async ({
  page,
  login,
  request,
}) => {
  test.slow();
  const title = `Menu engineering workshop ${Date.now()}`;
  await login(users.admin);
  await page.goto('/en/admin');
  await expect(page.getByTestId('admin-menu-news')).toHaveText('News');
  await expect(page.getByTestId('admin-menu-eventRegistrations')).toHaveText('Event registrations');
  await expect(page.getByTestId('admin-menu-categories')).toHaveText('Categories');

  await page.goto('/en/admin/news/new');
  await hydrated(page);
  await page.locator('#field-title-en').fill(title);
  await page.locator('#field-title-tab-zh-hk').click();
  await page.locator('#field-title-zh-hk').fill('餐牌設計工作坊');
  await page.getByTestId('rich-v.content.en').click();
  await page.keyboard.type('Two hours on pricing a menu that sells.');
  await page.locator('#field-region').selectOption('hk');
  const category = page.getByRole('combobox', { name: 'Category' });
  await category.fill('Even');
  await page.getByTestId('reference-category').getByRole('option', { name: 'Events' }).click();
  await expect(page.locator('input[name="v.category"]')).toHaveValue('events');
  await page.locator('#field-top').check();
  await page.locator('#field-status').selectOption('published');
  // The event, in Hong Kong time to the minute.
  await page.locator('#field-hasEvent').check();
  await page.locator('#field-eventTitle-en').fill('Menu engineering, Kwun Tong');
  await page.locator('#field-eventStartDate').fill('2030-06-01T10:00');
  await page.locator('#field-eventEndDate').fill('2030-06-01T12:00');
  await page.locator('#field-eventClosesAt').fill('2030-05-30T18:00');
  await page.locator('#field-eventLocation').selectOption('hk');
  await page.locator('#field-eventRegion').fill('Kwun Tong');
  await page.locator('#field-eventCapacity').fill('20');
  // Sent once it is published: a push message to Hong Kong's devices, a post on Facebook (decision 059).
  await page.locator('#field-sendNotification').check();
  await page.locator('#field-postToFacebook').check();
  await page.getByTestId('editor-save').click();
  await expect(page).toHaveURL(/\/en\/admin\/news$/);
  await expect(page.getByTestId('snackbar-success')).toContainText('Created.');

  const headers = await staffHeaders(request);
  const found = (await (await request.get(`/api/news?$limit=5&$sort[createdAt]=-1`, { headers })).json()) as {
    data: { _id: string; title: { en: string }; eventStartDate: string; status: string }[];
  };
  const item = found.data.find((candidate) => candidate.title.en === title)!;
  expect(item.status).toBe('published');
  expect(new Date(item.eventStartDate).toISOString()).toBe('2030-06-01T02:00:00.000Z');

  // Its page lists its push message, which the push area has too, and links to its post on Facebook.
  await page.goto(`/en/admin/news/edit/${item._id}`);
  await hydrated(page);
  await expect(page.getByTestId('related-pushMessages').getByTestId('related-row')).toContainText([title]);
  await expect(async () => {
    await page.reload();
    const post = page.getByTestId('link-facebookPostId');
    await expect(post).toHaveAttribute('href', /^https:\/\/www\.facebook\.com\/local_\d+$/, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await page.goto(`/en/admin/pushMessages?f.news=${item._id}`);
  await expect(page.getByTestId('admin-row').locator('[data-column="title"]')).toHaveText([title]);
  // The page the post links to, for whoever has not the app.
  await page.goto(`/en/news/${item._id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByTestId('news-event')).toContainText('Kwun Tong, Hong Kong');

  // An app user of the apps signs up, signs in and registers, as the apps do.
  const email = `news-e2e-${Date.now()}@example.test`;
  const signUp = await request.post('/api/appUsers', {
    data: { name: 'Lam Ka Yan', email, password: 'Kowloon2026' },
  });
  expect(signUp.status(), await signUp.text()).toBe(201);
  const signIn = await request.post('/api/appAuthentication', {
    data: { strategy: 'local', email, password: 'Kowloon2026' },
  });
  const { accessToken } = (await signIn.json()) as { accessToken: string };
  const app = { authorization: `Bearer ${accessToken}` };
  // The apps read the item, pinned first in its region.
  const list = (await (await request.get('/api/news?region=hk&$limit=5', { headers: app })).json()) as {
    data: { _id: string }[];
  };
  expect(list.data.map((entry) => entry._id)).toContain(item._id);
  const registered = await request.post('/api/eventRegistrations', { data: { news: item._id }, headers: app });
  expect(registered.status(), await registered.text()).toBe(201);

  // Staff see the registrant under the item, and the count on the item.
  await page.goto(`/en/admin/eventRegistrations?f.news=${item._id}`);
  await hydrated(page);
  const emails = page.getByTestId('admin-row').locator('[data-column="email"]');
  await expect(emails).toHaveText([email]);
  await expect(page.getByTestId('admin-row').locator('[data-column="name"]')).toHaveText(['Lam Ka Yan']);

  // And export them.
  await page.getByTestId('admin-export').click();
  const dialog = page.getByTestId('export-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('export-format-csv').check();
  await dialog.getByTestId('export-start').click();
  const link = dialog.getByTestId('export-download');
  await expect(link).toBeVisible({ timeout: 30_000 });
  const download = page.waitForEvent('download');
  await link.click();
  const text = (await readFile(await (await download).path())).toString('utf8');
  expect(text).toContain(email);
  expect(text).toContain('Lam Ka Yan');
});
