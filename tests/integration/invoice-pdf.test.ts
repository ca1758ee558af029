import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../domain/billing/calendar.ts';
import { formatDay, formatMoney } from '../../domain/format.ts';
import type { Locale } from '../../domain/locales.ts';
import { isCurrency } from '../../domain/money.ts';
import { translate } from '../../server/i18n.ts';
import { embeddedFonts, pdfText } from '../pdf-text.ts';
import type { SessionUser } from '../../app/context.ts';
import { loadDashboard } from '../../app/routes/portal/dashboard.server.ts';
import { loadInvoices } from '../../app/routes/portal/invoices.server.ts';
import type { Caller } from '../../domain/entities/services.ts';
import { ADMIN, skipReason, typedService } from './harness.ts';
import { CARDS, paymentFixture } from './payment-fixture.ts';

/*
 * `GET /api/invoices/{id}/pdf` (decision 029) on a running server: a member's invoices as paid
 * through the payment flow (a plan, then an add-on's share of the period), downloaded with a
 * bearer token or the portal's session cookie, in the language asked for; nobody else's.
 */

interface InvoiceRow {
  id: string;
  number: string;
  total: number;
  currency: string;
  lines: { kind: string; from?: string; to?: string }[];
  paid_at: Date;
  issued_at: Date;
}

const PASSWORD = 'Account123';
const TITLES: Record<Locale, string> = { en: 'Tax invoice', 'zh-hk': '稅務發票', 'zh-cn': '税务发票' };
const flat = (text: string) => text.replace(/\s+/g, '');

