import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../domain/entities/services.ts';
import { formatIsoDate } from '../../domain/format.ts';
import type { OrderRequest } from '../../domain/orders/request.ts';
import type { ShippingCountry } from '../../domain/orders/countries.ts';
import { priceOrder, type ModuleToPrice, type TemplateToPrice } from '../../domain/orders/pricing.ts';
import { translate } from '../../server/i18n.ts';
import { deliveryDates } from '../../server/purchase/delivery-dates.ts';
import { provisionPaidOrder } from '../../server/services/orders/provision.ts';
import { IllegalTransition, moveOrder, movePayment, tryMove } from '../../server/services/orders/transitions.ts';
import {
  asRest,
  createAccount,
  createTestApp,
  rejectionOf,
  skipReason,
  type TestApp,
  typedService,
} from './harness.ts';

/**
 * The orders service and the records a paid order makes, in-process (as pages and the server call
 * them): server-side pricing and tax, who may buy, idempotency, the transition table and
 * provisioning with gapless invoice numbers. The same rules over REST and socket.io: orders-access.test.ts.
 */

const key = () => randomBytes(12).toString('hex');
/** An attacker's request: more than the typed service takes. */
const forged = (data: object) => data as OrderRequest;

function shipping(country: ShippingCountry = 'HK') {
  const date = deliveryDates(country)[0] as string;
  return country === 'SG'
    ? {
        contactPerson: 'Ann Tan',
        contactNumber: '+65 8123 4567',
        street: '1 Orchard Road',
        city: 'Singapore',
        zipcode: '238801',
        country,
        shippingDate: date,
      }
    : {
        contactPerson: 'Mei Chan',
        contactNumber: '9123 4567',
        room: 'Flat 5A',
        street: '12 Nathan Road',
        district: 'Tsim Sha Tsui',
        city: 'Hong Kong',
        country,
        shippingDate: date,
      };
}

