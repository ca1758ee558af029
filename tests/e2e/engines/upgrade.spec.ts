/**
 * Adding functions to a plan in WebKit and Firefox (decisions 028 and 063): a member signs in from
 * the upgrade's address, chooses an add-on on a phone, sees the server's price for today, pays in
 * one press with the card on file (the card their plan was bought with, the billing address of
 * that order shown) and reaches the confirmation, charged once. The figures, another card, a
 * declined card on file and the refusals are tested in Chromium (upgrade.spec.ts); each engine has
 * a member of its own.
 */
import { upgradeMembers } from '../users.ts';
import { expect, hydrate, logInOnTheWayTo, PHONE, test, until } from './fixtures.ts';

const TEXT = {
  en: {
    heading: 'Thank you: your add-ons are on their way',
    pay: (total: string) => `Pay ${total} with Visa •••• 4242`,
  },
  'zh-cn': {
    heading: '感谢！附加功能即将开通',
    pay: (total: string) => `用 Visa •••• 4242 支付 ${total}`,
  },
} as const;

// Signing in answers with a document redirect (the upgrade loads its own document): Firefox leaves
// the sign-in page while React Router still reads the action's answer, and reports the cut stream.
test.use({
  allowedProblems: [
    /^(Failed to fetch manifest patches TypeError: (Load failed|NetworkError when attempting to fetch resource\.))$|^TypeError: Error in input stream$/,
  ],
});

const step = () => document.querySelector('[data-testid="upgrade-flow"]')?.getAttribute('data-step') ?? null;

test('a member adds a function to their plan on a phone and pays for today’s share with the card on file in one press', async ({
  openTab,
  engine,
  request,
}) => {
  test.setTimeout(240_000);
  const lang = engine === 'webkit' ? 'en' : 'zh-cn';
  const member = engine === 'webkit' ? upgradeMembers.webkit : upgradeMembers.firefox;
  const tab = await openTab(PHONE);
  await logInOnTheWayTo(tab, `/${lang}/upgrade`, member);
  // Signed in, then sent on to the member's own plan.
  await until(
    tab,
    'the member reaches their upgrade page',
    (prefix) => window.location.pathname.startsWith(prefix),
    `/${lang}/upgrade/`,
  );
  await hydrate(tab);
  await until(
    tab,
    'the add-ons are listed',
    () => document.querySelector('[data-testid="add-on-qr-self-order"]') !== null,
  );

  await tab.click('[data-testid="add-on-qr-self-order"] [data-testid="add-on-toggle"]');
  await until(
    tab,
    'the add-on is chosen',
    () => document.querySelector('[data-testid="add-on-qr-self-order"]')?.getAttribute('data-chosen') === 'true',
  );
  await tab.click('[data-testid="upgrade-review"]');
  await expect.poll(() => tab.evaluate(step), { message: 'the summary shows', timeout: 20_000 }).toBe('summary');
  await until(
    tab,
    'the server has priced the order',
    () => document.querySelector('[data-testid="upgrade-due"]') !== null,
  );
  const due = await tab.evaluate(() => document.querySelector('[data-testid="upgrade-due"]')?.textContent ?? '');
  expect(due).not.toBe('');
  await tab.click('[data-testid="upgrade-checkout"]');

  await until(
    tab,
    'the order is placed and the card on file is offered',
    () => (document.querySelector('[data-testid="pay-saved-card"]') as HTMLInputElement | null)?.checked === true,
  );
  expect(await tab.evaluate(() => document.querySelector('[data-testid="payment-due"]')?.textContent ?? '')).toBe(due);
  expect(await tab.evaluate(() => document.querySelector('[data-testid="saved-card"]')?.textContent ?? '')).toBe(
    'Visa •••• 4242',
  );
  // The last order's billing address, as text; no card fields to fill.
  expect(
    await tab.evaluate(() => document.querySelector('[data-testid="billing-address"]')?.textContent ?? ''),
  ).toContain('18 Hennessy Road');
  expect(await tab.evaluate(() => document.querySelector('[data-testid="card-frame"]') === null)).toBe(true);
  expect(await tab.evaluate(() => document.querySelector('[data-testid="pay"]')?.textContent ?? '')).toBe(
    TEXT[lang].pay(due),
  );
  await tab.click('[data-testid="pay"]');

  try {
    await until(tab, 'the confirmation shows', () => document.querySelector('[data-testid="upgrade-done"]') !== null);
  } catch (error) {
    await tab.screenshot(test.info().outputPath('stuck.png'), { fullPage: true }).catch(() => undefined);
    throw error;
  }
  expect(await tab.evaluate(() => document.querySelector('[data-testid="step-heading"]')?.textContent ?? '')).toBe(
    TEXT[lang].heading,
  );
  expect(await tab.evaluate(() => document.querySelector('[data-testid="upgrade-paid"]')?.textContent ?? '')).toBe(due);
  expect(
    await tab.evaluate(
      () => document.querySelector('[data-testid="upgrade-available-on"]')?.getAttribute('data-day') ?? '',
    ),
  ).toMatch(/^\d{4}-\d{2}-\d{2}$/);

  // Charged once, to the card on file.
  const login = await request.post('/api/authentication', {
    data: { strategy: 'local', email: member.email, password: member.password },
  });
  const headers = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
  const orders = (await (await request.get('/api/orders?kind=addon', { headers })).json()) as {
    data: { _id: string }[];
  };
  expect(orders.data).toHaveLength(1);
  const payments = (await (await request.get(`/api/payments?order=${orders.data[0]?._id}`, { headers })).json()) as {
    data: { status: string; card: { last4: string } }[];
  };
  expect(payments.data.map((attempt) => [attempt.status, attempt.card.last4])).toEqual([['succeeded', '4242']]);
});
