import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../domain/entities/services.ts';
import { translate } from '../../server/i18n.ts';
import { rejectionOf, skipReason } from './harness.ts';
import { billingAddress, CARDS, eventually, paymentFixture } from './payment-fixture.ts';

/**
 * Paying an order through the `payments` service against the sandbox gateway, with the whole
 * server running so the sandbox posts real signed webhooks to /api/paymentWebhooks/sandbox:
 * success and provisioning, declines and retries, 3-D Secure settled by the webhook, double
 * submits, changed prices. Faults, replays and access: payments-faults.test.ts.
 */

describe.skipIf(skipReason)('paying an order', () => {
  const f = paymentFixture();
  let buyer: Caller & { email: string };

  beforeAll(async () => {
    await f.start();
    buyer = await f.buyer();
  });
  afterAll(async () => {
    await f.state.server?.close();
  });

  it('charges the order’s total once, pays and provisions the order, and mails the invoice with the next number', async () => {
    const order = await f.order(buyer);
    const before = (await f.knex()('invoice_sequences').where('seller', 'HK').first('next_number')) as {
      next_number: number;
    };
    const attempt = await f.pay(buyer, order, CARDS.success);
    expect(attempt).toMatchObject({
      order: order._id,
      user: buyer._id,
      status: 'succeeded',
      gateway: 'sandbox',
      amount: order.total,
      currency: 'HKD',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 },
      billingAddress,
      gatewayChargeId: expect.stringMatching(/^ch_/),
    });
    expect(attempt).not.toHaveProperty('requestHash');
    expect(attempt.history.map((move) => `${move.from}>${move.to}`)).toEqual([
      'created>processing',
      'processing>succeeded',
    ]);
    const row = await f.orderRow(order._id);
    expect(row.status).toBe('provisioning');
    expect(row.history.map((move) => move.to)).toEqual(['pending_payment', 'paid', 'provisioning']);
    expect(row.card).toMatchObject({ brand: 'visa', last4: '4242' });
    expect(await f.knex()('subscriptions').where('order_id', order._id)).toHaveLength(1);
    const invoices = await f.knex()('invoices').where('order_id', order._id).select('number', 'total', 'card');
    expect(invoices).toEqual([
      {
        number: `HK-${String(before.next_number).padStart(6, '0')}`,
        total: order.total,
        card: expect.objectContaining({ last4: '4242' }),
      },
    ]);
    const charges = await f.charges(order._id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ status: 'succeeded' });
    expect(Number(charges[0]?.amount)).toBe(order.total);
    // The invoice mail, queued in the paying transaction, reaches the outbox.
    const mails = await eventually(async () => {
      const rows = await f
        .knex()('outbox')
        .where('recipient', buyer.email)
        .where('subject', 'like', `%${order.number}%`)
        .select('subject');
      return rows.length > 0 ? rows : undefined;
    }, 20_000);
    expect(mails?.[0]?.subject).toContain(invoices[0]?.number);
    // The gateway's webhook for the same charge races the answer: whichever comes second changes nothing.
    await f.state.sandbox.webhooks.idle();
    const events = await f.knex()('payment_webhook_events').where('payment_id', attempt._id).select('type', 'outcome');
    expect(events).toEqual([{ type: 'charge.succeeded', outcome: expect.stringMatching(/^(applied|unchanged)$/) }]);
    expect(row.history.filter((move) => move.to === 'paid')).toHaveLength(1);
    // The customer at the gateway is made once per user and kept.
    expect(await f.knex()('payment_customers').where('user_id', buyer._id)).toHaveLength(1);
  });

  it('keeps a declined order, and a retry with another card is a new attempt that pays it', async () => {
    const order = await f.order(buyer);
    const declined = await f.pay(buyer, order, CARDS.declined);
    expect(declined).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
      failureMessage: 'purchase.card.card_declined',
    });
    expect((await f.orderRow(order._id)).status).toBe('payment_failed');
    const paid = await f.pay(buyer, order, CARDS.success);
    expect(paid.status).toBe('succeeded');
    expect(paid._id).not.toBe(declined._id);
    const row = await f.orderRow(order._id);
    expect(row.status).toBe('provisioning');
    expect(row.history.map((move) => move.to)).toEqual([
      'pending_payment',
      'payment_failed',
      'pending_payment',
      'paid',
      'provisioning',
    ]);
    expect((await f.attempts(order._id)).map((attempt) => attempt.status)).toEqual(['failed', 'succeeded']);
    const charges = await f.charges(order._id);
    expect(charges.map((charge) => charge.status).sort()).toEqual(['failed', 'succeeded']);
    // Paid: a third attempt is refused and charges nothing.
    const again = await rejectionOf(f.pay(buyer, order, CARDS.success));
    expect(again).toMatchObject({ code: 409, message: translate('en', 'purchase.orderNotPayable') });
    expect(await f.charges(order._id)).toHaveLength(2);
    // The failure's message key reads in every language.
    expect(translate('zh-hk', 'purchase.card.card_declined')).toContain('拒絕');
  });

  it('fails on insufficient funds with its own reason', async () => {
    const order = await f.order(buyer);
    const attempt = await f.pay(buyer, order, CARDS.insufficientFunds);
    expect(attempt).toMatchObject({
      status: 'failed',
      failureCode: 'insufficient_funds',
      failureMessage: 'purchase.card.insufficient_funds',
    });
    expect((await f.orderRow(order._id)).status).toBe('payment_failed');
    expect(await f.knex()('subscriptions').where('order_id', order._id)).toHaveLength(0);
  });

  it('asks for 3-D Secure, and the challenge passed is settled by the gateway’s webhook', async () => {
    const order = await f.order(buyer);
    const attempt = await f.pay(buyer, order, CARDS.challenge);
    expect(attempt).toMatchObject({
      status: 'requires_action',
      action: { url: expect.stringContaining(`/challenge/${attempt.gatewayChargeId}`) },
    });
    expect((await f.orderRow(order._id)).status).toBe('pending_payment');
    await f.state.sandbox.completeChallenge(attempt.gatewayChargeId as string, 'approve');
    // No read in between: the webhook alone provisions the order.
    await eventually(async () => (await f.orderRow(order._id)).status === 'provisioning');
    const row = (await f.knex()('payments').where('id', attempt._id).first()) as {
      status: string;
      action: unknown;
      history: { to: string; actor: string }[];
    };
    expect(row).toMatchObject({ status: 'succeeded', action: null });
    expect(row.history.at(-1)).toMatchObject({ to: 'succeeded', actor: 'gateway:sandbox' });
    expect(await f.knex()('subscriptions').where('order_id', order._id)).toHaveLength(1);
    expect(await f.charges(order._id)).toHaveLength(1);
  });

  it('settles a 3-D Secure attempt on a read when the webhook has not come yet, and fails it when the challenge fails', async () => {
    const order = await f.order(buyer);
    const attempt = await f.pay(buyer, order, CARDS.challenge);
    // The webhook is held back: the buyer's page asks first.
    f.state.sandbox.setFaults({ webhooks: 'reorder' });
    try {
      await f.state.sandbox.completeChallenge(attempt.gatewayChargeId as string, 'fail');
      const read = await f.payments().get(attempt._id, f.as(buyer));
      expect(read).toMatchObject({
        status: 'failed',
        failureCode: 'authentication_failed',
        failureMessage: 'purchase.card.authentication_failed',
      });
      expect((await f.orderRow(order._id)).status).toBe('payment_failed');
    } finally {
      f.state.sandbox.setFaults({ webhooks: 'normal' });
    }
    await f.state.sandbox.webhooks.idle();
    // The late webhook finds the attempt settled.
    expect(
      await f
        .knex()('payment_webhook_events')
        .where({ payment_id: attempt._id, type: 'charge.failed' })
        .select('outcome'),
    ).toEqual([{ outcome: 'unchanged' }]);
    // The buyer tries again with the challenge card and passes: paid, provisioned once.
    const retry = await f.pay(buyer, order, CARDS.challenge);
    await f.state.sandbox.completeChallenge(retry.gatewayChargeId as string, 'approve');
    await eventually(async () => (await f.payments().get(retry._id, f.as(buyer))).status === 'succeeded');
    await eventually(async () => (await f.orderRow(order._id)).status === 'provisioning');
    expect(await f.knex()('invoices').where('order_id', order._id)).toHaveLength(1);
  });

  it('makes one attempt and one charge of a payment submitted twice at once', async () => {
    const order = await f.order(buyer);
    const request = await f.request(order, CARDS.success);
    const [a, b] = await Promise.all([
      f.payments().create(request, f.as(buyer)),
      f.payments().create({ ...request }, f.as(buyer)),
    ]);
    expect(a._id).toBe(b._id);
    expect(a.status).toBe('succeeded');
    expect(b.status).toBe('succeeded');
    expect(await f.attempts(order._id)).toHaveLength(1);
    expect(await f.charges(order._id)).toHaveLength(1);
    // Sent again later: the same attempt, still one charge.
    expect((await f.payments().create({ ...request }, f.as(buyer)))._id).toBe(a._id);
    expect(await f.charges(order._id)).toHaveLength(1);
  });

  it('answers 422 to the same key with another request, and charges nothing', async () => {
    const order = await f.order(buyer);
    const request = await f.request(order, CARDS.declined);
    await f.payments().create(request, f.as(buyer));
    const other = await rejectionOf(
      f.payments().create({ ...request, paymentMethodId: await f.token(CARDS.success) }, f.as(buyer)),
    );
    expect(other).toMatchObject({ code: 422, message: translate('en', 'purchase.idempotencyMismatch') });
    const address = await rejectionOf(
      f.payments().create({ ...request, billingAddress: { ...billingAddress, line1: '1 Other Road' } }, f.as(buyer)),
    );
    expect(address).toMatchObject({ code: 422 });
    expect(await f.attempts(order._id)).toHaveLength(1);
    expect(await f.charges(order._id)).toHaveLength(1);
  });

  it('refuses a total other than the order’s with 409 and the new total, charging nothing', async () => {
    const order = await f.order(buyer);
    const error = await rejectionOf(f.pay(buyer, order, CARDS.success, { expectedTotal: order.total - 100 }));
    expect(error).toMatchObject({
      code: 409,
      message: translate('en', 'purchase.priceChanged'),
      data: { total: order.total, currency: 'HKD' },
    });
    const zh = await rejectionOf(
      f.payments().create(await f.request(order, CARDS.success, { expectedTotal: 1 }), {
        ...f.as(buyer),
        headers: { 'x-locale': 'zh-hk' },
      }),
    );
    expect(zh.message).toBe(translate('zh-hk', 'purchase.priceChanged'));
    expect(await f.attempts(order._id)).toHaveLength(0);
    expect(await f.charges(order._id)).toHaveLength(0);
    expect((await f.orderRow(order._id)).status).toBe('pending_payment');
  });
});
