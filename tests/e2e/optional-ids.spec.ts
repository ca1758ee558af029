import { expect, test } from './fixtures.ts';
import { users } from './users.ts';

/*
 * `/done/{id?}` and `/plan/{id?}` without their id (spec, pages): a member is taken to their own
 * latest order or plan, a visitor to the plans or to signing in first.
 */

test('without an id, /plan shows a visitor the plans to choose from and a member their own plan', async ({
  page,
  login,
}) => {
  await page.goto('/en/plan');
  await expect(page).toHaveURL(/\/en\/pricing$/);

  await login(users.monthly);
  await page.goto('/zh-hk/plan');
  await expect(page).toHaveURL(/\/zh-hk\/portal\/plan$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('without an id, /done asks a visitor to sign in, then shows the member their latest order', async ({
  page,
  request,
  login,
}) => {
  await page.goto('/en/done');
  await expect(page).toHaveURL(/\/en\/login\?from=%2Fen%2Fdone$/);

  // The member's latest order, read as they would through the API.
  const signedIn = await request.post('/api/authentication', {
    data: { strategy: 'local', email: users.prepaid.email, password: users.prepaid.password },
  });
  const { accessToken, user } = (await signedIn.json()) as { accessToken: string; user: { _id: string } };
  const orders = await request.get(`/api/orders?user=${user._id}&$sort[createdAt]=-1&$sort[_id]=-1&$limit=1`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const latest = ((await orders.json()) as { data: { _id: string; number: string }[] }).data[0];
  expect(latest).toBeDefined();

  await login(users.prepaid);
  await page.goto('/en/done');
  await expect(page).toHaveURL(new RegExp(`/en/done/${latest?._id}$`));
  await expect(page.getByTestId('done-number')).toHaveText(latest?.number ?? '');
});

test('without an id, /done takes a member who has ordered nothing to their dashboard', async ({ page, login }) => {
  await login(users.owner);
  await page.goto('/zh-cn/done');
  await expect(page).toHaveURL(/\/zh-cn\/portal$/);
  await expect(page.getByTestId('no-subscription')).toBeVisible();
});
