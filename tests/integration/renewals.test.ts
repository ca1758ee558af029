import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../app/context.ts';
import { loadDashboard } from '../../app/routes/portal/dashboard.server.ts';
import { addDays, dayOf, startOfDay } from '../../domain/billing/calendar.ts';
import { removalCredit } from '../../domain/billing/lifecycle.ts';
import type { Caller } from '../../domain/entities/services.ts';
import { translate } from '../../server/i18n.ts';
import { renewalsOf } from '../../server/services/subscriptions/subscriptions.ts';
import { rejectionOf, skipReason, typedService } from './harness.ts';
import { CARDS, eventually, paymentFixture } from './payment-fixture.ts';

/*
 * A subscription's life after the purchase (decision 031): the billing date's charge is made once,
 * off-session, on the card on file, and invoiced; a declined card is tried again 1, 3, 5 and 7 days
 * later with a mail each time, then the add-ons are suspended until a payment goes through; the
 * owner alone may stop the plan at the end the terms allow, or keep it.
 */

interface SubscriptionRow {
  id: string;
  status: string;
  next_pay_date: Date;
  retry_on: Date | null;
  cancel_at: Date | null;
  monthly: number;
  modules: { id: string; monthPrice: number; status?: string }[];
  card: { brand: string; last4: string } | null;
  payment_method: { gateway: string; customerId: string; paymentMethodId: string } | null;
}

/** Noon in Hong Kong on a day. */
const noonOf = (day: string) => new Date(startOfDay(day).getTime() + 12 * 3600 * 1000);

