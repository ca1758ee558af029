/**
 * The member's invoices in WebKit and Firefox (decision 029): signed in from the page's own
 * address, the member sees their invoices on a phone, and the link of one answers the PDF file
 * to the page's own session (the link's request as the browser sends it, cookie and all). The
 * download itself, the languages and the refusals are tested in Chromium (invoices.spec.ts).
 */
import { upgradeMembers } from '../users.ts';
import { expect, logInOnTheWayTo, PHONE, test, until } from './fixtures.ts';

const HEADING = { en: 'Invoices', 'zh-cn': '发票' } as const;

test('a member lists their invoices on a phone and their PDF link answers the file', async ({ openTab, engine }) => {
  test.setTimeout(120_000);
  const lang = engine === 'webkit' ? 'en' : 'zh-cn';
  const member = engine === 'webkit' ? upgradeMembers.webkit : upgradeMembers.firefox;
  const tab = await openTab(PHONE);
  await logInOnTheWayTo(tab, `/${lang}/portal/invoices`, member);
  await until(
    tab,
    'the member reaches their invoices',
    (path) => window.location.pathname === path && document.querySelector('[data-testid="invoice"]') !== null,
    `/${lang}/portal/invoices`,
  );
  expect(await tab.evaluate(() => document.querySelector('h1')?.textContent ?? '')).toBe(HEADING[lang]);

  const link = await tab.evaluate(() => {
    const anchor = document.querySelector<HTMLAnchorElement>(
      '[data-testid="invoice"] [data-testid="invoice-download"]',
    );
    return {
      href: anchor?.getAttribute('href') ?? '',
      download: anchor?.getAttribute('download') ?? '',
      number: document.querySelector('[data-testid="invoice-number"]')?.textContent ?? '',
    };
  });
  expect(link.href).toMatch(new RegExp(`^/api/invoices/[\\w-]+/pdf\\?lang=${lang}$`));
  expect(link.download).toBe(`${link.number}.pdf`);
  const answer = await tab.evaluate(async (href) => {
    const response = await fetch(href, { credentials: 'same-origin' });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      disposition: response.headers.get('content-disposition'),
      start: String.fromCharCode(...bytes.subarray(0, 5)),
    };
  }, link.href);
  expect(answer).toEqual({
    status: 200,
    type: 'application/pdf',
    disposition: `attachment; filename="${link.number}.pdf"`,
    start: '%PDF-',
  });
});