describe.skipIf(skipReason)('orders', () => {
  let app: TestApp;
  let buyer: Caller & { email: string };
  let other: Caller;
  let unverified: Caller;
  let lite: TemplateToPrice & { industry: string };
  let flexiPlus: TemplateToPrice;
  let catalogue: ModuleToPrice[];
  let counterAddOn: ModuleToPrice;
  let plainAddOn: ModuleToPrice;
  let ip = 0;
  const as = (caller: Caller) => ({ ...asRest(caller), ip: `10.7.0.${++ip}` });
  const orders = () => typedService(app.api, 'orders');
  const knex = () => app.database.knex;

  const request = (over: Partial<OrderRequest> = {}): OrderRequest => ({
    plan: lite._id,
    addOns: [{ id: counterAddOn._id, count: 2 }, { id: plainAddOn._id }],
    prepaidMonths: 24,
    shipping: shipping(),
    idempotencyKey: key(),
    ...over,
  });

  async function verifiedMember(label: string, locale?: string): Promise<Caller & { email: string }> {
    const account = await createAccount(knex(), { label });
    await knex()('users')
      .where('id', account._id)
      .update({ email_verified_at: new Date(), ...(locale ? { locale } : {}) });
    return { _id: account._id, role: 'member', email: account.email };
  }

  beforeAll(async () => {
    app = await createTestApp({ quoteLimit: { points: 3, duration: 60 } });
    buyer = await verifiedMember('buyer', 'zh-hk');
    other = await verifiedMember('other');
    const account = await createAccount(knex(), { label: 'unverified', verified: false });
    unverified = { _id: account._id, role: 'member' };
    const templates = (await app.api.service('appTemplates').find({ paginate: false })) as (TemplateToPrice & {
      industry: string;
    })[];
    lite = templates.find((template) => template.key === 'restaurant-lite') as TemplateToPrice & { industry: string };
    flexiPlus = templates.find((template) => template.key === 'restaurant-flexi-plus') as TemplateToPrice;
    catalogue = (await app.api.service('modules').find({ paginate: false })) as ModuleToPrice[];
    const included = new Set(lite.modules.map((item) => item.id));
    const addOns = catalogue.filter(
      (module) => module.released && !included.has(module._id) && module.billing === 'monthly',
    );
    counterAddOn = addOns.find((module) => module.counter) as ModuleToPrice;
    plainAddOn = addOns.find((module) => !module.counter) as ModuleToPrice;
    expect(counterAddOn && plainAddOn).toBeTruthy();
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('placing an order', () => {
    it('prices it on the server, ignoring the prices the browser sent', async () => {
      const tampered = forged({
        ...request(),
        addOns: [
          { id: counterAddOn._id, count: 2, price: 1 },
          { id: plainAddOn._id, monthPrice: 0 },
        ],
        total: 1,
        subtotal: 1,
        monthly: 1,
        items: [{ key: 'restaurant-lite', amount: 1 }],
      });
      const order = await orders().create(tampered, as(buyer));
      const expected = priceOrder(
        lite,
        catalogue,
        { addOns: [{ id: counterAddOn._id, count: 2 }, { id: plainAddOn._id }], prepaidMonths: 24 },
        'HK',
      );
      expect(order).toMatchObject({
        status: 'pending_payment',
        user: buyer._id,
        seller: 'HK',
        currency: 'HKD',
        plan: lite._id,
        industry: lite.industry,
        planType: 'lite',
        total: expected.total,
        subtotal: expected.subtotal,
        monthly: expected.monthly,
        items: expected.items,
        prepaidMonths: 24,
        contractMonths: 0,
      });
      expect(order.total).toBeGreaterThan(1_000_000);
      expect(order.number).toMatch(/^TP-[A-Z2-7]{8}$/);
      expect(order.history).toEqual([
        { from: 'draft', to: 'pending_payment', at: expect.any(String), actor: buyer._id, reason: 'order placed' },
      ]);
      // The request's digest stays on the server.
      expect(order).not.toHaveProperty('requestHash');
      // The quote the summary shows is the same price.
      const quote = await typedService(app.api, 'quotes').create(
        {
          plan: lite._id,
          addOns: [{ id: counterAddOn._id, count: 2 }, { id: plainAddOn._id }],
          prepaidMonths: 24,
          country: 'HK',
        },
        as(buyer),
      );
      expect(quote).toEqual(expected);
    });

    it('refuses what is not the buyer’s to say, and makes every order the caller’s own', async () => {
      for (const extra of [
        { status: 'paid' },
        { number: 'TP-AAAAAAAA' },
        { history: [] },
        { card: { brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030 } },
      ]) {
        const error = await rejectionOf(orders().create(forged({ ...request(), ...extra }), as(buyer)));
        expect(error, JSON.stringify(extra)).toMatchObject({ code: 400 });
      }
      // Naming another owner places the order for the caller, never for them.
      const mine = await orders().create(forged({ ...request(), user: other._id }), as(buyer));
      expect(mine.user).toBe(buyer._id);
      expect(await knex()('orders').where('user_id', other._id)).toEqual([]);
    });

    it('sells Singapore GST-inclusive in SGD, and Hong Kong with no tax line', async () => {
      const sg = await orders().create(request({ shipping: shipping('SG') }), as(buyer));
      expect(sg).toMatchObject({ seller: 'SG', currency: 'SGD', taxRate: 900 });
      expect(sg.tax).toBe(Math.round((sg.total * 900) / 10_900));
      expect(sg.total).toBe(sg.subtotal);
      const hk = await orders().create(request(), as(buyer));
      expect(hk).toMatchObject({ seller: 'HK', currency: 'HKD', taxRate: 0, tax: 0 });
      expect(hk.total).toBe(hk.subtotal);
    });

    it('refuses enterprise plans, which are enquired about, in quotes and orders', async () => {
      const error = await rejectionOf(orders().create(request({ plan: flexiPlus._id, addOns: [] }), as(buyer)));
      expect(error).toMatchObject({ code: 400, errors: { plan: translate('en', 'purchase.enterprise') } });
      const quote = await rejectionOf(
        typedService(app.api, 'quotes').create(
          { plan: flexiPlus._id, addOns: [], prepaidMonths: 24, country: 'HK' },
          as(buyer),
        ),
      );
      expect(quote).toMatchObject({ code: 400, errors: { plan: translate('en', 'purchase.enterprise') } });
    });

    it('needs a verified email (403), a signed-in buyer (401) and a delivery day on offer', async () => {
      const error = await rejectionOf(orders().create(request(), as(unverified)));
      expect(error).toMatchObject({ code: 403, message: translate('en', 'purchase.verifyFirst') });
      expect(await rejectionOf(orders().create(request(), { provider: 'rest' }))).toMatchObject({ code: 401 });
      const saturday = deliveryDates('HK')
        .map((day) => new Date(`${day}T00:00:00Z`))
        .find((day) => day.getUTCDay() === 5) as Date;
      saturday.setUTCDate(saturday.getUTCDate() + 1);
      const weekend = await rejectionOf(
        orders().create(
          request({ shipping: { ...shipping(), shippingDate: saturday.toISOString().slice(0, 10) } }),
          as(buyer),
        ),
      );
      expect(weekend).toMatchObject({
        code: 400,
        errors: { 'shipping.shippingDate': translate('en', 'purchase.dateUnavailable') },
      });
      const noDate = await rejectionOf(
        orders().create(request({ shipping: { ...shipping(), shippingDate: '' } }), {
          ...as(buyer),
          headers: { 'x-locale': 'zh-hk' },
        }),
      );
      expect(noDate).toMatchObject({ code: 400, errors: { 'shipping.shippingDate': '請選擇日期。' } });
      expect(await knex()('orders').where('user_id', unverified._id)).toEqual([]);
    });

    it('answers the first order to the same key and request, and 422 to the same key with another request', async () => {
      const first = request();
      const order = await orders().create(first, as(buyer));
      expect((await orders().create({ ...first }, as(buyer)))._id).toBe(order._id);
      const changed = await rejectionOf(orders().create({ ...first, prepaidMonths: 36 }, as(buyer)));
      expect(changed).toMatchObject({ code: 422, message: translate('en', 'purchase.idempotencyMismatch') });
      // Another buyer's key is their own.
      const theirs = await orders().create({ ...first }, as(other));
      expect(theirs._id).not.toBe(order._id);
    });

    it('makes one order of two identical requests sent at once', async () => {
      const same = request();
      const [a, b] = await Promise.all([orders().create(same, as(buyer)), orders().create({ ...same }, as(buyer))]);
      expect(a._id).toBe(b._id);
      const rows = await knex()('orders').where({ user_id: buyer._id, idempotency_key: same.idempotencyKey });
      expect(rows).toHaveLength(1);
    });

    it('limits prices asked for per address', async () => {
      const ask = { plan: lite._id, addOns: [], prepaidMonths: 12, country: 'TW' as const };
      const from = { provider: 'rest', ip: '10.8.0.1' };
      for (let i = 0; i < 3; i += 1)
        expect(await typedService(app.api, 'quotes').create(ask, from)).toMatchObject({
          seller: 'HK',
          currency: 'HKD',
        });
      expect(await rejectionOf(typedService(app.api, 'quotes').create(ask, from))).toMatchObject({ code: 429 });
    });
  });

  describe('the status', () => {
    it('cannot be patched by the buyer, an editor, or an admin, in any syntax', async () => {
      const order = await orders().create(request(), as(buyer));
      const editor = await createAccount(knex(), { role: 'editor' });
      const admin = await createAccount(knex(), { role: 'admin' });
      const patches: Record<string, unknown>[] = [
        { status: 'paid' },
        { $set: { status: 'paid' } },
        { total: 1 },
        {
          $push: {
            history: { from: 'pending_payment', to: 'paid', at: new Date().toISOString(), actor: 'me', reason: 'x' },
          },
        },
        { $set: { 'history.$.to': 'paid' } },
        { $pull: { history: { to: 'pending_payment' } } },
        { $set: { 'items.$.amount': 0 } },
      ];
      for (const caller of [buyer, { _id: editor._id, role: 'editor' }, { _id: admin._id, role: 'admin' }]) {
        for (const patch of patches) {
          const error = await rejectionOf(
            orders().patch(order._id, patch as never, { ...as(caller), query: { 'items.key': 'x' } as never }),
          );
          expect([400, 403], `${caller.role} ${JSON.stringify(patch)}: ${error.code}`).toContain(error.code);
        }
      }
      // Not even the server's own patch writes it: states move through the transition table alone.
      expect(await rejectionOf(orders().patch(order._id, { status: 'paid' } as never))).toMatchObject({ code: 400 });
      const stored = await knex()('orders').where('id', order._id).first('status', 'total', 'history');
      expect(stored).toMatchObject({ status: 'pending_payment', total: order.total, history: order.history });
      // The shipping address is the one field an admin corrects.
      const corrected = await orders().patch(
        order._id,
        { shipping: { ...order.shipping, room: 'Flat 6B' } },
        as({ _id: admin._id, role: 'admin' }),
      );
      expect(corrected.shipping.room).toBe('Flat 6B');
    });
  });

  describe('transitions', () => {
    it('refuse a move outside the table, and record every move in the history', async () => {
      const order = await orders().create(request(), as(buyer));
      await expect(
        moveOrder(knex(), order._id, 'completed', { actor: 'system', reason: 'skipping ahead' }),
      ).rejects.toBeInstanceOf(IllegalTransition);
      const failed = await moveOrder(knex(), order._id, 'payment_failed', {
        actor: 'gateway:sandbox',
        reason: 'card declined',
      });
      expect(failed).toMatchObject({
        from: 'pending_payment',
        to: 'payment_failed',
        actor: 'gateway:sandbox',
        reason: 'card declined',
      });
      await moveOrder(knex(), order._id, 'pending_payment', { actor: buyer._id, reason: 'retry' });
      await moveOrder(knex(), order._id, 'paid', { actor: 'gateway:sandbox', reason: 'charge succeeded' });
      // A late event for an earlier state is ignored by event handlers, never moving backwards.
      expect(
        await tryMove(knex(), 'order', order._id, 'payment_failed', {
          actor: 'gateway:sandbox',
          reason: 'late decline',
        }),
      ).toBe(false);
      expect(await tryMove(knex(), 'order', order._id, 'paid', { actor: 'gateway:sandbox', reason: 'duplicate' })).toBe(
        false,
      );
      const stored = await orders().get(order._id);
      expect(stored.status).toBe('paid');
      expect(stored.history.map((move) => `${move.from}>${move.to}`)).toEqual([
        'draft>pending_payment',
        'pending_payment>payment_failed',
        'payment_failed>pending_payment',
        'pending_payment>paid',
      ]);
      expect(stored.history.every((move) => !Number.isNaN(Date.parse(move.at)))).toBe(true);
    });

    it('move payment attempts through their own table', async () => {
      const order = await orders().create(request(), as(buyer));
      const id = `pay${key()}`;
      await knex()('payments').insert({
        id,
        order_id: order._id,
        user_id: buyer._id,
        gateway: 'sandbox',
        amount: order.total,
        currency: order.currency,
        idempotency_key: key(),
        request_hash: 'test',
      });
      await movePayment(knex(), id, 'requires_action', { actor: 'gateway:sandbox', reason: '3-D Secure' });
      await movePayment(knex(), id, 'succeeded', { actor: 'gateway:sandbox', reason: 'challenge passed' });
      await expect(
        movePayment(knex(), id, 'failed', { actor: 'gateway:sandbox', reason: 'late' }),
      ).rejects.toMatchObject({ code: 409 });
      expect(
        await tryMove(knex(), 'payment', id, 'processing', { actor: 'gateway:sandbox', reason: 'out of order' }),
      ).toBe(false);
      const row = await knex()('payments').where('id', id).first('status', 'history');
      expect(row.status).toBe('succeeded');
      expect((row.history as { to: string }[]).map((move) => move.to)).toEqual(['requires_action', 'succeeded']);
    });
  });

  describe('provisioning a paid order', () => {
    async function paidOrder(over: Partial<OrderRequest> = {}) {
      const order = await orders().create(request(over), as(buyer));
      await moveOrder(knex(), order._id, 'paid', { actor: 'gateway:sandbox', reason: 'charge succeeded' });
      return order;
    }

    it('makes one subscription and one invoice, moves the order on, and does nothing the second time', async () => {
      const order = await paidOrder({ plan: lite._id, prepaidMonths: 24 });
      const result = await knex().transaction((trx) => provisionPaidOrder(app.api, trx, order._id, 'system'));
      expect(result).toMatchObject({ provisioned: true, invoiceNumber: expect.stringMatching(/^HK-\d{6}$/) });
      const again = await knex().transaction((trx) => provisionPaidOrder(app.api, trx, order._id, 'system'));
      expect(again).toEqual({ ...result, provisioned: false });
      expect(await knex()('subscriptions').where('order_id', order._id)).toHaveLength(1);
      expect(await knex()('invoices').where('order_id', order._id)).toHaveLength(1);

      const subscription = (
        await typedService(app.api, 'subscriptions').find({ paginate: false, query: { order: order._id } })
      )[0];
      const paidAt = (await orders().get(order._id)).history.find((move) => move.to === 'paid')?.at as string;
      expect(subscription).toMatchObject({
        user: buyer._id,
        plan: lite._id,
        planType: 'lite',
        currency: 'HKD',
        monthly: order.monthly,
        period: 'monthly',
        prepaidMonths: 24,
        contractMonths: 0,
        status: 'active',
      });
      expect(subscription?.contractStart.toISOString()).toBe(paidAt);
      expect(subscription?.billingAnchorDay).toBe(Number(formatIsoDate(paidAt, 'Asia/Hong_Kong').slice(8)));
      // Lite has no contract: the term is the 24 prepaid months, billed monthly after them.
      expect(subscription?.contractEnd.getTime()).toBe(subscription?.nextPayDate.getTime());
      expect(subscription?.modules).toEqual(
        expect.arrayContaining([
          { id: counterAddOn._id, count: 2, monthPrice: counterAddOn.monthPrice, billing: 'monthly' },
        ]),
      );

      const invoice = await typedService(app.api, 'invoices').get(result.invoiceId as string);
      expect(invoice).toMatchObject({
        number: result.invoiceNumber,
        seller: 'HK',
        order: order._id,
        subscription: subscription?._id,
        total: order.total,
        tax: 0,
        lines: order.items,
        status: 'issued',
      });
      expect((await orders().get(order._id)).status).toBe('provisioning');
      // A pending order is not provisioned.
      const pending = await orders().create(request(), as(buyer));
      await expect(
        knex().transaction((trx) => provisionPaidOrder(app.api, trx, pending._id, 'system')),
      ).rejects.toMatchObject({ code: 409 });
    });

    it('numbers invoices without gaps per seller when ten orders are provisioned at once', async () => {
      const paid = [];
      for (let i = 0; i < 10; i += 1) paid.push(await paidOrder({ shipping: shipping('SG') }));
      const before = (await knex()('invoice_sequences').where('seller', 'SG').first('next_number')) as {
        next_number: number;
      };
      const results = await Promise.all(
        paid.map((order) => knex().transaction((trx) => provisionPaidOrder(app.api, trx, order._id, 'system'))),
      );
      const numbers = results.map((result) => result.invoiceNumber).sort();
      const expected = Array.from({ length: 10 }, (_, i) => `SG-${String(before.next_number + i).padStart(6, '0')}`);
      expect(numbers).toEqual(expected);
      expect(
        await knex()('invoices').whereIn(
          'order_id',
          paid.map((order) => order._id),
        ),
      ).toHaveLength(10);
    });

    it('mails the buyer the invoice in their language, and tells staff', async () => {
      const order = await paidOrder({ shipping: shipping('SG') });
      const result = await knex().transaction((trx) => provisionPaidOrder(app.api, trx, order._id, 'system'));
      const deadline = Date.now() + 20_000;
      let mails: { recipient: string; subject: string; text: string }[] = [];
      while (Date.now() < deadline) {
        mails = await knex()('outbox')
          .where('subject', 'like', `%${order.number}%`)
          .select('recipient', 'subject', 'text');
        if (mails.length >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const toBuyer = mails.find((mail) => mail.recipient === buyer.email);
      expect(toBuyer?.subject).toContain('發票');
      expect(toBuyer?.subject).toContain(result.invoiceNumber);
      expect(toBuyer?.text).toContain('已包括消費稅 9%');
      expect(toBuyer?.text).toContain(order.shipping.shippingDate);
      expect(mails.some((mail) => mail.recipient !== buyer.email && mail.subject.includes('paid'))).toBe(true);
    });
  });
});
