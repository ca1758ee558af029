import type { APIRequestContext, Page } from '@playwright/test';
import { estimatedAvailableDay } from '../../domain/billing/availability.ts';
import { dayOf } from '../../domain/billing/calendar.ts';
import { billingTermsOf } from '../../domain/billing/overview.ts';
import { priceUpgrade, type UpgradeModule, type UpgradePrice } from '../../domain/billing/upgrade.ts';
import { formatDate, formatMoney } from '../../domain/format.ts';
import type { CurrencyCode } from '../../domain/money.ts';
import { bothThemesViolations } from './axe.ts';
import { expect, hydrated, SESSION_COOKIE, test } from './fixtures.ts';
import { upgradeMembers, users, type DemoUser } from './users.ts';

/*
 * Adding functions to a plan (decision 028), as a member does it: from the dashboard to the
 * add-ons, the summary priced for today (worked out here again with the same rule), the card (the
 * card on file in one press, or another one, decision 063), the confirmation with the day they are
 * ready, the invoice paid, and the dashboard showing them pending until staff set them up. Each
 * test has a member of its own (tests/e2e/users.ts), so no other spec sees it; their plans keep a
 * card on file the sandbox holds (demo-accounts.ts).
 */

interface Own {
  token: string;
  subscription: {
    _id: string;
    industry: string;
    currency: CurrencyCode;
    monthly: number;
    contractStart: string;
    billingAnchorDay: number;
    prepaidMonths: number;
    contractMonths: number;
    period: 'monthly' | 'annual';
    modules: { id: string; status?: string }[];
  };
  catalogue: (UpgradeModule & { key: string })[];
}