describe.skipIf(skipReason)('renewals and the member’s changes', () => {
  const f = paymentFixture();
  let owner: Caller & { email: string };
  let other: Caller & { email: string };
  let subscriptionId: string;
  let planOrderId: string;
  const row = async () => (await f.knex()('subscriptions').where('id', subscriptionId).first()) as SubscriptionRow;
  const renewals = () => renewalsOf(f.state.server.api);
  const changes = () => typedService(f.state.server.api, 'subscriptionChanges');
  const renewalOrders = () =>
    f
      .knex()('orders')
      .where({ subscription_id: subscriptionId, kind: 'renewal' })
      .orderBy('created_at')
      .select('id', 'status', 'total', 'items', 'idempotency_key') as Promise<
      {
        id: string;
        status: string;
        total: number;
        items: { kind: string; from?: string; to?: string; amount: number }[];
      }[]
    >;
  const mails = (subject: string) =>
    f.knex()('outbox').where({ recipient: owner.email }).whereLike('subject', `%${subject}%`).select('subject', 'text');

  beforeAll(async () => {
    await f.start();
    owner = await f.buyer('renewing');
    other = await f.buyer('other');
    // Twelve months paid ahead: the first renewal falls a year after today.
    const order = await f.order(owner, { prepaidMonths: 12 });
    planOrderId = order._id;
    expect((await f.pay(owner, order, CARDS.success)).status).toBe('succeeded');
    subscriptionId = ((await f.knex()('subscriptions').where('order_id', order._id).first('id')) as { id: string }).id;
  });
  afterAll(async () => {
    await f.state.server?.close();
  });

  it('keeps the card the plan was paid with as the card on file, its references out of the API', async () => {
    const subscription = await row();
    expect(subscription.status).toBe('active');
    expect(subscription.card).toMatchObject({ brand: expect.any(String), last4: '4242' });
    expect(subscription.payment_method).toMatchObject({
      gateway: 'sandbox',
      customerId: expect.any(String),
      paymentMethodId: expect.any(String),
    });
    const seen = (await typedService(f.state.server.api, 'subscriptions').get(
      subscriptionId,
      f.as(owner),
    )) as unknown as Record<string, unknown>;
    expect(seen.card).toMatchObject({ last4: '4242' });
    expect(seen).not.toHaveProperty('paymentMethod');
    expect(JSON.stringify(seen)).not.toContain(subscription.payment_method?.paymentMethodId);
  });

  it('charges the billing date once, off-session, invoices it and moves the next billing date a month on', async () => {
    const before = await row();
    const due = dayOf(before.next_pay_date);
    expect(await renewals().renew(subscriptionId, noonOf(addDays(due, -1)))).toBe('notDue');
    expect(await renewals().renew(subscriptionId, noonOf(due))).toBe('renewed');
    // The same day again, and the whole run: nothing more is charged.
    expect(await renewals().renew(subscriptionId, noonOf(due))).toBe('notDue');
    await renewals().runDue(noonOf(due));
    const [renewal, ...more] = await renewalOrders();
    expect(more).toHaveLength(0);
    expect(renewal).toMatchObject({ status: 'provisioning', total: before.monthly });
    expect(renewal?.items[0]).toMatchObject({ kind: 'plan', from: due });
    const charges = await f.charges(renewal?.id as string);
    expect(charges).toEqual([expect.objectContaining({ status: 'succeeded', amount: before.monthly })]);
    const offSession = (await f.knex()('payment_sandbox_charges').where('id', charges[0]?.id).first('off_session')) as {
      off_session: boolean;
    };
    expect(offSession.off_session).toBe(true);
    const invoice = (await f
      .knex()('invoices')
      .where('order_id', renewal?.id)
      .first('total', 'status', 'subscription_id', 'balance_applied')) as {
      total: number;
      status: string;
      subscription_id: string;
      balance_applied: number;
    };
    // Paid by the card alone: the balance took no part.
    expect(invoice).toMatchObject({
      total: before.monthly,
      status: 'issued',
      subscription_id: subscriptionId,
      balance_applied: 0,
    });
    const after = await row();
    expect(dayOf(after.next_pay_date)).toBe(renewal?.items[0]?.to);
    expect(after.status).toBe('active');
    // The invoice mail, and no staff notice for a routine renewal.
    await eventually(
      async () =>
        (
          await f
            .knex()('outbox')
            .where({ recipient: owner.email })
            .whereLike(
              'text',
              `%${(await f.knex()('invoices').where('order_id', renewal?.id).first('number')).number}%`,
            )
        ).length > 0,
    );
    // The dashboard's balance stays settled.
    const user = { _id: String(owner._id), email: owner.email, role: 'member', name: '' } as SessionUser;
    const dashboard = await loadDashboard({ api: f.state.server.api }, user, noonOf(due));
    expect(dashboard.subscription?.overview.balance.state).toBe('settled');
  });

  it('retries a declined card 1, 3, 5 and 7 days on, mails each failure, then suspends the add-ons until a new card pays', async () => {
    const declined = await f.token(CARDS.declined);
    const gateway = f.state.server.api.get('paymentGateway') as {
      attachPaymentMethod(input: { customerId: string; paymentMethodId: string }): Promise<unknown>;
    };
    const method = (await row()).payment_method as NonNullable<SubscriptionRow['payment_method']>;
    await gateway.attachPaymentMethod({ customerId: method.customerId, paymentMethodId: declined });
    await f
      .knex()('subscriptions')
      .where('id', subscriptionId)
      .update({ payment_method: JSON.stringify({ ...method, paymentMethodId: declined }) });

    const due = dayOf((await row()).next_pay_date);
    expect(await renewals().renew(subscriptionId, noonOf(due))).toBe('failed');
    expect(await row()).toMatchObject({ status: 'past_due' });
    expect(dayOf((await row()).retry_on as Date)).toBe(addDays(due, 1));
    // Not before the retry day.
    expect(await renewals().renew(subscriptionId, noonOf(due))).toBe('waiting');
    for (const [day, status] of [
      [1, 'past_due'],
      [3, 'past_due'],
      [5, 'past_due'],
      [7, 'unpaid'],
    ] as const) {
      expect(await renewals().renew(subscriptionId, noonOf(addDays(due, day)))).toBe('failed');
      expect((await row()).status).toBe(status);
    }
    // Unpaid: nothing more is tried on its own.
    expect(await renewals().renew(subscriptionId, noonOf(addDays(due, 9)))).toBe('unpaid');
    const failures = await f
      .knex()('payments')
      .where('order_id', (await renewalOrders())[1]?.id)
      .select('status');
    expect(failures.map((attempt: { status: string }) => attempt.status)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
    const suspended = await row();
    expect(
      suspended.modules.filter((module) => module.monthPrice > 0).every((module) => module.status === 'suspended'),
    ).toBe(true);
    expect(
      suspended.modules.filter((module) => module.monthPrice === 0).every((module) => module.status !== 'suspended'),
    ).toBe(true);
    // Four "we will try again" mails and one "suspended", in the member's language.
    await eventually(async () => (await mails('could not take your payment')).length === 4);
    await eventually(async () => (await mails('suspended')).length === 1);
    expect((await mails('could not take your payment'))[0]?.text).toContain(
      translate('en', 'purchase.card.card_declined'),
    );

    // Another member cannot put a card on it; a token the gateway does not know changes nothing.
    const good = await f.token(CARDS.success);
    const cards = typedService(f.state.server.api, 'cardChanges');
    expect(
      await rejectionOf(cards.create({ subscription: subscriptionId, paymentMethodId: good }, f.as(other))),
    ).toMatchObject({ code: 404 });
    expect(
      await rejectionOf(
        cards.create(
          { subscription: subscriptionId, paymentMethodId: good, customerId: 'cus_x' } as never,
          f.as(owner),
        ),
      ),
    ).toMatchObject({ code: 400 });
    const unknown = await rejectionOf(
      cards.create(
        { subscription: subscriptionId, paymentMethodId: 'pm_unknown' },
        { ...f.as(owner), headers: { 'x-locale': 'zh-hk' } },
      ),
    );
    expect(unknown).toMatchObject({
      code: 400,
      errors: { paymentMethodId: translate('zh-hk', 'purchase.paymentMethodInvalid') },
    });
    expect((await row()).status).toBe('unpaid');
    // A card the bank declines is kept on file, but pays nothing: the plan stays unpaid.
    const declinedAgain = await f.token(CARDS.declined);
    f.state.server.api.set('clock', () => noonOf(addDays(due, 9)));
    const refused = await cards
      .create({ subscription: subscriptionId, paymentMethodId: declinedAgain }, f.as(owner))
      .finally(() => f.state.server.api.set('clock', undefined));
    expect(refused).toMatchObject({ renewal: 'failed', status: 'unpaid', card: { last4: '0002' } });
    expect(
      (await typedService(f.state.server.api, 'subscriptions').get(subscriptionId, f.as(owner))).card,
    ).toMatchObject({ last4: '0002' });
    // A card that works: the unpaid charge is made on it at once and the add-ons come back.
    f.state.server.api.set('clock', () => noonOf(addDays(due, 10)));
    const changed = await cards
      .create({ subscription: subscriptionId, paymentMethodId: good }, f.as(owner))
      .finally(() => f.state.server.api.set('clock', undefined));
    expect(changed).toMatchObject({ renewal: 'renewed', status: 'active', card: { last4: '4242' } });
    expect(changed).not.toHaveProperty('paymentMethodId');
    expect((await row()).payment_method?.paymentMethodId).toBe(good);
    const back = await row();
    expect(back.status).toBe('active');
    expect(back.retry_on).toBeNull();
    expect(back.modules.some((module) => module.status === 'suspended')).toBe(false);
  });

  it('lets the owner alone stop the plan at the end of its period, and keep it again', async () => {
    const cancel = { subscription: subscriptionId, action: 'cancel' as const };
    expect(await rejectionOf(changes().create(cancel, f.as(other)))).toMatchObject({ code: 404 });
    expect(await rejectionOf(changes().create(cancel, { provider: 'rest', ip: '10.9.9.8' }))).toMatchObject({
      code: 401,
    });
    expect(await rejectionOf(changes().create({ ...cancel, action: 'delete' } as never, f.as(owner)))).toMatchObject({
      code: 400,
    });
    expect(await rejectionOf(changes().create({ ...cancel, status: 'cancelled' } as never, f.as(owner)))).toMatchObject(
      { code: 400 },
    );
    expect((await row()).status).toBe('active');

    const stopped = await changes().create(cancel, f.as(owner));
    const subscription = await row();
    // Lite: no contract, so it stops at the end of the period it is in.
    expect(stopped).toMatchObject({ status: 'non_renewing', cancellation: { kind: 'periodEnd' } });
    expect(subscription.status).toBe('non_renewing');
    expect(dayOf(subscription.cancel_at as Date)).toBe(stopped.cancelAt);

    const kept = await changes().create({ subscription: subscriptionId, action: 'resume' }, f.as(owner));
    expect(kept).toMatchObject({ status: 'active', cancelAt: null });
    const again = await rejectionOf(
      changes().create(
        { subscription: subscriptionId, action: 'resume' },
        { ...f.as(owner), headers: { 'x-locale': 'zh-hk' } },
      ),
    );
    expect(again).toMatchObject({ code: 409, message: translate('zh-hk', 'renewal.notStopping') });

    // Stopped, it ends on its day instead of renewing: nothing is charged.
    const end = (await changes().create(cancel, f.as(owner))).cancelAt as string;
    const ordersBefore = (await renewalOrders()).length;
    expect(await renewals().renew(subscriptionId, noonOf(end))).toBe('cancelled');
    expect((await row()).status).toBe('cancelled');
    expect(await renewalOrders()).toHaveLength(ordersBefore);
    expect(
      await rejectionOf(changes().create({ subscription: subscriptionId, action: 'resume' }, f.as(owner))),
    ).toMatchObject({ code: 409 });
    expect((await f.knex()('orders').where('id', planOrderId).first('status')).status).not.toBe('cancelled');
  });

  it('removes a bought add-on for its owner alone, credits its unused share, and takes the credit off the next charge', async () => {
    const buyer = await f.buyer('removing');
    const order = await f.order(buyer, { prepaidMonths: 12 });
    expect((await f.pay(buyer, order, CARDS.success)).status).toBe('succeeded');
    const id = ((await f.knex()('subscriptions').where('order_id', order._id).first('id')) as { id: string }).id;
    const read = async () =>
      (await f.knex()('subscriptions').where('id', id).first()) as SubscriptionRow & {
        contract_start: Date;
        billing_anchor_day: number;
        prepaid_months: number;
        contract_months: number;
      };
    const before = await read();
    const addOn = before.modules.find((module) => module.id === f.state.addOn) as SubscriptionRow['modules'][number] & {
      count: number;
    };
    // One included in the plan when it has any, else one it does not have: neither is the member's to remove.
    const notTheirs = before.modules.find((module) => module.monthPrice === 0)?.id ?? 'notOnThisPlan';
    const remove = (module: string) => ({ subscription: id, action: 'removeAddOn' as const, module });

    expect(await rejectionOf(changes().create(remove(addOn.id), f.as(other)))).toMatchObject({ code: 404 });
    const refused = await rejectionOf(
      changes().create(remove(notTheirs), { ...f.as(buyer), headers: { 'x-locale': 'zh-hk' } }),
    );
    expect(refused).toMatchObject({ code: 400, errors: { module: translate('zh-hk', 'renewal.notRemovable') } });
    expect(
      await rejectionOf(changes().create({ ...remove(addOn.id), credit: 999_999 } as never, f.as(buyer))),
    ).toMatchObject({ code: 400 });

    const today = dayOf(new Date());
    const terms = {
      start: dayOf(before.contract_start),
      anchorDay: before.billing_anchor_day,
      prepaidMonths: before.prepaid_months,
      contractMonths: before.contract_months,
      period: 'monthly' as const,
    };
    const { credit } = removalCredit(terms, addOn, today);
    expect(credit).toBeGreaterThan(0);
    const answer = await changes().create(remove(addOn.id), f.as(buyer));
    expect(answer.removed).toEqual({
      module: addOn.id,
      credit,
      monthly: before.monthly - addOn.monthPrice * addOn.count,
    });
    const after = await read();
    expect(after.modules.map((module) => module.id)).not.toContain(addOn.id);
    expect(after.monthly).toBe(before.monthly - addOn.monthPrice * addOn.count);
    // Removed once: asked again, there is nothing to remove.
    expect(await rejectionOf(changes().create(remove(addOn.id), f.as(buyer)))).toMatchObject({ code: 400 });
    const entries = await typedService(f.state.server.api, 'balanceEntries').find({
      ...f.as(buyer),
      query: { subscription: id },
    });
    expect(entries.data).toEqual([
      expect.objectContaining({ kind: 'credit', amount: credit, reason: 'addon_removed', module: addOn.id }),
    ]);
    expect(
      (await typedService(f.state.server.api, 'balanceEntries').find({ ...f.as(other), query: { subscription: id } }))
        .data,
    ).toEqual([]);
    const user = { _id: String(buyer._id), email: buyer.email, role: 'member', name: '' } as SessionUser;
    const dashboard = await loadDashboard({ api: f.state.server.api }, user);
    expect(dashboard.subscription?.overview.balance).toMatchObject({ state: 'credit', amount: credit });

    // The next billing date takes the credit off the new monthly price: a year's unused share covers
    // the month, so nothing is charged to the card; the invoice shows the period's price.
    expect(credit).toBeGreaterThan(after.monthly);
    const due = dayOf(after.next_pay_date);
    expect(await renewals().renew(id, noonOf(due))).toBe('renewed');
    const renewal = (await f
      .knex()('orders')
      .where({ subscription_id: id, kind: 'renewal' })
      .first('id', 'total', 'status')) as { id: string; total: number; status: string };
    expect(renewal).toMatchObject({ total: after.monthly, status: 'provisioning' });
    expect(await f.charges(renewal.id)).toEqual([]);
    expect((await f.knex()('invoices').where('order_id', renewal.id).first('total')).total).toBe(after.monthly);
    // The invoice says the balance paid it: its owner reads so through the service.
    const [invoice] = (
      await typedService(f.state.server.api, 'invoices').find({ ...f.as(buyer), query: { order: renewal.id } })
    ).data;
    expect(invoice).toMatchObject({ total: after.monthly, balanceApplied: after.monthly });
    const later = await loadDashboard({ api: f.state.server.api }, user, noonOf(due));
    expect(later.subscription?.overview.balance).toMatchObject({ state: 'credit', amount: credit - after.monthly });
    expect(dayOf((await read()).next_pay_date)).not.toBe(due);
  });

  /** The subscription an order makes once paid by card: the row's billing columns. */
  const paidSubscription = async (
    buyer: Awaited<ReturnType<typeof f.buyer>>,
    order: { _id: string; total: number },
  ) => {
    expect((await f.pay(buyer, order, CARDS.success)).status).toBe('succeeded');
    return (await f
      .knex()('subscriptions')
      .where('order_id', order._id)
      .first('id', 'monthly', 'currency', 'period', 'next_pay_date')) as {
      id: string;
      monthly: number;
      currency: string;
      period: string;
      next_pay_date: Date;
    };
  };

  it('takes a credit smaller than the charge off it: the card pays the rest, and the invoice says how it was paid', async () => {
    const buyer = await f.buyer('part-credit');
    const subscription = await paidSubscription(buyer, await f.order(buyer));
    const credit = Math.floor(subscription.monthly / 4);
    await f
      .knex()('balance_entries')
      .insert({
        id: `credit${Date.now()}`,
        user_id: buyer._id,
        subscription_id: subscription.id,
        kind: 'credit',
        amount: credit,
        currency: subscription.currency,
        reason: 'addon_removed',
      });
    const due = dayOf(subscription.next_pay_date);
    expect(await renewals().renew(subscription.id, noonOf(due))).toBe('renewed');
    const renewal = (await f
      .knex()('orders')
      .where({ subscription_id: subscription.id, kind: 'renewal' })
      .first('id', 'total')) as { id: string; total: number };
    expect(renewal.total).toBe(subscription.monthly);
    expect(await f.charges(renewal.id)).toEqual([
      expect.objectContaining({ status: 'succeeded', amount: subscription.monthly - credit }),
    ]);
    const [invoice] = (
      await typedService(f.state.server.api, 'invoices').find({ ...f.as(buyer), query: { order: renewal.id } })
    ).data;
    expect(invoice).toMatchObject({ total: subscription.monthly, balanceApplied: credit });
  });

  it('bills a plan bought to be paid yearly twelve months at a time once its prepaid months are over; a period that is neither is refused', async () => {
    const buyer = await f.buyer('annual');
    const refused = await rejectionOf(f.order(buyer, { period: 'weekly' as never }));
    expect(refused).toMatchObject({ code: 400 });
    const order = await f.order(buyer, { prepaidMonths: 12, period: 'annual' });
    expect(order).toMatchObject({ period: 'annual' });
    const subscription = await paidSubscription(buyer, order);
    expect(subscription.period).toBe('annual');
    const due = dayOf(subscription.next_pay_date);
    expect(await renewals().renew(subscription.id, noonOf(due))).toBe('renewed');
    const renewal = (await f
      .knex()('orders')
      .where({ subscription_id: subscription.id, kind: 'renewal' })
      .first('id', 'total', 'items')) as {
      id: string;
      total: number;
      items: { kind: string; count: number; from: string; to: string }[];
    };
    // The plan's twelve months (and the add-on's, a monthly one), charged once.
    expect(renewal.items[0]).toMatchObject({ kind: 'plan', count: 12, from: due });
    expect(renewal.total).toBe(subscription.monthly * 12);
    expect(await f.charges(renewal.id)).toEqual([
      expect.objectContaining({ status: 'succeeded', amount: subscription.monthly * 12 }),
    ]);
    // The next billing date is a year on.
    const next = dayOf(
      ((await f.knex()('subscriptions').where('id', subscription.id).first('next_pay_date')) as { next_pay_date: Date })
        .next_pay_date,
    );
    expect(next).toBe(renewal.items[0]?.to);
    expect(Number(next.slice(0, 4)) - Number(due.slice(0, 4))).toBe(1);
  });
});
