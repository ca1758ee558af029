import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../app/context.ts';
import { loadUpgrade } from '../../app/routes/portal/upgrade.server.ts';
import type { Caller } from '../../domain/entities/services.ts';
import { translate } from '../../server/i18n.ts';
import { restCall, rejectionOf, skipReason, typedService } from './harness.ts';
import { billingAddress, CARDS, paymentFixture } from './payment-fixture.ts';

/*
 * Paying for an add-on with the card on file (decision 063): one request, naming no card, charges
 * the card the member's own subscription keeps, on their session, once however often it is sent;
 * a card that cannot pay (none held, declined, expired) changes nothing but the attempt's record,
 * and another card then pays the same order. `paymentOptions` tells the page which it can offer.
 */

const key = () => randomBytes(12).toString('hex');
/** Stripe's test card that attaches to a customer and is declined whenever it is charged. */
const DECLINED_ON_FILE = '4000000000000341';

interface ModuleRow {
  _id: string;
  released: boolean;
  billing: string;
  counter: boolean;
}

interface SubscriptionRow {
  id: string;
  monthly: number;
  modules: { id: string; status?: string }[];
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
  payment_method: { gateway: string; customerId: string; paymentMethodId: string } | null;
}

describe.skipIf(skipReason)('paying an add-on with the card on file', () => {
  const f = paymentFixture();
  /** A member with a plan paid by card, and their subscription. */
  const members: Record<string, { caller: Caller & { email: string }; subscription: string }> = {};
  let addOns: string[] = [];
  const orders = () => typedService(f.state.server.api, 'orders');
  const options = () => typedService(f.state.server.api, 'paymentOptions');
  const subscription = (id: string) => f.knex()('subscriptions').where('id', id).first() as Promise<SubscriptionRow>;

  /** A member who bought a plan with a card (the card on file is that card). */
  async function member(label: string) {
    const caller = await f.buyer(label);
    const order = await f.order(caller);
    expect((await f.pay(caller, order, CARDS.success)).status).toBe('succeeded');
    const row = (await f.knex()('subscriptions').where('order_id', order._id).first('id')) as { id: string };
    members[label] = { caller, subscription: row.id };
    return members[label];
  }

  /** An add-on order for a member's plan (each one a module of its own, not yet on any plan here). */
  async function addOnOrder(who: { caller: Caller; subscription: string }, module = addOns[0] as string) {
    return orders().create(
      { subscription: who.subscription, addOns: [{ id: module }], idempotencyKey: key() },
      f.as(who.caller),
    );
  }

  const onFile = (order: { _id: string; total: number }, over: Record<string, unknown> = {}) => ({
    order: order._id,
    cardOnFile: true as const,
    billingAddress,
    idempotencyKey: key(),
    expectedTotal: order.total,
    ...over,
  });

  /** Puts a card on file through the portal's card page's service (attached, not charged). */
  async function putOnFile(who: { caller: Caller; subscription: string }, number: string) {
    const paymentMethodId = await f.token(number);
    await typedService(f.state.server.api, 'cardChanges').create(
      { subscription: who.subscription, paymentMethodId },
      f.as(who.caller),
    );
  }

  beforeAll(async () => {
    await f.start();
    const catalogue = (await f.state.server.api.service('modules').find({ paginate: false })) as ModuleRow[];
    const plan = (await f.state.server.api.service('appTemplates').get(f.state.plan)) as { modules: { id: string }[] };
    const included = new Set([...plan.modules.map((item) => item.id), f.state.addOn]);
    addOns = catalogue
      .filter(
        (module) => module.released && module.billing === 'monthly' && !module.counter && !included.has(module._id),
      )
      .map((module) => module._id);
    expect(addOns.length).toBeGreaterThan(0);
    await Promise.all(['owner', 'other', 'declined', 'expired', 'challenged', 'demo'].map((label) => member(label)));
  });
  afterAll(async () => {
    await f.state.server?.close();
  });

  it('offers the card on file and the last order’s billing address to its owner alone, keeping the gateway’s references', async () => {
    const { caller, subscription: id } = members.owner!;
    expect(await options().get(id, f.as(caller))).toEqual({
      subscription: id,
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, state: 'ready' },
      billingAddress,
    });
    expect(await rejectionOf(options().get(id, f.as(members.other!.caller)))).toMatchObject({ code: 404 });
    expect(await rejectionOf(options().get('no-such-plan', f.as(caller)))).toMatchObject({ code: 404 });
    // Over REST as the API's callers see it: nothing of the gateway's.
    const token = await restCall(f.state.server.url, 'POST', 'authentication', {
      body: { strategy: 'local', email: caller.email, password: 'Account123' },
    });
    const seen = await restCall(f.state.server.url, 'GET', `paymentOptions/${id}`, {
      token: String(token.body.accessToken),
    });
    expect(seen.status).toBe(200);
    const method = (await subscription(id)).payment_method;
    expect(JSON.stringify(seen.body)).not.toContain(method?.paymentMethodId);
    expect(JSON.stringify(seen.body)).not.toContain(method?.customerId);
    expect((await restCall(f.state.server.url, 'GET', `paymentOptions/${id}`)).status).toBe(401);

    // The upgrade page's loader hands the payment step the same.
    const user = { _id: String(caller._id), email: caller.email, role: 'member', name: null } as SessionUser;
    const page = await loadUpgrade({ api: f.state.server.api }, user, 'en', id, new URL('http://site/en/upgrade'));
    expect(page.subscription?.payWith).toEqual({
      card: expect.objectContaining({ last4: '4242', state: 'ready' }),
      billingAddress,
    });
  });

  it('charges the card on file once, on the member’s session, however often the press is sent, and invoices it paid', async () => {
    const { caller, subscription: id } = members.owner!;
    const before = await subscription(id);
    const order = await addOnOrder(members.owner!);
    const request = onFile(order);
    // A double press: the same request twice at once, then again once settled.
    const [first, second] = await Promise.all([
      f.payments().create(request, f.as(caller)),
      f.payments().create(request, f.as(caller)),
    ]);
    const again = await f.payments().create(request, f.as(caller));
    expect(second._id).toBe(first._id);
    expect(again._id).toBe(first._id);
    expect(first).toMatchObject({
      status: 'succeeded',
      amount: order.total,
      card: { brand: 'visa', last4: '4242' },
      billingAddress,
    });
    expect(await f.attempts(order._id)).toHaveLength(1);
    const charges = (await f
      .knex()('payment_sandbox_charges')
      .whereRaw(`metadata->>'orderId' = ?`, [order._id])
      .select('customer_id', 'payment_method_id', 'off_session', 'amount', 'status')) as Record<string, unknown>[];
    expect(charges).toEqual([
      {
        customer_id: before.payment_method?.customerId,
        payment_method_id: before.payment_method?.paymentMethodId,
        off_session: false,
        amount: order.total,
        status: 'succeeded',
      },
    ]);
    // Provisioned: the module pending on the plan, the invoice paid, the card on file as it was.
    const after = await subscription(id);
    expect(after.modules.find((module) => module.id === addOns[0])).toMatchObject({ status: 'pending' });
    expect(after.payment_method).toEqual(before.payment_method);
    const invoice = (await f.knex()('invoices').where('order_id', order._id).first()) as {
      status: string;
      paid_at: Date | null;
      issued_at: Date;
      card: { last4: string };
      billing_address: unknown;
    };
    expect(invoice).toMatchObject({ status: 'issued', card: { last4: '4242' }, billing_address: billingAddress });
    expect(invoice.paid_at).toBeInstanceOf(Date);
    expect(Math.abs((invoice.paid_at?.getTime() ?? 0) - invoice.issued_at.getTime())).toBeLessThan(60_000);
    // The same key with another way to pay is another request.
    expect(
      await rejectionOf(
        f
          .payments()
          .create({ ...request, cardOnFile: undefined, paymentMethodId: await f.token(CARDS.success) }, f.as(caller)),
      ),
    ).toMatchObject({ code: 422 });
  });

  it('charges only the caller’s own card on file: no card can be named with it, another member’s order is not found', async () => {
    const { caller } = members.other!;
    const owners = members.owner!;
    const order = await addOnOrder(owners, addOns[1] ?? addOns[0]);
    // Another member cannot pay (and so charge a card for) the owner's order.
    expect(await rejectionOf(f.payments().create(onFile(order), f.as(caller)))).toMatchObject({ code: 404 });
    // A card named beside the card on file, or neither: refused before anything.
    const theirs = (await subscription(owners.subscription)).payment_method?.paymentMethodId as string;
    for (const over of [{ paymentMethodId: theirs }, { cardOnFile: undefined }, { cardOnFile: false }]) {
      const refusal = await rejectionOf(f.payments().create(onFile(order, over), f.as(owners.caller)));
      expect(refusal, JSON.stringify(over)).toMatchObject({ code: 400 });
    }
    // The owner's saved card named as a token by another member: it is not theirs to attach.
    const otherOrder = await addOnOrder(members.other!);
    const named = await rejectionOf(
      f
        .payments()
        .create({ ...onFile(otherOrder), cardOnFile: undefined, paymentMethodId: theirs }, f.as(members.other!.caller)),
    );
    expect(named).toMatchObject({ code: 400, errors: { paymentMethodId: expect.any(String) } });
    // A plan's own first order has no card on file to pay it with.
    const planOrder = await f.order(caller);
    expect(await rejectionOf(f.payments().create(onFile(planOrder), f.as(caller)))).toMatchObject({
      code: 409,
      message: translate('en', 'purchase.noCardOnFile'),
    });
    expect(await f.attempts(order._id)).toHaveLength(0);
    expect(await f.attempts(planOrder._id)).toHaveLength(0);
    expect(await f.charges(order._id)).toHaveLength(0);
  });

  it('refuses a card on file no gateway in use holds before writing anything, and the page offers card entry', async () => {
    const demo = members.demo!;
    // As a demo plan's: the card shows, no gateway holds it.
    await f.knex()('subscriptions').where('id', demo.subscription).update({ payment_method: null });
    expect((await options().get(demo.subscription, f.as(demo.caller))).card).toMatchObject({ state: 'unavailable' });
    const order = await addOnOrder(demo);
    const refusal = await rejectionOf(f.payments().create(onFile(order), f.as(demo.caller)));
    expect(refusal).toMatchObject({
      code: 409,
      message: translate('en', 'purchase.noCardOnFile'),
      data: { cardOnFile: 'unavailable' },
    });
    expect(await f.attempts(order._id)).toHaveLength(0);
    expect((await f.orderRow(order._id)).status).toBe('pending_payment');
    // A card typed in pays it.
    expect((await f.pay(demo.caller, order, CARDS.success)).status).toBe('succeeded');
  });

  it('a declined card on file changes nothing but the attempt; another card then pays the same order once', async () => {
    const who = members.declined!;
    await putOnFile(who, DECLINED_ON_FILE);
    expect((await options().get(who.subscription, f.as(who.caller))).card).toMatchObject({
      last4: '0341',
      state: 'ready',
    });
    const before = await subscription(who.subscription);
    const invoicesBefore = await f.knex()('invoices').where('user_id', who.caller._id).count({ n: '*' });
    const order = await addOnOrder(who);
    const declined = await f.payments().create(onFile(order), f.as(who.caller));
    expect(declined).toMatchObject({
      status: 'failed',
      failureCode: 'card_declined',
      failureMessage: 'purchase.card.card_declined',
    });
    // Nothing half-written: the plan, its modules, charge and card on file as they were; no invoice.
    expect(await subscription(who.subscription)).toEqual(before);
    expect(await f.knex()('invoices').where('user_id', who.caller._id).count({ n: '*' })).toEqual(invoicesBefore);
    expect(await f.knex()('invoices').where('order_id', order._id)).toHaveLength(0);
    expect((await f.orderRow(order._id)).status).toBe('payment_failed');
    // The card fields' card pays the same order.
    const paid = await f.pay(who.caller, order, CARDS.success);
    expect(paid).toMatchObject({ status: 'succeeded', card: { last4: '4242' } });
    expect((await f.charges(order._id)).map((charge: { status: string }) => charge.status).sort()).toEqual([
      'failed',
      'succeeded',
    ]);
    expect(await f.knex()('invoices').where('order_id', order._id)).toHaveLength(1);
    // Paying for this order alone: the card on file is still the one the member put there.
    expect((await subscription(who.subscription)).card).toMatchObject({ last4: '0341' });
  });

  it('a card on file past its expiry is shown expired, and the gateway declines it as expired', async () => {
    const who = members.expired!;
    const row = await subscription(who.subscription);
    const lastYear = new Date().getUTCFullYear() - 1;
    await f
      .knex()('subscriptions')
      .where('id', who.subscription)
      .update({ card: JSON.stringify({ ...row.card, expYear: lastYear }) });
    await f
      .knex()('payment_sandbox_payment_methods')
      .where('id', row.payment_method?.paymentMethodId)
      .update({ exp_year: lastYear });
    expect((await options().get(who.subscription, f.as(who.caller))).card).toMatchObject({ state: 'expired' });
    const order = await addOnOrder(who);
    expect(await f.payments().create(onFile(order), f.as(who.caller))).toMatchObject({
      status: 'failed',
      failureCode: 'expired_card',
    });
    expect(await f.knex()('invoices').where('order_id', order._id)).toHaveLength(0);
  });

  it('a card on file the bank wants to check is checked on the member’s session, then paid', async () => {
    const who = members.challenged!;
    await putOnFile(who, CARDS.challenge);
    const order = await addOnOrder(who);
    const attempt = await f.payments().create(onFile(order), f.as(who.caller));
    expect(attempt).toMatchObject({
      status: 'requires_action',
      action: { url: expect.stringContaining('/challenge/') },
    });
    expect(await f.knex()('invoices').where('order_id', order._id)).toHaveLength(0);
    await f.state.sandbox.completeChallenge(attempt.gatewayChargeId as string, 'approve');
    // Settled by the webhook, or by the member's page asking.
    const settled = await f.payments().get(attempt._id, f.as(who.caller));
    expect(settled.status).toBe('succeeded');
    expect(await f.knex()('invoices').where('order_id', order._id)).toHaveLength(1);
    expect(await f.charges(order._id)).toHaveLength(1);
  });
});
