import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import { formatDate, formatMoney } from '../../domain/format.ts';
import type { CurrencyCode } from '../../domain/money.ts';
import { pdfText } from '../pdf-text.ts';
import { axe, AXE_TAGS } from './axe.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { users, type DemoUser } from './users.ts';

/*
 * The member's invoices (`/{locale}/portal/invoices`, decision 029): the demo members' invoices,
 * issued when their plans were paid, listed and downloaded as PDF files with a plain click, in
 * English and in Traditional Chinese; nobody else reaches them, through the page or the API.
 */

test.use({ colorScheme: 'light' });

interface OwnInvoice {
  _id: string;
  number: string;
  total: number;
  currency: CurrencyCode;
  paidAt: string;
}

/** The member's newest invoice and their token, read through the API as the member. */
async function ownInvoice(request: APIRequestContext, user: DemoUser): Promise<{ invoice: OwnInvoice; token: string }> {
  const signIn = await request.post('/api/authentication', {
    data: { strategy: 'local', email: user.email, password: user.password },
  });
  expect(signIn.status()).toBe(201);
  const { accessToken: token } = (await signIn.json()) as { accessToken: string };
  const found = await request.get('/api/invoices?$sort[issuedAt]=-1', {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await found.json()) as { data: OwnInvoice[] };
  expect(data.length).toBeGreaterThan(0);
  return { invoice: data[0]!, token };
}

const TEXT = {
  en: {
    title: 'Tax invoice',
    status: 'Paid',
    paid: (date: string) => `Paid on ${date} with Visa •••• 4242`,
    pdfPaid: (date: string) => `Date paid${date}`,
    download: 'Download PDF',
  },
  'zh-hk': {
    title: '稅務發票',
    status: '已付款',
    paid: (date: string) => `於 ${date} 以 Visa •••• 4242 付款`,
    pdfPaid: (date: string) => `付款日期${date}`,
    download: '下載 PDF',
  },
} as const;

for (const lang of ['en', 'zh-hk'] as const) {
  test(`a member opens their invoices from the portal's tabs and downloads one as a PDF (${lang})`, async ({
    page,
    login,
    request,
  }) => {
    const { invoice } = await ownInvoice(request, users.monthly);
    await login(users.monthly);
    await page.goto(`/${lang}/portal`);
    await hydrated(page);
    await page.getByTestId('portal-nav-invoices').click();
    await expect(page).toHaveURL(`/${lang}/portal/invoices`);
    await expect(page.getByTestId('portal-nav-invoices')).toHaveAttribute('aria-current', 'page');

    const row = page.locator(`[data-testid="invoice"][data-number="${invoice.number}"]`);
    await expect(row.getByTestId('invoice-number')).toHaveText(invoice.number);
    await expect(row.getByTestId('invoice-total')).toHaveText(
      formatMoney({ amount: invoice.total, currency: invoice.currency }, lang),
    );
    // Paid by card when the plan was bought: "Paid", the day and the card (decision 063).
    await expect(row.getByTestId('invoice-status')).toHaveText(TEXT[lang].status);
    await expect(row.getByTestId('invoice-paid')).toHaveText(TEXT[lang].paid(formatDate(invoice.paidAt, lang)));
    await expect(row.getByTestId('invoice-line').first()).toBeVisible();

    // A plain click on the link: the session cookie signs the request, and the file is saved.
    const downloading = page.waitForEvent('download');
    await row.getByRole('link', { name: new RegExp(invoice.number) }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${invoice.number}.pdf`);
    const file = await readFile((await download.path()) ?? '');
    expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await pdfText(file);
    expect(text.replace(/\s+/g, '')).toContain(TEXT[lang].title.replace(/\s+/g, ''));
    expect(text).toContain(invoice.number);
    expect(text.replace(/\s+/g, '')).toContain(
      TEXT[lang].pdfPaid(formatDate(invoice.paidAt, lang)).replace(/\s+/g, ''),
    );
    // The page is still there, with its link.
    await expect(page).toHaveURL(`/${lang}/portal/invoices`);
    await expect(row.getByTestId('invoice-download')).toHaveText(`${TEXT[lang].download} ${invoice.number}`);
  });
}

test('inside the company’s apps (?sso) the page shows without header and its tabs keep ?sso', async ({
  page,
  login,
}) => {
  await login(users.prepaid);
  await page.goto('/en/portal/invoices?sso');
  await expect(page.getByTestId('invoice').first()).toBeVisible();
  await expect(page.getByTestId('dashboard-footer')).toHaveCount(0);
  await expect(page.getByTestId('portal-nav-overview')).toHaveAttribute('href', '/en/portal?sso');
  await expect(page.getByTestId('portal-nav-invoices')).toHaveAttribute('href', '/en/portal/invoices?sso');
});

test('a member without a plan is told their invoices will show here', async ({ page, login }) => {
  await login(users.owner);
  await page.goto('/zh-cn/portal/invoices');
  await expect(page.getByTestId('invoices-none')).toContainText('暂无发票');
  await expect(page.getByTestId('invoice')).toHaveCount(0);
});

test("a second member cannot reach the first one's invoice: not on their page, a 404 for its PDF by cookie or token", async ({
  page,
  login,
  request,
}) => {
  const theirs = await ownInvoice(request, users.monthly);
  const mine = await ownInvoice(request, users.prepaid);
  await login(users.prepaid);
  await page.goto('/en/portal/invoices');
  await expect(page.getByTestId('invoice').first()).toBeVisible();
  await expect(page.locator(`[data-testid="invoice"][data-number="${theirs.invoice.number}"]`)).toHaveCount(0);

  const url = `/api/invoices/${theirs.invoice._id}/pdf?lang=en`;
  // Followed as a link in the member's own browser, with their session cookie.
  expect((await page.request.get(url)).status()).toBe(404);
  // By the member's token, as an app would ask.
  const byToken = await request.get(url, { headers: { authorization: `Bearer ${mine.token}` } });
  expect(byToken.status()).toBe(404);
  expect(((await byToken.json()) as { name: string }).name).toBe('NotFound');
  // Their own is theirs to download, and signed out nobody's.
  expect((await page.request.get(`/api/invoices/${mine.invoice._id}/pdf`)).status()).toBe(200);
  expect((await request.get(url)).status()).toBe(401);
});

test('the page has no axe violations on a phone, in both themes', async ({ page, login }) => {
  // axe twice over a full page: a generous limit for a busy machine.
  test.setTimeout(90_000);
  await login(users.prepaid);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto('/zh-hk/portal/invoices');
    await expect(page.getByTestId('invoice').first()).toBeVisible();
    if (colorScheme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    const results = await axe(page).withTags(AXE_TAGS).analyze();
    expect({
      colorScheme,
      violations: results.violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      ),
    }).toEqual({ colorScheme, violations: [] });
  }
});
