import authenticationClient, { MemoryStorage } from '@feathersjs/authentication-client';
import { feathers } from '@feathersjs/feathers';
import socketio from '@feathersjs/socketio-client';
import type { APIRequestContext, Page } from '@playwright/test';
import { io } from 'socket.io-client';
import { formatDate, formatMoney } from '../../domain/format.ts';
import type { CurrencyCode } from '../../domain/money.ts';
import { DEMO_PURCHASES, demoPaidAt, type DemoPurchase } from '../../server/db/seed/demo-subscriptions.ts';
import { bothThemesViolations } from './axe.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { users, type DemoUser } from './users.ts';

/*
 * The subscription dashboard of the two demo members who bought a plan (seeded on the server's
 * first start, dated from that day): what it shows is worked out here again from the seed's own
 * dates, and the member's own records read through the API, never typed in as text.
 */

const LANGS = ['en', 'zh-hk'] as const;
type Lang = (typeof LANGS)[number];

/** Midday in Hong Kong of a calendar day, for formatting. */
const hkDay = (day: string) => `${day}T12:00:00+08:00`;
const hkToday = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

/** A day `months` months after `start`, on the start's day of the month, or the month's last day when it is shorter. */
function monthsAfter(start: string, months: number): string {
  const [year, month, day] = start.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(day, last)))
    .toISOString()
    .slice(0, 10);
}

interface OwnRecords {
  token: string;
  userId: string;
  order: {
    monthly: number;
    contractMonths: number;
    currency: CurrencyCode;
    items: { kind: string; unitPrice: number; key: string; module?: string; count: number }[];
  };
  subscription: { _id: string; modules: { id: string; count: number }[] };
}

async function signIn(request: APIRequestContext, user: DemoUser): Promise<{ token: string; userId: string }> {
  const response = await request.post('/api/authentication', {
    data: { strategy: 'local', email: user.email, password: user.password },
  });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { accessToken: string; user: { _id: string } };
  return { token: body.accessToken, userId: body.user._id };
}

/** The member's own order and subscription, read as they would through the API. */
async function ownRecords(request: APIRequestContext, user: DemoUser): Promise<OwnRecords> {
  const { token, userId } = await signIn(request, user);
  const headers = { authorization: `Bearer ${token}` };
  const subscriptions = (await (await request.get('/api/subscriptions', { headers })).json()) as {
    data: (OwnRecords['subscription'] & { order: string })[];
  };
  expect(subscriptions.data).toHaveLength(1);
  const subscription = subscriptions.data[0]!;
  const order = (await (
    await request.get(`/api/orders/${subscription.order}`, { headers })
  ).json()) as OwnRecords['order'];
  return { token, userId, order, subscription };
}

function purchaseOf(user: DemoUser): DemoPurchase {
  const purchase = DEMO_PURCHASES.find((candidate) => candidate.email === user.email);
  if (!purchase) throw new Error(`No demo purchase for ${user.email}`);
  return purchase;
}

/** The figures the dashboard must show for a demo purchase, in a language. */
function expectedFigures(purchase: DemoPurchase, records: OwnRecords, lang: Lang) {
  const start = demoPaidAt(purchase, new Date()).toISOString().slice(0, 10);
  const termEnd = monthsAfter(start, Math.max(purchase.prepaidMonths, records.order.contractMonths));
  const prepaidEnd = monthsAfter(start, purchase.prepaidMonths);
  const today = hkToday();
  let used = 0;
  while (used < purchase.prepaidMonths && monthsAfter(start, used + 1) <= today) used += 1;
  const money = (amount: number) => formatMoney({ amount, currency: records.order.currency }, lang);
  const plan = records.order.items.find((item) => item.kind === 'plan');
  const anchor = Number(start.slice(8));
  return {
    start: formatDate(hkDay(start), lang),
    end: formatDate(hkDay(termEnd), lang),
    nextPayDate: formatDate(hkDay(prepaidEnd), lang),
    nextPayAmount: money(records.order.monthly),
    basicFee: money(plan?.unitPrice ?? -1),
    anchor,
    used,
    left: purchase.prepaidMonths - used,
    money,
  };
}

const TEXT = {
  en: {
    lite: 'Lite',
    flexi: 'Flexi',
    monthly: 'Monthly',
    settled: 'Nothing due',
    settlement: (day: number) =>
      day > 28 ? `Day ${day} of each month, or the last day of a shorter month` : `Day ${day} of each month`,
    prepaid: (used: number, months: number, left: number) => `${used} of ${months} used, ${left} left`,
    perMonth: (price: string) => `${price} / month`,
    empty: 'You have no plan yet',
    paid: 'Paid',
    count: (count: number) => `× ${count}`,
    buy: 'Choose a plan',
  },
  'zh-hk': {
    lite: 'Lite',
    flexi: 'Flexi',
    monthly: '按月',
    settled: '沒有未付款項',
    settlement: (day: number) => (day > 28 ? `每月 ${day} 日；該月較短則為月底最後一日` : `每月 ${day} 日`),
    prepaid: (used: number, months: number, left: number) => `共 ${months} 個月，已用 ${used} 個月，尚餘 ${left} 個月`,
    perMonth: (price: string) => `每月 ${price}`,
    empty: '你尚未訂購方案',
    paid: '已付款',
    count: (count: number) => `共 ${count} 部`,
    buy: '揀選方案',
  },
} as const;