describe.skipIf(skipReason)('invoices: the portal page and the PDF download', () => {
  const f = paymentFixture();
  const sessionUser = async (id: string): Promise<SessionUser> => {
    const row = (await f.knex()('users').where('id', id).first('id', 'email', 'role')) as {
      id: string;
      email: string;
      role: SessionUser['role'];
    };
    return {
      _id: row.id,
      email: row.email,
      name: null,
      firstName: null,
      lastName: null,
      role: row.role,
      picture: null,
    };
  };
  let url: string;
  let owner: Caller & { email: string };
  let other: Caller & { email: string };
  let ownerToken: string;
  let otherToken: string;
  let staffToken: string;
  let planInvoice: InvoiceRow;
  let addOnInvoice: InvoiceRow;

  const signIn = async (email: string, password: string): Promise<string> => {
    const response = await fetch(`${url}/api/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ strategy: 'local', email, password }),
    });
    const body = (await response.json()) as { accessToken?: string };
    if (!body.accessToken) throw new Error(`could not sign in ${email}: ${JSON.stringify(body)}`);
    return body.accessToken;
  };
  const download = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, { headers });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };
  const pdfPath = (invoice: { id: string }, lang?: string) =>
    `/api/invoices/${invoice.id}/pdf${lang ? `?lang=${lang}` : ''}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const cookie = (token: string) => ({ cookie: `tp_session=${token}` });
  const money = (invoice: InvoiceRow, locale: Locale) =>
    formatMoney({ amount: invoice.total, currency: isCurrency(invoice.currency) ? invoice.currency : 'HKD' }, locale);

  beforeAll(async () => {
    await f.start();
    url = f.state.server.url;
    owner = await f.buyer('owner');
    other = await f.buyer('other');
    const order = await f.order(owner);
    expect((await f.pay(owner, order, CARDS.success)).status).toBe('succeeded');
    // Then an add-on bought mid-period: its invoice holds the share of the days left.
    const subscription = (await f.knex()('subscriptions').where('order_id', order._id).first('id', 'modules')) as {
      id: string;
      modules: { id: string }[];
    };
    const has = new Set(subscription.modules.map((module) => module.id));
    const catalogue = (await f.state.server.api.service('modules').find({ paginate: false })) as {
      _id: string;
      released: boolean;
      billing: string;
      counter: boolean;
    }[];
    const addOn = catalogue.find(
      (module) => module.released && module.billing === 'monthly' && !module.counter && !has.has(module._id),
    );
    if (!addOn) throw new Error('no add-on left to buy');
    const orders = typedService(f.state.server.api, 'orders');
    const upgrade = await orders.create(
      { subscription: subscription.id, addOns: [{ id: addOn._id }], idempotencyKey: randomBytes(12).toString('hex') },
      f.as(owner),
    );
    expect((await f.pay(owner, upgrade, CARDS.success)).status).toBe('succeeded');

    const rows = (await f
      .knex()('invoices')
      .where('user_id', owner._id)
      .orderBy('issued_at')
      .select('id', 'number', 'total', 'currency', 'lines', 'paid_at', 'issued_at')) as InvoiceRow[];
    expect(rows).toHaveLength(2);
    [planInvoice, addOnInvoice] = rows as [InvoiceRow, InvoiceRow];
    [ownerToken, otherToken, staffToken] = await Promise.all([
      signIn(owner.email, PASSWORD),
      signIn(other.email, PASSWORD),
      signIn(ADMIN.email, ADMIN.password),
    ]);
  });
  afterAll(async () => {
    await f.state.server?.close();
  });

  it('gives the owner each invoice as a PDF file in the language asked for, its Chinese text embedded', async () => {
    for (const locale of ['en', 'zh-hk', 'zh-cn'] as const) {
      const answer = await download(pdfPath(planInvoice, locale), bearer(ownerToken));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/pdf');
      expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${planInvoice.number}.pdf"`);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(answer.body.length).toBeLessThan(100_000);
      const { text } = await pdfText(answer.body);
      expect(text).not.toContain('\u0000');
      for (const expected of [TITLES[locale], planInvoice.number, money(planInvoice, locale)])
        expect(flat(text), `${locale}: ${expected}`).toContain(flat(expected));
      // Paid by card: "Paid", and the Hong Kong day it was paid (decision 063), never "Issued".
      const paidDay = formatDay(dayOf(planInvoice.paid_at), locale);
      expect(flat(text)).toContain(
        flat(`${translate(locale, 'invoices.pdf.status')}${translate(locale, 'invoices.statuses.paid')}`),
      );
      expect(flat(text)).toContain(flat(`${translate(locale, 'invoices.pdf.paidDate')}${paidDay}`));
      expect(flat(text)).not.toContain(flat(translate(locale, 'invoices.statuses.issued')));
      expect(
        embeddedFonts(answer.body).some((font) => font.includes(locale === 'zh-cn' ? 'NotoSansSC' : 'NotoSansHK')),
      ).toBe(true);
    }
    // The add-on's invoice words its share by the days it pays for.
    const share = addOnInvoice.lines.find((line) => line.from && line.to);
    expect(share?.from).toBeTruthy();
    const { text } = await pdfText((await download(pdfPath(addOnInvoice, 'zh-hk'), bearer(ownerToken))).body);
    expect(flat(text)).toContain(flat(formatDay(share?.from ?? '', 'zh-hk')));
    expect(flat(text)).toContain(flat(money(addOnInvoice, 'zh-hk')));
  });

  it("takes the portal's session cookie, and the account's language when none of the site's is asked", async () => {
    // Through the service, as the profile page changes it: the sessions it keeps a moment forget the account.
    const users = typedService(f.state.server.api, 'users');
    await users.patch(owner._id, { locale: 'zh-cn' });
    try {
      for (const [lang, title] of [
        [undefined, TITLES['zh-cn']],
        ['fr', TITLES['zh-cn']],
        ['zh-hk', TITLES['zh-hk']],
      ] as const) {
        const answer = await download(pdfPath(planInvoice, lang), cookie(ownerToken));
        expect(answer.status, String(lang)).toBe(200);
        expect(flat((await pdfText(answer.body)).text)).toContain(title);
      }
    } finally {
      await users.patch(owner._id, { locale: null });
    }
    expect(flat((await pdfText((await download(pdfPath(planInvoice), cookie(ownerToken))).body)).text)).toContain(
      flat(TITLES.en),
    );
  });

  it('is the same 404 to another member, by token or cookie, as for an invoice that does not exist; staff download any', async () => {
    const missing = await download(pdfPath({ id: 'f'.repeat(24) }), bearer(otherToken));
    expect(missing.status).toBe(404);
    for (const headers of [bearer(otherToken), cookie(otherToken)]) {
      const answer = await download(pdfPath(planInvoice, 'en'), headers);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body.toString())).toEqual(JSON.parse(missing.body.toString()));
    }
    expect(JSON.parse(missing.body.toString())).toMatchObject({
      code: 404,
      message: translate('en', 'invoices.notFound'),
    });
    // The record itself, through the service, is as far out of reach.
    expect((await download(`/api/invoices/${planInvoice.id}`, bearer(otherToken))).status).toBe(404);

    const staff = await download(pdfPath(addOnInvoice, 'en'), bearer(staffToken));
    expect(staff.status).toBe(200);
    expect(flat((await pdfText(staff.body)).text)).toContain(addOnInvoice.number);
  });

  it('is a 401 signed out or with a token that is not valid, and a 404 for a malformed id', async () => {
    expect((await download(pdfPath(planInvoice))).status).toBe(401);
    expect((await download(pdfPath(planInvoice), bearer('not-a-token'))).status).toBe(401);
    expect((await download(pdfPath(planInvoice), cookie(`${ownerToken}x`))).status).toBe(401);
    // Signed out, nothing is told about the id either.
    expect((await download('/api/invoices/no%20such%20id/pdf')).status).toBe(401);
    for (const id of ['no%20such%20id', `${'a'.repeat(65)}`, '%27%20or%201%3D1']) {
      const answer = await download(`/api/invoices/${id}/pdf`, bearer(ownerToken));
      expect(answer.status, id).toBe(404);
    }
    // A signed-out session is refused even while its token has not expired.
    const session = await signIn(owner.email, PASSWORD);
    const signOut = await fetch(`${url}/api/authentication`, { method: 'DELETE', headers: bearer(session) });
    expect(signOut.status).toBe(200);
    expect((await download(pdfPath(planInvoice), bearer(session))).status).toBe(401);
  });

  it("lists a member's own invoices on the portal page, newest first, and nobody else's", async () => {
    const api = { api: f.state.server.api };
    const own = await loadInvoices(api, await sessionUser(owner._id), 'zh-hk');
    expect(own.total).toBe(2);
    expect(
      own.invoices.map((invoice) => [invoice.number, invoice.kind, invoice.total, invoice.order?.prepaidMonths]),
    ).toEqual([
      [addOnInvoice.number, 'addOns', addOnInvoice.total, 0],
      [planInvoice.number, 'plan', planInvoice.total, 24],
    ]);
    expect(own.invoices[0]?.lines[0]).toMatchObject({
      kind: 'addon',
      from: expect.any(String),
      to: expect.any(String),
    });
    // Each paid by card: shown paid, on the day it was paid, with the card (decision 063).
    for (const [shown, row] of [
      [own.invoices[0], addOnInvoice],
      [own.invoices[1], planInvoice],
    ] as const) {
      expect(row.paid_at).toBeInstanceOf(Date);
      expect(shown).toMatchObject({ status: 'paid', paidOn: dayOf(row.paid_at), card: { last4: '4242' } });
    }
    // Names travel in the page's language only.
    expect(Object.keys(own.invoices[1]?.lines[0]?.name ?? {})).toEqual(['zh-hk']);

    const admin = (await f.knex()('users').where('email', ADMIN.email).first('id')) as { id: string };
    for (const id of [other._id, admin.id])
      expect(await loadInvoices(api, await sessionUser(id), 'en')).toEqual({ invoices: [], total: 0 });
  });

  it('voids a refunded order’s invoice: the portal and the balance read it refunded, owed by nobody', async () => {
    const buyer = await f.buyer('refunded');
    const order = await f.order(buyer);
    const payment = await f.pay(buyer, order, CARDS.success);
    expect(payment.status).toBe('succeeded');
    const before = await loadInvoices({ api: f.state.server.api }, await sessionUser(String(buyer._id)), 'en');
    expect(before.invoices[0]).toMatchObject({ status: 'paid', refundedOn: null });

    // Refunded in full at the gateway: its webhook reverses the sale.
    await f.state.sandbox.refund({
      chargeId: payment.gatewayChargeId as string,
      idempotencyKey: `refund-${order._id}`,
    });
    await f.state.sandbox.webhooks.idle();
    expect((await f.orderRow(order._id)).status).toBe('refunded');
    const row = (await f.knex()('invoices').where('order_id', order._id).first('status', 'paid_at', 'refunded_at')) as {
      status: string;
      paid_at: Date;
      refunded_at: Date | null;
    };
    expect(row.status).toBe('void');
    expect(row.refunded_at).toBeInstanceOf(Date);
    const member = await sessionUser(String(buyer._id));
    const after = await loadInvoices({ api: f.state.server.api }, member, 'en');
    expect(after.invoices[0]).toMatchObject({
      status: 'refunded',
      paidOn: dayOf(row.paid_at),
      refundedOn: dayOf(row.refunded_at as Date),
    });
    // Nothing is owed for it: the void invoice is no debit, the refunded payment no credit.
    const dashboard = await loadDashboard({ api: f.state.server.api }, member);
    expect(dashboard.subscription?.overview.balance).toMatchObject({ amount: 0, state: 'settled' });
    expect(dashboard.invoices[0]).toMatchObject({ status: 'refunded' });

    // The same event again changes nothing.
    const again = await f.state.sandbox.refund({
      chargeId: payment.gatewayChargeId as string,
      idempotencyKey: `refund-${order._id}`,
    });
    expect(again.status).toBe('refunded');
    await f.state.sandbox.webhooks.idle();
    expect(await f.knex()('invoices').where('order_id', order._id).first('refunded_at')).toEqual({
      refunded_at: row.refunded_at,
    });
  });
});
