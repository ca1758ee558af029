import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../app/context.ts';
import { loadDashboard } from '../../app/routes/portal/dashboard.server.ts';
import { loadUpgrade } from '../../app/routes/portal/upgrade.server.ts';
import { estimatedAvailableDay } from '../../domain/billing/availability.ts';
import { dayOf } from '../../domain/billing/calendar.ts';
import type { Caller } from '../../domain/entities/services.ts';
import type { UpgradePrice } from '../../domain/billing/upgrade.ts';
import { translate } from '../../server/i18n.ts';
import { asRest, rejectionOf, skipReason, typedService } from './harness.ts';
import { CARDS, paymentFixture } from './payment-fixture.ts';

/*
 * Adding modules to a subscription (decision 026): the price shown before paying is the price
 * charged, once; what cannot be added is refused with a message; the subscription, its invoice
 * and the dashboard follow; staff set the modules up; nobody reaches another member's.
 */

const key = () => randomBytes(12).toString('hex');

interface ModuleRow {
  _id: string;
  key: string;
  released: boolean;
  billing: string;
  counter: boolean;
  monthPrice: number;
}

describe.skipIf(skipReason)('add-on upgrades', () => {
  const f = paymentFixture();
  let owner: Caller & { email: string };
  let other: Caller & { email: string };
  let subscriptionId: string;
  let counterModule: ModuleRow;
  let oneTimeModule: ModuleRow;
  let staff: Caller;
  const orders = () => typedService(f.state.server.api, 'orders');
  const quotes = () => typedService(f.state.server.api, 'quotes');
  const fulfilments = () => typedService(f.state.server.api, 'fulfilments');
  const subscriptionRow = () =>
    f.knex()('subscriptions').where('id', subscriptionId).first() as Promise<{
      monthly: number;
      modules: {
        id: string;
        count: number;
        status?: string;
        order?: string;
        availableOn?: string;
        monthPrice: number;
      }[];
    }>;

  beforeAll(async () => {
    await f.start();
    owner = await f.buyer('owner');
    other = await f.buyer('other');
    const order = await f.order(owner);
    expect((await f.pay(owner, order, CARDS.success)).status).toBe('succeeded');
    subscriptionId = ((await f.knex()('subscriptions').where('order_id', order._id).first('id')) as { id: string }).id;
    const catalogue = (await f.state.server.api.service('modules').find({ paginate: false })) as ModuleRow[];
    const has = new Set((await subscriptionRow()).modules.map((module) => module.id));
    counterModule = catalogue.find(
      (module) => module.released && module.counter && module.billing === 'monthly' && !has.has(module._id),
    ) as ModuleRow;
    oneTimeModule = catalogue.find(
      (module) => module.released && module.billing === 'one_time' && !has.has(module._id),
    ) as ModuleRow;
    expect(counterModule && oneTimeModule).toBeTruthy();
    const admin = (await f.knex()('users').where('role', 'admin').first('id')) as { id: string };
    staff = { _id: admin.id, role: 'admin' };
  });
  afterAll(async () => {
    await f.state.server?.close();
  });
  /** The owner as the site's pages know a signed-in member (the loaders' caller). */
  const ownerSession = async (): Promise<SessionUser> => {
    const account = (await f.knex()('users').where('id', owner._id).first('email', 'name')) as {
      email: string;
      name: string | null;
    };
    return {
      _id: String(owner._id),
      email: account.email,
      name: account.name,
      firstName: null,
      lastName: null,
      role: 'member',
      picture: null,
    };
  };

  it('quotes the prorated share for its owner alone, and the order is priced the same', async () => {
    const choice = {
      subscription: subscriptionId,
      addOns: [{ id: counterModule._id, count: 2 }, { id: oneTimeModule._id }],
    };
    const quote: UpgradePrice = await quotes().create(choice, f.as(owner));
    const counterLine = quote.items[0];
    expect(counterLine).toMatchObject({
      module: counterModule._id,
      count: 2,
      unitPrice: counterModule.monthPrice,
      billing: 'monthly',
    });
    expect(counterLine?.amount).toBeLessThanOrEqual(counterModule.monthPrice * 2 * 24);
    expect(quote.items[1]).toMatchObject({
      module: oneTimeModule._id,
      amount: oneTimeModule.monthPrice,
      remainingDays: 0,
    });
    expect(quote.total).toBe(quote.items.reduce((sum, line) => sum + line.amount, 0));
    expect(quote.monthlyAfter - quote.monthlyBefore).toBe(counterModule.monthPrice * 2);

    // Another member, or nobody, cannot price it.
    expect(await rejectionOf(quotes().create(choice, f.as(other)))).toMatchObject({ code: 404 });
    expect(await rejectionOf(quotes().create(choice, { provider: 'rest', ip: '10.9.9.9' }))).toMatchObject({
      code: 401,
    });
    expect(await rejectionOf(orders().create({ ...choice, idempotencyKey: key() }, f.as(other)))).toMatchObject({
      code: 404,
    });

    const order = await orders().create({ ...choice, idempotencyKey: key() }, f.as(owner));
    expect(order).toMatchObject({
      kind: 'addon',
      subscription: subscriptionId,
      status: 'pending_payment',
      total: quote.total,
      currency: 'HKD',
    });
    expect(order.items[0]).toMatchObject({ amount: counterLine?.amount, to: counterLine?.periodEnd });
  });

  it('refuses a module the subscription has, one not sold to its industry, and an empty choice, in the caller’s language', async () => {
    const has = (await subscriptionRow()).modules[0]?.id as string;
    const active = await rejectionOf(
      quotes().create(
        { subscription: subscriptionId, addOns: [{ id: has }] },
        { ...f.as(owner), headers: { 'x-locale': 'zh-hk' } },
      ),
    );
    expect(active).toMatchObject({ code: 400, errors: { 'addOns.0': translate('zh-hk', 'upgrade.alreadyActive') } });
    const empty = await rejectionOf(
      orders().create({ subscription: subscriptionId, addOns: [], idempotencyKey: key() }, f.as(owner)),
    );
    expect(empty).toMatchObject({ code: 400, errors: { addOns: translate('en', 'upgrade.empty') } });

    const retail = (await f.knex()('industries').where('key', 'retail').first('id')) as { id: string };
    const modules = typedService(f.state.server.api, 'modules');
    await modules.patch(counterModule._id, { industries: [retail.id] }, asRest(staff));
    try {
      const notForIndustry = await rejectionOf(
        quotes().create({ subscription: subscriptionId, addOns: [{ id: counterModule._id }] }, f.as(owner)),
      );
      expect(notForIndustry).toMatchObject({
        code: 400,
        errors: { 'addOns.0': translate('en', 'upgrade.notForIndustry') },
      });
    } finally {
      await modules.patch(counterModule._id, { industries: [] }, asRest(staff));
    }
  });

  it('replaces an unpaid add-on order with a newer one, and answers a repeated key with the same order', async () => {
    const first = await orders().create(
      { subscription: subscriptionId, addOns: [{ id: counterModule._id }], idempotencyKey: key() },
      f.as(owner),
    );
    const again = key();
    const second = await orders().create(
      { subscription: subscriptionId, addOns: [{ id: counterModule._id, count: 3 }], idempotencyKey: again },
      f.as(owner),
    );
    expect((await f.orderRow(first._id)).status).toBe('cancelled');
    const repeated = await orders().create(
      { subscription: subscriptionId, addOns: [{ id: counterModule._id, count: 3 }], idempotencyKey: again },
      f.as(owner),
    );
    expect(repeated._id).toBe(second._id);
    const mismatch = await rejectionOf(
      orders().create(
        { subscription: subscriptionId, addOns: [{ id: counterModule._id, count: 4 }], idempotencyKey: again },
        f.as(owner),
      ),
    );
    expect(mismatch).toMatchObject({ code: 422 });
    // A cancelled order cannot be paid.
    expect(await rejectionOf(f.pay(owner, first, CARDS.success))).toMatchObject({ code: 409 });
  });

  it('charges once on a double submit, adds the modules as pending, invoices the share, and keeps the balance settled', async () => {
    const before = await subscriptionRow();
    const order = await orders().create(
      { subscription: subscriptionId, addOns: [{ id: counterModule._id, count: 2 }], idempotencyKey: key() },
      f.as(owner),
    );
    const request = await f.request(order, CARDS.success);
    const [a, b] = await Promise.all([
      f.payments().create(request, f.as(owner)),
      f.payments().create(request, f.as(owner)),
    ]);
    expect(a._id).toBe(b._id);
    expect(a.status).toBe('succeeded');
    const charges = await f.charges(order._id);
    expect(charges).toHaveLength(1);
    expect(Number(charges[0]?.amount)).toBe(order.total);

    const after = await subscriptionRow();
    const added = after.modules.find((module) => module.id === counterModule._id);
    expect(added).toMatchObject({
      count: 2,
      status: 'pending',
      order: order._id,
      monthPrice: counterModule.monthPrice,
      availableOn: estimatedAvailableDay('HK', new Date()),
    });
    expect(after.monthly).toBe(before.monthly + counterModule.monthPrice * 2);
    expect((await f.orderRow(order._id)).status).toBe('provisioning');
    const invoice = await f.knex()('invoices').where('order_id', order._id).first('total', 'subscription_id', 'lines');
    expect(invoice).toMatchObject({ total: order.total, subscription_id: subscriptionId });

    // Adding it again is refused now that the subscription has it.
    const twice = await rejectionOf(
      orders().create(
        { subscription: subscriptionId, addOns: [{ id: counterModule._id }], idempotencyKey: key() },
        f.as(owner),
      ),
    );
    expect(twice).toMatchObject({ code: 400, errors: { 'addOns.0': translate('en', 'upgrade.alreadyActive') } });

    // The dashboard counts the add-on's invoice and its payment: nothing is owed; the module shows as pending.
    const member = await ownerSession();
    const dashboard = await loadDashboard({ api: f.state.server.api }, member);
    expect(dashboard.subscription?.overview.balance).toMatchObject({ amount: 0, state: 'settled' });
    expect(dashboard.subscription?.overview.activated.find((module) => module.id === counterModule._id)).toMatchObject({
      pending: true,
      availableOn: added?.availableOn,
    });
    expect(dashboard.subscription?.overview.inactiveAddOns.some((module) => module.id === counterModule._id)).toBe(
      false,
    );
    expect(dashboard.invoices.map((row) => row.total)).toContain(order.total);

    // Staff set it up: the member cannot; the module turns active, the order completes, and listeners hear of it.
    expect(await rejectionOf(fulfilments().create({ order: order._id }, f.as(owner)))).toMatchObject({ code: 403 });
    const heard = new Promise<{ _id: string; modules: { id: string; status?: string }[] }>((resolve) => {
      f.state.server.api
        .service('subscriptions')
        .once('patched', (record: { _id: string; modules: { id: string; status?: string }[] }) => resolve(record));
    });
    expect(await fulfilments().create({ order: order._id }, asRest(staff))).toEqual({
      order: order._id,
      status: 'completed',
    });
    const event = await heard;
    expect(event._id).toBe(subscriptionId);
    expect(event.modules.find((module) => module.id === counterModule._id)?.status).toBe('active');
    expect((await f.orderRow(order._id)).status).toBe('completed');
    expect(await rejectionOf(fulfilments().create({ order: order._id }, asRest(staff)))).toMatchObject({ code: 409 });
    expect(await rejectionOf(fulfilments().create({ order: '../x' }, asRest(staff)))).toMatchObject({ code: 400 });
    const overview = (await loadDashboard({ api: f.state.server.api }, member)).subscription?.overview;
    expect(overview?.activated.find((module) => module.id === counterModule._id)).toMatchObject({
      pending: false,
      availableOn: null,
    });
    expect(dayOf(new Date())).toBeTruthy();
  });

  it('leaves the caller’s params as they were, so one params object serves several calls', async () => {
    const params = { provider: 'rest', user: { _id: owner._id, role: 'member' } } as const;
    const subscription = await typedService(f.state.server.api, 'subscriptions').get(subscriptionId, params);
    expect(params).toEqual({ provider: 'rest', user: { _id: owner._id, role: 'member' } });
    // A service without owners, read next with the same object, gets no owner condition.
    const plan = await typedService(f.state.server.api, 'appTemplates').get(subscription.plan, params);
    expect(plan._id).toBe(subscription.plan);
  });

  it('keeps a member’s add-on orders from other members, over every path', async () => {
    const order = await orders().create(
      { subscription: subscriptionId, addOns: [{ id: oneTimeModule._id }], idempotencyKey: key() },
      f.as(owner),
    );
    expect(await rejectionOf(orders().get(order._id, f.as(other)))).toMatchObject({ code: 404 });
    expect(await rejectionOf(f.pay(other, order, CARDS.success))).toMatchObject({ code: 404 });
    const listed = await orders().find({ ...f.as(other), query: { subscription: subscriptionId } });
    expect(listed.total).toBe(0);
    // The fields that make an order an upgrade are the server's.
    expect(await rejectionOf(orders().patch(order._id, { kind: 'plan' } as never, asRest(staff)))).toMatchObject({
      code: 400,
    });
  });

  it('sends a member back from the bank’s check shown as a page to the plan’s upgrade page, which confirms the order only once it is paid', async () => {
    const headers = { origin: 'http://localhost:3000', 'x-locale': 'zh-hk' };
    const order = await orders().create(
      { subscription: subscriptionId, addOns: [{ id: oneTimeModule._id }], idempotencyKey: key() },
      f.as(owner),
    );
    const attempt = await f.payments().create(await f.request(order, CARDS.challenge), { ...f.as(owner), headers });
    expect(attempt.status).toBe('requires_action');
    const stored = (await f.knex()('payments').where('id', attempt._id).first('return_url')) as { return_url: string };
    expect(stored.return_url).toBe(
      `http://localhost:3000/zh-hk/upgrade/${subscriptionId}?step=done&order=${order._id}`,
    );

    // The page that address opens: not confirmed while the bank still checks...
    const member = await ownerSession();
    const page = () =>
      loadUpgrade({ api: f.state.server.api }, member, 'zh-hk', subscriptionId, new URL(stored.return_url));
    expect(await page()).toMatchObject({ done: null, unpaid: true });
    // ...and confirmed once the check is passed, settled by the page's own read when no webhook has come.
    f.state.sandbox.setFaults({ webhooks: 'reorder' });
    try {
      await f.state.sandbox.completeChallenge(attempt.gatewayChargeId as string, 'approve');
      const back = await page();
      expect(back.unpaid).toBe(false);
      expect(back.done).toMatchObject({ _id: order._id, paid: true, total: order.total });
    } finally {
      f.state.sandbox.setFaults({ webhooks: 'normal' });
    }
    await f.state.sandbox.webhooks.idle();

    // Another member's order, or a plan's, is no confirmation on this page.
    const planOrder = await f.order(other);
    const foreign = new URL(`http://localhost:3000/en/upgrade/${subscriptionId}?order=${planOrder._id}`);
    expect(await loadUpgrade({ api: f.state.server.api }, member, 'en', subscriptionId, foreign)).toMatchObject({
      done: null,
      unpaid: false,
    });
    // A plan's order goes back to the purchase flow's payment step.
    const planAttempt = await f.payments().create(await f.request(planOrder, CARDS.challenge), {
      ...f.as(other),
      headers: { origin: 'http://localhost:3000', 'x-locale': 'en' },
    });
    const planStored = (await f.knex()('payments').where('id', planAttempt._id).first('return_url')) as {
      return_url: string;
    };
    expect(planStored.return_url).toBe(`http://localhost:3000/en/subscription?step=payment&order=${planOrder._id}`);
  });
});