async function axeClean(page: Page) {
  // The dark theme follows the system's scheme once React has hydrated the page.
  await hydrated(page);
  return bothThemesViolations(page);
}

for (const lang of LANGS) {
  test.describe(`the subscription dashboard (${lang})`, () => {
    test.use({ colorScheme: 'light' });

    test('a member with a Lite plan billed monthly after 12 prepaid months sees its figures', async ({
      page,
      login,
      request,
    }) => {
      const records = await ownRecords(request, users.monthly);
      const purchase = purchaseOf(users.monthly);
      const expected = expectedFigures(purchase, records, lang);
      const text = TEXT[lang];
      await login(users.monthly);
      await page.goto(`/${lang}/portal`);

      await expect(page.getByTestId('plan-type')).toHaveText(text.lite);
      await expect(page.getByTestId('figure-period')).toHaveText(text.monthly);
      await expect(page.getByTestId('figure-contract-start')).toHaveText(expected.start);
      await expect(page.getByTestId('figure-contract-end')).toHaveText(expected.end);
      await expect(page.getByTestId('figure-settlement')).toHaveText(text.settlement(expected.anchor));
      await expect(page.getByTestId('figure-next-pay-date')).toHaveText(expected.nextPayDate);
      await expect(page.getByTestId('figure-next-pay-amount')).toHaveText(expected.nextPayAmount);
      await expect(page.getByTestId('figure-balance')).toHaveText(text.settled);
      await expect(page.getByTestId('figure-basic-fee')).toHaveText(expected.basicFee);
      await expect(page.getByTestId('figure-prepaid')).toHaveText(
        text.prepaid(expected.used, purchase.prepaidMonths, expected.left),
      );

      // Activated: what the order bought, with counts; inactive: what it did not, with prices.
      const activated = page.getByTestId('activated-module');
      await expect(activated).toHaveCount(records.subscription.modules.length);
      const kds = records.order.items.find((item) => item.key === 'kds');
      await expect(
        page.locator(`[data-testid="activated-module"][data-module="${kds?.module}"] [data-testid="module-count"]`),
      ).toHaveText(TEXT[lang].count(kds?.count ?? -1));
      await expect(page.locator(`[data-testid="inactive-add-on"][data-module="${kds?.module}"]`)).toHaveCount(0);
      const catalogue = (await (await request.get('/api/modules?key=qr-self-order')).json()) as {
        data: { _id: string; monthPrice: number }[];
      };
      const qr = catalogue.data[0];
      await expect(
        page.locator(`[data-testid="inactive-add-on"][data-module="${qr?._id}"] [data-testid="add-on-price"]`),
      ).toHaveText(text.perMonth(expected.money(qr?.monthPrice ?? -1)));
    });

    test('a member sees their own invoices: number, date, total and status', async ({ page, login, request }) => {
      const { token } = await signIn(request, users.prepaid);
      const own = (await (
        await request.get('/api/invoices', { headers: { authorization: `Bearer ${token}` } })
      ).json()) as {
        data: { number: string; issuedAt: string; total: number; currency: CurrencyCode }[];
      };
      expect(own.data.length).toBeGreaterThan(0);
      await login(users.prepaid);
      await page.goto(`/${lang}/portal`);
      const rows = page.getByTestId('invoice');
      await expect(rows).toHaveCount(own.data.length);
      const paidOn = demoPaidAt(purchaseOf(users.prepaid), new Date()).toISOString().slice(0, 10);
      for (const invoice of own.data) {
        const row = page.locator(`[data-testid="invoice"][data-number="${invoice.number}"]`);
        await expect(row.getByRole('rowheader').getByTestId('invoice-number')).toHaveText(invoice.number);
        await expect(row.getByTestId('invoice-date')).toHaveText(formatDate(hkDay(paidOn), lang));
        await expect(row.getByTestId('invoice-total')).toHaveText(
          formatMoney({ amount: invoice.total, currency: invoice.currency }, lang),
        );
        // Paid by card when the plan was bought (decision 063).
        await expect(row.getByTestId('invoice-status')).toHaveText(TEXT[lang].paid);
      }
    });

    test('a member with Flexi prepaid for 24 months sees the months used and left', async ({
      page,
      login,
      request,
    }) => {
      const records = await ownRecords(request, users.prepaid);
      const purchase = purchaseOf(users.prepaid);
      const expected = expectedFigures(purchase, records, lang);
      const text = TEXT[lang];
      await login(users.prepaid);
      await page.goto(`/${lang}/portal`);

      await expect(page.getByTestId('plan-type')).toHaveText(text.flexi);
      await expect(page.getByTestId('figure-contract-start')).toHaveText(expected.start);
      await expect(page.getByTestId('figure-contract-end')).toHaveText(expected.end);
      await expect(page.getByTestId('figure-next-pay-date')).toHaveText(expected.nextPayDate);
      // Singapore: in Singapore dollars.
      expect(records.order.currency).toBe('SGD');
      await expect(page.getByTestId('figure-next-pay-amount')).toHaveText(expected.nextPayAmount);
      await expect(page.getByTestId('figure-basic-fee')).toHaveText(expected.basicFee);
      await expect(page.getByTestId('figure-balance')).toHaveText(text.settled);
      await expect(page.getByTestId('figure-prepaid')).toHaveText(text.prepaid(expected.used, 24, expected.left));
      expect(expected.used).toBeGreaterThanOrEqual(7);
    });

    test('a member without a plan sees where to buy one', async ({ page, login }) => {
      await login(users.owner);
      await page.goto(`/${lang}/portal`);
      await expect(page.getByTestId('no-subscription').getByRole('heading')).toHaveText(TEXT[lang].empty);
      await page.getByRole('link', { name: TEXT[lang].buy }).click();
      await expect(page).toHaveURL(new RegExp(`/${lang}/subscription`));
      // The purchase page arrives whole (the test does not end in the middle of its loading).
      await hydrated(page);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    });
  });
}

