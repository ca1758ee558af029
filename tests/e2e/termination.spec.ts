import { bothThemesViolations } from './axe.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { terminationMembers, users } from './users.ts';

/*
 * Ending a plan inside its minimum term (decision 044), as the member sees it: the fee, the
 * confirmation, a card that cannot be charged changing nothing and pointing to another card, then
 * the plan ended and its invoice; and `/{locale}/plan/{id}` taking a subscription's owner, and only
 * them, to its detail.
 */

// Chromium logs the refused termination's 402 answer as a console error; here it is the expected answer.
test.use({ colorScheme: 'light', allowedConsoleErrors: [/status of 402/] });
// The test walks several pages and waits on the gateway: more than the default time on a busy machine.
test.describe.configure({ timeout: 90_000 });

test('a Flexi member ends the plan now for its fee, after putting in a card the fee can be charged to', async ({
  page,
  login,
}) => {
  await login(terminationMembers.ending);
  await page.goto('/en/portal/plan');
  await hydrated(page);
  await expect(page.getByTestId('plan-status')).toHaveText('Active');
  const fee = page.getByTestId('terminate-fee');
  await expect(fee).toContainText('To end the plan today instead of on');
  // The figure the contract terms show is the one offered and charged.
  const amount =
    ((await page.getByTestId('term-ending').textContent()) ?? '').match(
      /the rest of the term, (.+?) for 12 months/,
    )?.[1] ?? '';
  expect(amount).not.toBe('');
  await expect(fee).toContainText(
    `pay the termination fee of ${amount} (the monthly charge for the 12 months left in the term)`,
  );

  await page.getByTestId('terminate-open').click();
  const dialog = page.getByTestId('terminate-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('terminate-confirm-fee')).toHaveText(
    `A termination fee of ${amount} is charged to your card on file now, and your plan and all its functions end today. This cannot be undone.`,
  );
  expect(await bothThemesViolations(page, 'dialog[open]')).toEqual([]);
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await expect(dialog).toBeHidden();

  // The demo card on file is held by no gateway: nothing is charged, nothing changes.
  await page.getByTestId('terminate-open').click();
  await dialog.getByTestId('terminate-confirm').click();
  const error = page.getByTestId('terminate-error');
  await expect(error).toContainText('Your plan was not ended.', { timeout: 15_000 });
  await expect(error).toContainText(
    'Your card on file cannot be charged. Put in your card again, or another one, and try again.',
  );
  await expect(page.getByTestId('plan-status')).toHaveText('Active');
  expect(await bothThemesViolations(page, '[data-testid="plan-terminate"]')).toEqual([]);

  // Another card, then the fee is charged and the plan ends at once.
  await page.getByTestId('terminate-change-card').click();
  await expect(page).toHaveURL('/en/portal/card');
  await expect(page.getByTestId('card-frame')).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  const frame = page.frameLocator('[data-testid="card-frame"]');
  await frame.locator('#number').fill('4242424242424242');
  await frame.locator('#expiry').fill('1234');
  await frame.locator('#cvc').fill('123');
  await expect(page.getByTestId('card-frame')).toHaveAttribute('data-complete', 'true');
  await page.getByTestId('card-save').press('Enter');
  // The demo card shows 4242 too: the saved message tells the new one is on file.
  await expect(page.getByRole('status').filter({ hasText: 'Your new card is saved.' })).toBeVisible({
    timeout: 15_000,
  });

  await page.goto('/en/portal/plan');
  await hydrated(page);
  await page.getByTestId('terminate-open').click();
  await expect(dialog).toContainText(/Card charged: VISA ending in 4242/);
  await dialog.getByTestId('terminate-confirm').click();
  await expect(
    page.getByRole('status').filter({ hasText: `Your plan has ended. The termination fee of ${amount} was charged` }),
  ).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('plan-status')).toHaveText('Ended');
  await expect(page.getByTestId('plan-ended')).toBeVisible();
  await expect(page.getByTestId('plan-terminate')).toHaveCount(0);
  await expect(page.getByTestId('plan-stop')).toHaveCount(0);
  await expect(page.getByTestId('module-ended').first()).toHaveText('(Ended)');

  // The dashboard and the invoices say so too.
  await page.goto('/en/portal');
  await expect(page.getByTestId('lifecycle-banner')).toContainText('Your plan ended on');
  await expect(page.getByTestId('module-ended').first()).toHaveText('Ended');
  await page.goto('/en/portal/invoices');
  await expect(page.getByText('Early termination', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('12 months left in the term ×').first()).toBeVisible();
});

test('/plan/{id} takes the owner of a subscription to its detail, after signing in, and no one else', async ({
  page,
  login,
  browser,
  baseURL,
}) => {
  await login(terminationMembers.owner);
  await page.goto('/en/portal/plan');
  const id = await page.locator('input[name="subscription"]').first().inputValue();
  expect(id).toMatch(/^[A-Za-z0-9_-]+$/);

  // The owner: their plan's detail, never a page the cache keeps.
  const own = await page.goto(`/en/plan/${id}`);
  await expect(page).toHaveURL(`/en/portal/plan/${id}`);
  expect(own?.status()).toBe(200);
  expect(await own?.headerValue('cache-control')).toBe('private, no-store');
  await expect(page.getByTestId('plan-detail')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Lite plan');

  // Not signed in: asked to sign in, the address kept; twice, so a stored copy would show.
  const anonymous = await browser.newContext({ baseURL });
  try {
    const visitor = await anonymous.newPage();
    for (let time = 0; time < 2; time += 1) {
      const answer = await visitor.request.get(`/en/plan/${id}`, { maxRedirects: 0 });
      expect(answer.status()).toBe(302);
      expect(answer.headers().location).toBe(`/en/login?from=${encodeURIComponent(`/en/plan/${id}`)}`);
      expect(answer.headers()['x-page-cache']).not.toBe('hit');
      expect(await answer.text()).not.toContain(terminationMembers.owner.name);
    }
    await visitor.goto(`/en/plan/${id}`);
    await expect(visitor).toHaveURL(`/en/login?from=${encodeURIComponent(`/en/plan/${id}`)}`);
    await visitor.getByLabel('Email').fill(terminationMembers.owner.email);
    await visitor.getByLabel('Password').fill(terminationMembers.owner.password);
    await visitor.getByRole('button', { name: 'Log in' }).click();
    // Signing in hashes the password: seconds on a busy machine.
    await expect(visitor).toHaveURL(`/en/portal/plan/${id}`, { timeout: 15_000 });
    await expect(visitor.getByTestId('plan-detail')).toBeVisible();
  } finally {
    await anonymous.close();
  }

  // Another member: the same 404 as an id that is nothing, at both addresses.
  await login(users.monthly);
  for (const path of [`/en/plan/${id}`, `/en/portal/plan/${id}`, '/en/portal/plan/6b0000000000000000000000']) {
    const answer = await page.request.get(path, { maxRedirects: 0 });
    expect(answer.status(), path).toBe(404);
    expect(await answer.text()).not.toContain(terminationMembers.owner.name);
  }
  // Nor may the plan page's action end it: the service answers 404 there too.
  const action = await page.request.post('/en/portal/plan', {
    form: { intent: 'terminate', subscription: id },
    headers: { origin: baseURL ?? '' },
  });
  expect(action.status()).toBe(404);
});