async function own(request: APIRequestContext, user: DemoUser): Promise<Own> {
  const login = await request.post('/api/authentication', {
    data: { strategy: 'local', email: user.email, password: user.password },
  });
  expect(login.status()).toBe(201);
  const { accessToken: token } = (await login.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${token}` };
  const subscriptions = (await (await request.get('/api/subscriptions', { headers })).json()) as {
    data: Own['subscription'][];
  };
  const catalogue = (await (await request.get('/api/modules?$limit=100')).json()) as { data: Own['catalogue'] };
  const subscription = subscriptions.data[0];
  if (!subscription) throw new Error(`${user.email} has no subscription`);
  return { token, subscription, catalogue: catalogue.data };
}

/** The price the page must show, by the same rule the server uses, for today in Hong Kong. */
function expectedPrice(records: Own, addOns: { id: string; count?: number }[]): UpgradePrice {
  const { subscription } = records;
  return priceUpgrade(
    {
      terms: billingTermsOf({ ...subscription, contractStart: new Date(subscription.contractStart), modules: [] }),
      seller: 'HK',
      currency: subscription.currency,
      industry: subscription.industry,
      monthly: subscription.monthly,
      modules: subscription.modules,
    },
    records.catalogue,
    addOns,
    dayOf(new Date()),
  );
}

const moduleByKey = (records: Own, key: string) => {
  const module = records.catalogue.find((candidate) => candidate.key === key);
  if (!module) throw new Error(`no module ${key}`);
  return module;
};

async function fillCard(page: Page, number = '4242424242424242') {
  await expect(page.getByTestId('card-frame')).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  const frame = page.frameLocator('[data-testid="card-frame"]');
  await frame.locator('#number').fill(number);
  await frame.locator('#expiry').fill('1234');
  await frame.locator('#cvc').fill('123');
}

const hkDay = (day: string) => `${day}T12:00:00+08:00`;

/** From the member's dashboard in English, "Add functions" to the plan's add-ons, ready for input. */
async function openFromDashboard(page: Page, records: Own) {
  await page.goto('/en/portal');
  // Followed in the browser: the upgrade page loads its own document, whose policy allows the card frame.
  await hydrated(page);
  await page.getByTestId('add-functions').click();
  await expect(page).toHaveURL(new RegExp(`/en/upgrade/${records.subscription._id}`));
  await hydrated(page);
  await expect(page.getByTestId('upgrade-flow')).toHaveAttribute('data-step', 'select');
}

test.describe('adding functions to a plan', () => {
  test.use({ colorScheme: 'light' });

  test('a member adds two kitchen screens: the share of the period is shown, paid with the card on file in one press (charged once on a double click), invoiced as paid, and pending until staff set them up in the back office', async ({
    page,
    login,
    request,
    browser,
    baseURL,
  }) => {
    // The flow, the invoices page, the dashboard and the back office in a second browser: a busy machine's limit.
    test.setTimeout(60_000);
    const member = upgradeMembers.en;
    const records = await own(request, member);
    const kds = moduleByKey(records, 'kds');
    const loyalty = moduleByKey(records, 'loyalty');
    await login(member);
    await openFromDashboard(page, records);

    await page.getByTestId('add-on-kds').getByTestId('add-on-toggle').click();
    // Two screens: the slider moved one step by its keys.
    await page.locator(`#count-${kds._id}`).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(new RegExp(`add=${kds._id}(%3A|:)2`));
    await page.getByTestId('add-on-loyalty').getByTestId('add-on-toggle').click();
    await expect(page).toHaveURL(new RegExp(`add=${kds._id}%3A2%2C${loyalty._id}|add=${kds._id}:2,${loyalty._id}`));
    await page.getByTestId('upgrade-review').click();
    await expect(page.getByTestId('upgrade-flow')).toHaveAttribute('data-step', 'summary');

    // The summary: each add-on's share of the period, the total, and the monthly charge after.
    const money = (amount: number) => formatMoney({ amount, currency: 'HKD' }, 'en');
    const both = expectedPrice(records, [{ id: kds._id, count: 2 }, { id: loyalty._id }]);
    await expect(page.getByTestId('upgrade-due')).toHaveText(money(both.total));
    const kdsLine = both.items[0];
    await expect(
      page.locator(`[data-testid="upgrade-line"][data-module="${kds._id}"] [data-testid="line-amount"]`),
    ).toHaveText(money(kdsLine?.amount ?? -1));
    await expect(
      page.locator(`[data-testid="upgrade-line"][data-module="${kds._id}"] [data-testid="line-share"]`),
    ).toContainText(`${kdsLine?.remainingDays} of ${kdsLine?.periodDays} days`);
    await expect(page.getByTestId('upgrade-monthly-after')).toHaveText(money(both.monthlyAfter));

    // An item removed from the order: priced again without it.
    await page
      .locator(`[data-testid="upgrade-line"][data-module="${loyalty._id}"] [data-testid="line-remove"]`)
      .click();
    const screens = expectedPrice(records, [{ id: kds._id, count: 2 }]);
    await expect(page.getByTestId('upgrade-line')).toHaveCount(1);
    await expect(page.getByTestId('upgrade-due')).toHaveText(money(screens.total));
    await expect(page.getByTestId('upgrade-monthly-now')).toHaveText(money(records.subscription.monthly));
    await expect(page.getByTestId('upgrade-monthly-after')).toHaveText(
      money(records.subscription.monthly + 2 * kds.monthPrice),
    );

    await page.getByTestId('upgrade-checkout').click();
    await expect(page.getByTestId('upgrade-flow')).toHaveAttribute('data-step', 'payment');
    await expect(page.getByTestId('payment-due')).toHaveText(money(screens.total));
    // The card on file is the one chosen; the billing address is the last order's, as text; no card fields.
    await expect(page.getByTestId('pay-saved-card')).toBeChecked();
    await expect(page.getByTestId('saved-card')).toHaveText('Visa •••• 4242');
    await expect(page.getByTestId('card-frame')).toHaveCount(0);
    await expect(page.getByTestId('billing-summary')).toContainText('The billing address of your last order:');
    await expect(page.getByTestId('billing-address')).toHaveText(/Chris Wong\s*18 Hennessy Road\s*Hong Kong/);
    await expect(page.getByText('we filled in your delivery address')).toHaveCount(0);
    const pay = page.getByTestId('pay');
    await expect(pay).toHaveText(`Pay ${money(screens.total)} with Visa •••• 4242`);
    await pay.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await pay.dblclick();

    // The confirmation: what was paid and the day the screens are ready.
    await expect(page.getByTestId('upgrade-done')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('upgrade-paid')).toHaveText(money(screens.total));
    const ready = estimatedAvailableDay('HK', new Date());
    await expect(page.getByTestId('upgrade-available-on')).toHaveAttribute('data-day', ready);
    await expect(page.getByTestId('upgrade-available-on')).toHaveText(formatDate(hkDay(ready), 'en'));

    // Charged once, whatever the double click sent.
    const headers = { authorization: `Bearer ${records.token}` };
    const orders = (await (
      await request.get(`/api/orders?subscription=${records.subscription._id}&kind=addon`, { headers })
    ).json()) as { data: { _id: string; total: number; status: string }[] };
    expect(orders.data).toHaveLength(1);
    const order = orders.data[0] as { _id: string; total: number; status: string };
    expect(order).toMatchObject({ total: screens.total, status: 'provisioning' });
    const payments = (await (await request.get(`/api/payments?order=${order._id}`, { headers })).json()) as {
      data: { status: string; amount: number }[];
    };
    expect(payments.data).toEqual([
      expect.objectContaining({
        status: 'succeeded',
        amount: screens.total,
        card: expect.objectContaining({ last4: '4242' }),
        billingAddress: expect.objectContaining({ name: 'Chris Wong', line1: '18 Hennessy Road' }),
      }),
    ]);

    // Its invoice reads paid, on today's date, with the card (decision 063).
    const today = formatDate(hkDay(dayOf(new Date())), 'en');
    await page.goto('/en/portal/invoices');
    const invoice = page.getByTestId('invoice').first();
    await expect(invoice.getByTestId('invoice-total')).toHaveText(money(screens.total));
    await expect(invoice.getByTestId('invoice-status')).toHaveText('Paid');
    await expect(invoice.getByTestId('invoice-paid')).toHaveText(`Paid on ${today} with Visa •••• 4242`);

    // The dashboard, once its live connection has signed in: the screens are being set up, the new
    // invoice is listed, nothing is owed.
    const received: string[] = [];
    await page.routeWebSocket(/\/api\/socket\.io\//, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => {
        received.push(String(message));
        ws.send(message);
      });
    });
    await page.goto('/en/portal');
    await hydrated(page);
    await expect.poll(() => received.some((frame) => frame.includes('"strategy":"ticket"'))).toBe(true);
    const row = page.locator(`[data-testid="activated-module"][data-module="${kds._id}"]`);
    await expect(row.getByTestId('module-pending')).toHaveText(
      `Being set up: ready by ${formatDate(hkDay(ready), 'en')}`,
    );
    await expect(page.getByTestId('figure-balance')).toHaveText('Nothing due');
    const listed = page.getByTestId('invoice').filter({ hasText: money(screens.total) });
    await expect(listed).toHaveCount(1);
    await expect(listed.getByTestId('invoice-status')).toHaveText('Paid');

    // Staff set them up in the back office, in a browser of their own: the member's open dashboard
    // shows them active, without a reload.
    const staff = await browser.newContext({ baseURL, colorScheme: 'light' });
    try {
      const signIn = await staff.request.post('/api/authentication', {
        data: { strategy: 'local', email: users.editor.email, password: users.editor.password },
      });
      expect(signIn.status()).toBe(201);
      const { accessToken } = (await signIn.json()) as { accessToken: string };
      await staff.addCookies([
        { name: SESSION_COOKIE, value: accessToken, url: baseURL, httpOnly: true, sameSite: 'Lax' },
      ]);
      const office = await staff.newPage();
      const { number } = (await (await request.get(`/api/orders/${order._id}`, { headers })).json()) as {
        number: string;
      };
      await office.goto(`/en/admin/orders?mode=page&q=${encodeURIComponent(number)}`);
      await hydrated(office);
      const orderRow = office.getByTestId('admin-row').filter({ hasText: number });
      await orderRow.getByTestId('row-fulfil').click();
      await expect(office.getByTestId('snackbar-success')).toContainText(
        'Marked as set up: the member now sees it as active.',
      );
      // Done once: the row no longer offers it.
      await expect(orderRow.getByTestId('row-fulfil')).toHaveCount(0, { timeout: 10_000 });
    } finally {
      await staff.close();
    }
    await expect(row.getByTestId('module-pending')).toHaveCount(0, { timeout: 10_000 });
    await expect(row).toBeVisible();
    const completed = (await (await request.get(`/api/orders/${order._id}`, { headers })).json()) as { status: string };
    expect(completed.status).toBe('completed');
  });

  test('a demo plan’s card is held by the sandbox: the seed’s demo member is offered it, and a demo plan adds a function paid in one press', async ({
    page,
    login,
    request,
  }) => {
    test.setTimeout(60_000);
    // The seed's own demo member (monthly@tillpoint.test): the start put their card on file at the
    // sandbox, so it is ready to pay (decision 065). Their plan is left as other specs read it.
    const monthly = await own(request, users.monthly);
    const offered = await request.get(`/api/paymentOptions/${monthly.subscription._id}`, {
      headers: { authorization: `Bearer ${monthly.token}` },
    });
    expect(offered.status()).toBe(200);
    expect(((await offered.json()) as { card: unknown }).card).toMatchObject({
      brand: 'visa',
      last4: '4242',
      state: 'ready',
    });

    // A plan made as the seed makes that one, its card put on file the same way, adds a function from the dashboard.
    const member = upgradeMembers.demo;
    const records = await own(request, member);
    const qr = moduleByKey(records, 'qr-self-order');
    await login(member);
    await openFromDashboard(page, records);
    await page.getByTestId('add-on-qr-self-order').getByTestId('add-on-toggle').click();
    await expect(page).toHaveURL(new RegExp(`add=${qr._id}`));
    await page.getByTestId('upgrade-review').click();
    await expect(page.getByTestId('upgrade-flow')).toHaveAttribute('data-step', 'summary');
    const money = (amount: number) => formatMoney({ amount, currency: 'HKD' }, 'en');
    const price = expectedPrice(records, [{ id: qr._id }]);
    await expect(page.getByTestId('upgrade-due')).toHaveText(money(price.total));
    await page.getByTestId('upgrade-checkout').click();
    await expect(page.getByTestId('upgrade-flow')).toHaveAttribute('data-step', 'payment');
    // The demo card is offered and chosen, not the note that it cannot be charged here; no card fields.
    await expect(page.getByTestId('saved-card-notice')).toHaveCount(0);
    await expect(page.getByTestId('pay-saved-card')).toBeChecked();
    await expect(page.getByTestId('saved-card')).toHaveText('Visa •••• 4242');
    await expect(page.getByTestId('card-frame')).toHaveCount(0);
    await expect(page.getByTestId('billing-address')).toHaveText(/Wing Lee\s*18 Hennessy Road\s*Hong Kong/);
    const pay = page.getByTestId('pay');
    await expect(pay).toHaveText(`Pay ${money(price.total)} with Visa •••• 4242`);
    await pay.click();

    await expect(page.getByTestId('upgrade-done')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('upgrade-paid')).toHaveText(money(price.total));
    const headers = { authorization: `Bearer ${records.token}` };
    const orders = (await (
      await request.get(`/api/orders?subscription=${records.subscription._id}&kind=addon`, { headers })
    ).json()) as { data: { _id: string; status: string }[] };
    expect(orders.data).toEqual([expect.objectContaining({ status: 'provisioning' })]);
    const payments = (await (await request.get(`/api/payments?order=${orders.data[0]?._id}`, { headers })).json()) as {
      data: unknown[];
    };
    expect(payments.data).toEqual([
      expect.objectContaining({
        status: 'succeeded',
        amount: price.total,
        card: expect.objectContaining({ brand: 'visa', last4: '4242' }),
      }),
    ]);
  });

  test('a member adds loyalty from the dashboard in Traditional Chinese, inside the company’s apps (?sso), with another card than the one on file, the billing address of their last order filled in, charged once on a double click', async ({
    page,
    login,
    request,
  }) => {
    // axe in both themes on three steps, and a card typed: a generous limit for a busy machine.
    test.setTimeout(90_000);
    const member = upgradeMembers.zhHk;
    const records = await own(request, member);
    const loyalty = moduleByKey(records, 'loyalty');
    await login(member);
    await page.goto('/zh-hk/portal?sso');
    await hydrated(page);
    await page
      .locator(`[data-testid="inactive-add-on"][data-module="${loyalty._id}"] [data-testid="add-this"]`)
      .click();
    await expect(page).toHaveURL(new RegExp(`/zh-hk/upgrade/${records.subscription._id}\\?add=${loyalty._id}&sso`));
    await hydrated(page);
    // Embedded: no header or footer on any step.
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.getByTestId('dashboard-footer')).toHaveCount(0);
    await expect(page.getByTestId('add-on-loyalty')).toHaveAttribute('data-chosen', 'true');
    await expect(page.getByTestId('step-heading')).toHaveText('為方案新增功能');
    // Every step meets the accessibility budget, in both themes (the summary is checked in a11y.spec.ts).
    expect({ step: 'select', violations: await bothThemesViolations(page) }).toEqual({
      step: 'select',
      violations: [],
    });
    await page.getByTestId('upgrade-review').click();

    const money = (amount: number) => formatMoney({ amount, currency: 'HKD' }, 'zh-hk');
    const price = expectedPrice(records, [{ id: loyalty._id }]);
    const line = price.items[0];
    await expect(page.getByTestId('upgrade-due')).toHaveText(money(price.total));
    await expect(page.getByTestId('line-share')).toContainText(`${line?.periodDays} 日中的 ${line?.remainingDays} 日`);
    await page.getByTestId('upgrade-checkout').click();
    // The card on file is offered first; another card opens the provider's fields.
    await expect(page.getByTestId('pay-saved-card')).toBeChecked();
    await expect(page.getByTestId('saved-card')).toHaveText('Visa •••• 4242');
    await page.getByTestId('pay-new-card').check();
    await expect(page.getByTestId('pay')).toHaveText(`支付 ${money(price.total)}`);
    await fillCard(page);
    // The billing address is the last order's, and the hint says so.
    await expect(page.locator('#bill-name')).toHaveValue('陳大文');
    await expect(page.locator('#bill-line1')).toHaveValue('18 Hennessy Road');
    await expect(page.locator('#bill-city')).toHaveValue('Hong Kong');
    await expect(page.getByText('我們已預先填上你上一張訂單的帳單地址')).toBeVisible();
    expect({ step: 'payment', violations: await bothThemesViolations(page) }).toEqual({
      step: 'payment',
      violations: [],
    });
    const pay = page.getByTestId('pay');
    await pay.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await pay.dblclick();
    await expect(page.getByTestId('upgrade-done')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('step-heading')).toHaveText('多謝！附加功能即將開通');
    expect({ step: 'done', violations: await bothThemesViolations(page) }).toEqual({ step: 'done', violations: [] });
    // Charged once, whatever the double click sent.
    const headers = { authorization: `Bearer ${records.token}` };
    const orders = (await (
      await request.get(`/api/orders?subscription=${records.subscription._id}&kind=addon`, { headers })
    ).json()) as { data: { _id: string; total: number }[] };
    expect(orders.data).toEqual([expect.objectContaining({ total: price.total })]);
    const payments = (await (await request.get(`/api/payments?order=${orders.data[0]?._id}`, { headers })).json()) as {
      data: { status: string; amount: number }[];
    };
    expect(payments.data).toEqual([expect.objectContaining({ status: 'succeeded', amount: price.total })]);
    await expect(page.getByTestId('upgrade-paid')).toHaveText(money(price.total));
    await expect(page).toHaveURL(/[?&]sso(=|&|$)/);
    await expect(page.getByRole('banner')).toHaveCount(0);
    await page.getByTestId('upgrade-to-dashboard').click();
    await expect(page).toHaveURL('/zh-hk/portal?sso');
    await expect(
      page.locator(`[data-testid="activated-module"][data-module="${loyalty._id}"] [data-testid="module-pending"]`),
    ).toContainText('開通中');
    await expect(page.locator(`[data-testid="inactive-add-on"][data-module="${loyalty._id}"]`)).toHaveCount(0);
  });

  test('a card on file the bank declines says so and opens the card fields: another card pays the same order, once', async ({
    page,
    login,
    request,
  }) => {
    // Two payments, the second with a card typed into the provider's frame: a busy machine's limit.
    test.setTimeout(60_000);
    const member = upgradeMembers.declined;
    const records = await own(request, member);
    const loyalty = moduleByKey(records, 'loyalty');
    await login(member);
    await page.goto(`/en/upgrade/${records.subscription._id}?add=${loyalty._id}`);
    await hydrated(page);
    await page.getByTestId('upgrade-review').click();
    const money = (amount: number) => formatMoney({ amount, currency: 'HKD' }, 'en');
    const price = expectedPrice(records, [{ id: loyalty._id }]);
    await expect(page.getByTestId('upgrade-due')).toHaveText(money(price.total));
    await page.getByTestId('upgrade-checkout').click();
    await expect(page.getByTestId('saved-card')).toHaveText('Visa •••• 0341');
    await page.getByTestId('pay').click();

    // Declined: why, in words, and the card fields open beside the order, which is kept.
    await expect(page.getByTestId('payment-problem')).toHaveText(
      'We could not charge Visa •••• 0341: Your card was declined. Please try another card. Enter another card below.',
      { timeout: 30_000 },
    );
    await expect(page.getByTestId('pay-new-card')).toBeChecked();
    await expect(page.getByTestId('pay')).toHaveText(`Pay ${money(price.total)}`);
    await fillCard(page);
    await expect(page.locator('#bill-name')).toHaveValue('Jo Cheung');
    await page.getByTestId('pay').click();
    await expect(page.getByTestId('upgrade-done')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('upgrade-paid')).toHaveText(money(price.total));

    // One order, its declined attempt and the one that paid; the card on file is as it was.
    const headers = { authorization: `Bearer ${records.token}` };
    const orders = (await (
      await request.get(`/api/orders?subscription=${records.subscription._id}&kind=addon`, { headers })
    ).json()) as { data: { _id: string; status: string }[] };
    expect(orders.data).toEqual([expect.objectContaining({ status: 'provisioning' })]);
    const payments = (await (
      await request.get(`/api/payments?order=${orders.data[0]?._id}&$sort[createdAt]=1`, { headers })
    ).json()) as { data: { status: string; failureCode?: string | null; card: { last4: string } }[] };
    expect(payments.data.map((attempt) => [attempt.status, attempt.card.last4])).toEqual([
      ['failed', '0341'],
      ['succeeded', '4242'],
    ]);
    const options = (await (
      await request.get(`/api/paymentOptions/${records.subscription._id}`, { headers })
    ).json()) as { card: { last4: string } };
    expect(options.card.last4).toBe('0341');
  });

  // The browser logs the refused price's and the not-found page's statuses, which are what this test asks for.
  test.describe('refusals', () => {
    test.use({ allowedConsoleErrors: [/status of (400|404)/] });
    test('what a plan has already is refused with a message, and another member’s plan is not found', async ({
      page,
      login,
      request,
    }) => {
      const member = upgradeMembers.twice;
      const records = await own(request, member);
      const others = await own(request, upgradeMembers.en);
      const has = moduleByKey(records, 'qr-self-order')._id;
      expect(records.subscription.modules.map((module) => module.id)).toContain(has);
      await login(member);
      await page.goto(`/en/upgrade/${records.subscription._id}?step=summary&add=${has}`);
      await hydrated(page);
      await expect(page.getByTestId('upgrade-problem')).toContainText('Your plan already has this add-on.');
      await expect(page.getByTestId('upgrade-checkout')).toHaveCount(0);

      // Without an id, the member's own plan; someone else's is not found.
      await page.goto('/en/upgrade');
      await expect(page).toHaveURL(`/en/upgrade/${records.subscription._id}`);
      const response = await page.goto(`/en/upgrade/${others.subscription._id}`);
      expect(response?.status()).toBe(404);
      const quote = await request.post('/api/quotes', {
        data: { subscription: others.subscription._id, addOns: [{ id: moduleByKey(records, 'kds')._id }] },
        headers: { authorization: `Bearer ${records.token}` },
      });
      expect(quote.status(), await quote.text()).toBe(404);

      // The same in Traditional Chinese: the refusal in the member's language, and someone else's plan not found.
      await page.goto(`/zh-hk/upgrade/${records.subscription._id}?step=summary&add=${has}`);
      await expect(page.getByTestId('upgrade-problem')).toContainText('你的方案已包含此附加功能。');
      const theirs = await page.goto(`/zh-hk/upgrade/${others.subscription._id}`);
      expect(theirs?.status()).toBe(404);
      await expect(page.locator('main')).toContainText('找不到此頁面');
      const quoteZh = await request.post('/api/quotes', {
        data: { subscription: others.subscription._id, addOns: [{ id: moduleByKey(records, 'kds')._id }] },
        headers: { authorization: `Bearer ${records.token}`, 'x-locale': 'zh-hk' },
      });
      expect(quoteZh.status()).toBe(404);
      expect(((await quoteZh.json()) as { message: string }).message).toBe('找不到此方案。');

      // A demo plan's card, which no gateway holds, is not offered: a note says so, and the card fields show.
      const kds = moduleByKey(records, 'kds')._id;
      await page.goto(`/en/upgrade/${records.subscription._id}?step=summary&add=${kds}`);
      await hydrated(page);
      await page.getByTestId('upgrade-checkout').click();
      await expect(page.getByTestId('saved-card-notice')).toHaveText(
        'Your card on file, Visa •••• 4242, cannot be charged here. Please enter a card.',
      );
      await expect(page.getByTestId('pay-saved-card')).toHaveCount(0);
      await expect(page.getByTestId('card-frame')).toBeVisible();
      // The billing address of their last order is filled in, and the hint says so.
      await expect(page.locator('#bill-line1')).toHaveValue('18 Hennessy Road');
      await expect(page.getByText('we filled in the billing address of your last order')).toBeVisible();
    });
  });
});