test.describe('the dashboard is accessible', () => {
  test.use({ colorScheme: 'light' });
  for (const [width, height, name] of [
    [390, 844, 'phone'],
    [1280, 900, 'desktop'],
  ] as const) {
    test(`on a ${name}, in both themes, with a plan and without`, async ({ page, login }) => {
      test.slow();
      await page.setViewportSize({ width, height });
      for (const [user, lang] of [
        [users.prepaid, name === 'phone' ? 'zh-cn' : 'en'],
        [users.owner, name === 'phone' ? 'en' : 'zh-hk'],
      ] as const) {
        await page.context().clearCookies();
        await login(user);
        await page.goto(`/${lang}/portal`);
        await expect(page.locator('main')).toBeVisible();
        expect({ user: user.email, violations: await axeClean(page) }).toEqual({ user: user.email, violations: [] });
      }
    });
  }
});

test.describe("another member's subscription", () => {
  test('cannot be read over REST: not found by id, nothing found by query', async ({ request }) => {
    const theirs = await ownRecords(request, users.prepaid);
    const mine = await signIn(request, users.monthly);
    const headers = { authorization: `Bearer ${mine.token}` };
    const byId = await request.get(`/api/subscriptions/${theirs.subscription._id}`, { headers });
    expect(byId.status()).toBe(404);
    expect(((await byId.json()) as { name: string }).name).toBe('NotFound');
    const byOwner = await request.get(`/api/subscriptions?user=${theirs.userId}`, { headers });
    expect(byOwner.status()).toBe(200);
    expect(((await byOwner.json()) as { data: unknown[] }).data).toEqual([]);
    const invoices = await request.get(`/api/invoices?subscription=${theirs.subscription._id}`, { headers });
    expect(((await invoices.json()) as { data: unknown[] }).data).toEqual([]);
  });

  test('cannot be read over socket.io: not found by id, nothing found by query', async ({ request, baseURL }) => {
    const theirs = await ownRecords(request, users.prepaid);
    const mine = await signIn(request, users.monthly);
    const socket = io(baseURL, {
      path: '/api/socket.io',
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
    });
    const client = feathers();
    client.configure(socketio(socket, { timeout: 30_000 }));
    client.configure(authenticationClient({ storage: new MemoryStorage() }));
    try {
      await client.authenticate({ strategy: 'jwt', accessToken: mine.token });
      const subscriptions = client.service('subscriptions');
      const error = await subscriptions.get(theirs.subscription._id).then(
        () => null,
        (reason: unknown) => reason as { name?: string; code?: number },
      );
      expect(error).toMatchObject({ name: 'NotFound', code: 404 });
      const found = (await subscriptions.find({ query: { user: theirs.userId } })) as { data: unknown[] };
      expect(found.data).toEqual([]);
      // Their own is there, over the same socket.
      const own = (await subscriptions.find({})) as { data: { user: string }[] };
      expect(own.data.map((row) => row.user)).toEqual([mine.userId]);
    } finally {
      socket.disconnect();
    }
  });
});
