import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readExportPosts } from '../../domain/facebook/posts.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { users } from './users.ts';

/*
 * The Facebook import in the back office (decision 060): staff upload the page's export (the
 * sample in tests/fixtures/facebook), watch the job finish live, open the draft news it added;
 * the same export again adds nothing.
 */

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/facebook');

test.use({ colorScheme: 'light' });

test('staff import the page’s export as draft news, and importing it again skips every post', async ({
  page,
  login,
  request,
}) => {
  test.slow();
  // The sample's posts, removed if an earlier run against this database imported them.
  const posts = readExportPosts(await readFile(path.join(FIXTURE, 'posts/your_posts_1.json'), 'utf8'));
  const headers = await staffHeaders(request);
  const query = posts.map((post) => `facebookSourceId[$in][]=${encodeURIComponent(post.sourceId)}`).join('&');
  const earlier = (await (await request.get(`/api/news?${query}&$limit=50`, { headers })).json()) as {
    data: { _id: string }[];
  };
  for (const item of earlier.data)
    expect((await request.delete(`/api/news/${item._id}`, { headers })).status()).toBe(200);

  await login(users.admin);
  await page.goto('/en/admin');
  await expect(page.getByTestId('admin-menu-facebook')).toHaveText('Facebook import');
  await page.goto('/en/admin/facebook');
  await hydrated(page);
  await expect(page.getByTestId('admin-heading')).toHaveText('Facebook import');
  await page.getByTestId('admin-upload').click();
  const panel = page.getByTestId('facebook-import');
  await expect(panel.getByRole('heading')).toHaveText('Import the Facebook page’s posts as draft news');
  await panel.getByLabel('Export file').setInputFiles(path.join(FIXTURE, 'page-export.zip'));
  await panel.getByLabel('Region of the news').selectOption('hk');
  await panel.getByTestId('facebook-start').click();
  // The job's progress, live, to its end.
  await expect(panel.getByTestId('facebook-status')).toHaveText('Done: 5 added, 0 skipped, 0 failed.', {
    timeout: 60_000,
  });
  await expect(panel.getByTestId('facebook-progress')).toHaveAttribute('value', '5');
  await expect(panel.getByTestId('facebook-progress')).toHaveAttribute('max', '5');
  // The import is on the table below, with its counts.
  const row = page.locator('tbody tr', { hasText: 'page-export.zip' }).first();
  await expect(row).toContainText('Done');

  // The draft news it added, in the news table filtered by the import.
  await panel.getByTestId('facebook-added').click();
  await expect(page).toHaveURL(/\/en\/admin\/news\?f\.facebookImport=/);
  await hydrated(page);
  const news = page.locator('tbody');
  await expect(news.locator('tr')).toHaveCount(5);
  await expect(news).toContainText('Happy New Year from all of us at Tillpoint!');
  await expect(news).toContainText('Photos from our stand at the Retail Asia Expo.');
  await expect(news).toContainText('新店開幕優惠');
  // Facebook's escaped text, read back as the Chinese it is.
  await expect(news).toContainText('我們的新收銀系統已經上線！');
  await expect(news).toContainText('Draft');
  await expect(news).not.toContainText('Published');

  // The same export again: every post is known.
  await page.goto('/en/admin/facebook');
  await hydrated(page);
  await page.getByTestId('admin-upload').click();
  await panel.getByLabel('Export file').setInputFiles(path.join(FIXTURE, 'page-export.zip'));
  await panel.getByTestId('facebook-start').click();
  await expect(panel.getByTestId('facebook-status')).toHaveText('Done: 0 added, 5 skipped, 0 failed.', {
    timeout: 60_000,
  });
  await expect(panel.getByTestId('facebook-added')).toHaveCount(0);
  const after = (await (await request.get(`/api/news?${query}&$limit=50`, { headers })).json()) as {
    data: unknown[];
  };
  expect(after.data).toHaveLength(5);
});
