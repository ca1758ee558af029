import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../../app/context.ts';
import { loadDashboard } from '../../app/routes/portal/dashboard.server.ts';
import { addDays, dayOf, startOfDay } from '../../domain/billing/calendar.ts';
import { terminationOf } from '../../domain/billing/lifecycle.ts';
import { contractEnd } from '../../domain/billing/schedule.ts';
import type { Caller } from '../../domain/entities/services.ts';
import { translate } from '../../server/i18n.ts';
import type { ChargeRequest, PaymentGateway } from '../../server/payments/gateway.ts';
import { SandboxGateway } from '../../server/payments/sandbox/adapter.ts';
import {
  clientService,
  createAccount,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  typedService,
} from './harness.ts';
import { CARDS, eventually, paymentFixture } from './payment-fixture.ts';
import { pdfText } from '../pdf-text.ts';

/*
 * Ending a plan inside its minimum term (decision 044): the fee the plan page shows is charged
 * once, off-session, on the card on file, invoiced, and the plan ends at once; Lite, a plan past
 * its term or one that has ended is refused in the caller's language; a declined card changes
 * nothing; another member's plan is 404 on every transport; an admin may end a member's plan.
 */

interface SubscriptionRow {
  id: string;
  user_id: string;
  status: string;
  cancel_at: Date | null;
  monthly: number;
  currency: string;
  contract_start: Date;
  billing_anchor_day: number;
  prepaid_months: number;
  contract_months: number;
  period: 'monthly' | 'annual';
  modules: { id: string; status?: string }[];
  payment_method: { gateway: string; customerId: string; paymentMethodId: string } | null;
}

const PASSWORD = 'Account123';

describe.skipIf(skipReason)('terminating a plan inside its minimum term', () => {
  const f = paymentFixture();
  let flexiPlan: string;
  const terminations = () => typedService(f.state.server.api, 'terminations');
  const row = async (id: string) => (await f.knex()('subscriptions').where('id', id).first()) as SubscriptionRow;
  const termsOf = (subscription: SubscriptionRow) => ({
    start: dayOf(subscription.contract_start),
    anchorDay: subscription.billing_anchor_day,
    prepaidMonths: subscription.prepaid_months,
    contractMonths: subscription.contract_months,
    period: subscription.period,
  });
  const feeOf = async (id: string, day = dayOf(new Date())) => {
    const subscription = await row(id);
    return terminationOf(termsOf(subscription), day, subscription.monthly);
  };
  const terminationOrders = (id: string) =>
    f
      .knex()('orders')
      .where({ subscription_id: id, kind: 'termination' })
      .orderBy('created_at')
      .select('id', 'status', 'total', 'tax', 'items', 'prepaid_months') as Promise<
      {
        id: string;
        status: string;
        total: number;
        tax: number;
        prepaid_months: number;
        items: { kind: string; count: number; unitPrice: number; amount: number; name: Record<string, string> }[];
      }[]
    >;
  const chargesOf = async (id: string) =>
    (await Promise.all((await terminationOrders(id)).map((order) => f.charges(order.id)))).flat();

  /**
   * A member with a Flexi plan paid by card whose term runs past its months paid ahead: twelve
   * paid with the order, a two-year contract (as a plan arranged with staff has), so a year of
   * fees is left after the prepaid period.
   */
  async function flexiMember(label: string): Promise<{ member: Caller & { email: string }; subscriptionId: string }> {
    const member = await f.buyer(label);
    const order = await f.order(member, { plan: flexiPlan, addOns: [], prepaidMonths: 12 });
    expect((await f.pay(member, order, CARDS.success)).status).toBe('succeeded');
    const subscription = (await f.knex()('subscriptions').where('order_id', order._id).first()) as SubscriptionRow;
    const terms = { ...termsOf(subscription), contractMonths: 24 };
    await f
      .knex()('subscriptions')
      .where('id', subscription.id)
      .update({ contract_months: 24, contract_end: startOfDay(contractEnd(terms)) });
    return { member, subscriptionId: subscription.id };
  }

  beforeAll(async () => {
    await f.start();
    const templates = (await f.state.server.api.service('appTemplates').find({ paginate: false })) as {
      _id: string;
      key: string;
    }[];
    flexiPlan = (templates.find((template) => template.key === 'restaurant-flexi') as { _id: string })._id;
  });
  afterAll(async () => {
    await f.state.server?.close();
  });

  it('charges the fee once, off-session on the card on file, invoices it and ends the plan and its modules at once', async () => {
    const { member, subscriptionId } = await flexiMember('ending');
    const termination = await feeOf(subscriptionId);
    expect(termination).toMatchObject({ monthsLeft: 12 });
    const fee = termination?.fee as number;
    expect(fee).toBe((await row(subscriptionId)).monthly * 12);

    // Two clicks at once: one charge, one ended plan.
    const answers = await Promise.allSettled([
      terminations().create({ subscription: subscriptionId, expectedFee: fee }, f.as(member)),
      terminations().create({ subscription: subscriptionId, expectedFee: fee }, f.as(member)),
    ]);
    const done = answers.filter((answer) => answer.status === 'fulfilled');
    expect(done).toHaveLength(1);
    const answer = (done[0] as PromiseFulfilledResult<Awaited<ReturnType<ReturnType<typeof terminations>['create']>>>)
      .value;
    expect(answer).toMatchObject({
      subscription: subscriptionId,
      status: 'cancelled',
      fee,
      monthsLeft: 12,
      endedOn: dayOf(new Date()),
      invoice: { number: expect.stringMatching(/^HK-\d{6}$/) },
    });
    const refused = answers.find((candidate) => candidate.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 409 });

    const charges = await chargesOf(subscriptionId);
    expect(charges).toEqual([expect.objectContaining({ status: 'succeeded', amount: fee })]);
    const offSession = (await f.knex()('payment_sandbox_charges').where('id', charges[0]?.id).first('off_session')) as {
      off_session: boolean;
    };
    expect(offSession.off_session).toBe(true);

    // The order and its invoice: one line naming the fee, tax as the seller's other invoices.
    const [order, ...more] = await terminationOrders(subscriptionId);
    expect(more).toHaveLength(0);
    expect(order).toMatchObject({ status: 'provisioning', total: fee, prepaid_months: 12 });
    expect(order?.items).toEqual([
      expect.objectContaining({
        kind: 'termination',
        count: 1,
        unitPrice: (await row(subscriptionId)).monthly,
        amount: fee,
        name: expect.objectContaining({ en: 'Early termination fee', 'zh-hk': '提前終止費' }),
      }),
    ]);
    const invoice = (await f.knex()('invoices').where('order_id', order?.id).first()) as {
      number: string;
      total: number;
      tax: number;
      status: string;
      subscription_id: string;
      lines: unknown[];
    };
    expect(invoice).toMatchObject({
      number: answer.invoice?.number,
      total: fee,
      tax: order?.tax,
      status: 'issued',
      subscription_id: subscriptionId,
    });
    expect(invoice.lines).toEqual(order?.items);
    const seen = await typedService(f.state.server.api, 'invoices').find({
      ...f.as(member),
      query: { subscription: subscriptionId, $sort: { issuedAt: -1 } },
    });
    expect(seen.data[0]).toMatchObject({ number: invoice.number, total: fee });
    // The invoice mail names the fee and the months it pays for.
    const mailed = await eventually(
      async () =>
        (await f
          .knex()('outbox')
          .where({ recipient: member.email })
          .whereLike('text', `%${invoice.number}%`)
          .first('text')) as { text: string } | undefined,
    );
    expect(mailed.text).toContain('Early termination fee (1 × ');
    expect(mailed.text).toContain('per month × 12 months');

    // Ended now: cancelled, every module with it, and the dashboard says so.
    const ended = await row(subscriptionId);
    expect(ended.status).toBe('cancelled');
    expect(dayOf(ended.cancel_at as Date)).toBe(dayOf(new Date()));
    expect(ended.modules.length).toBeGreaterThan(0);
    expect(ended.modules.every((module) => module.status === 'ended')).toBe(true);
    const user = { _id: String(member._id), email: member.email, role: 'member', name: '' } as SessionUser;
    const dashboard = await loadDashboard({ api: f.state.server.api }, user);
    expect(dashboard.subscription?.lifecycle).toMatchObject({
      status: 'cancelled',
      termination: null,
      cancelAt: dayOf(new Date()),
    });
    expect(dashboard.subscription?.overview.activated.every((module) => module.ended)).toBe(true);
    expect(dashboard.subscription?.overview.balance.state).toBe('settled');
    // Nothing more is billed: the renewals run leaves it alone.
    expect(
      await (f.state.server.api.get('renewals') as { renew(id: string, now: Date): Promise<string> }).renew(
        subscriptionId,
        new Date(),
      ),
    ).toBe('none');

    // Asked again: it has ended, said in the caller's language, and nothing more is charged.
    const again = await rejectionOf(
      terminations().create({ subscription: subscriptionId }, { ...f.as(member), headers: { 'x-locale': 'zh-cn' } }),
    );
    expect(again).toMatchObject({ code: 409, message: translate('zh-cn', 'termination.ended') });
    expect(await chargesOf(subscriptionId)).toHaveLength(1);
  });

  it('refuses Lite, a plan past its term, a fee other than the one shown, and bad requests, in the caller’s language', async () => {
    const lite = await f.buyer('lite');
    const liteOrder = await f.order(lite, { prepaidMonths: 12 });
    expect((await f.pay(lite, liteOrder, CARDS.success)).status).toBe('succeeded');
    const liteId = ((await f.knex()('subscriptions').where('order_id', liteOrder._id).first('id')) as { id: string })
      .id;
    expect(await rejectionOf(terminations().create({ subscription: liteId }, f.as(lite)))).toMatchObject({
      code: 409,
      message: translate('en', 'termination.notInTerm'),
    });
    expect(
      await rejectionOf(
        terminations().create({ subscription: liteId }, { ...f.as(lite), headers: { 'x-locale': 'zh-hk' } }),
      ),
    ).toMatchObject({
      code: 409,
      message: translate('zh-hk', 'termination.notInTerm'),
    });

    const { member, subscriptionId } = await flexiMember('past-term');
    const fee = (await feeOf(subscriptionId))?.fee as number;
    // A fee other than the one the member confirmed is refused, with the one that applies.
    const changed = await rejectionOf(
      terminations().create({ subscription: subscriptionId, expectedFee: fee - 1 }, f.as(member)),
    );
    expect(changed).toMatchObject({ code: 409, message: translate('en', 'termination.feeChanged'), data: { fee } });
    // Bad requests: 400 on the field, 401 without a session.
    expect(
      await rejectionOf(terminations().create({ subscription: subscriptionId, fee: 0 } as never, f.as(member))),
    ).toMatchObject({ code: 400, errors: { fee: expect.any(String) } });
    expect(
      await rejectionOf(terminations().create({ subscription: { $ne: null } } as never, f.as(member))),
    ).toMatchObject({ code: 400, errors: { subscription: expect.any(String) } });
    expect(
      await rejectionOf(terminations().create({ subscription: subscriptionId }, { provider: 'rest', ip: '10.9.9.7' })),
    ).toMatchObject({ code: 401 });

    // Past the two-year term: stopped with notice instead.
    const end = dayOf(
      (await f.knex()('subscriptions').where('id', subscriptionId).first('contract_end')).contract_end as Date,
    );
    f.state.server.api.set('clock', () => new Date(startOfDay(addDays(end, 3)).getTime() + 12 * 3600 * 1000));
    try {
      expect(
        await rejectionOf(
          terminations().create(
            { subscription: subscriptionId },
            { ...f.as(member), headers: { 'x-locale': 'zh-hk' } },
          ),
        ),
      ).toMatchObject({
        code: 409,
        message: translate('zh-hk', 'termination.notInTerm'),
      });
    } finally {
      f.state.server.api.set('clock', undefined);
    }
    expect(await terminationOrders(subscriptionId)).toEqual([]);
    expect((await row(subscriptionId)).status).toBe('active');
  });

  it('changes nothing when the card on file is declined, and says so with the way to another card', async () => {
    const { member, subscriptionId } = await flexiMember('declined');
    const declined = await f.token(CARDS.declined);
    const gateway = f.state.server.api.get('paymentGateway') as {
      attachPaymentMethod(input: { customerId: string; paymentMethodId: string }): Promise<unknown>;
    };
    const method = (await row(subscriptionId)).payment_method as NonNullable<SubscriptionRow['payment_method']>;
    await gateway.attachPaymentMethod({ customerId: method.customerId, paymentMethodId: declined });
    await f
      .knex()('subscriptions')
      .where('id', subscriptionId)
      .update({ payment_method: JSON.stringify({ ...method, paymentMethodId: declined }) });
    const before = await row(subscriptionId);
    const invoicesBefore = await f
      .knex()('invoices')
      .where('subscription_id', subscriptionId)
      .count<{ count: string }[]>('id as count');

    for (const locale of ['en', 'zh-hk'] as const) {
      const error = await rejectionOf(
        terminations().create({ subscription: subscriptionId }, { ...f.as(member), headers: { 'x-locale': locale } }),
      );
      expect(error).toMatchObject({
        code: 402,
        message: translate(locale, 'termination.declined'),
        errors: { card: translate(locale, 'purchase.card.card_declined') },
      });
    }
    const after = await row(subscriptionId);
    expect(after.status).toBe('active');
    expect(after.modules).toEqual(before.modules);
    expect(after.cancel_at).toBeNull();
    expect(
      await f.knex()('invoices').where('subscription_id', subscriptionId).count<{ count: string }[]>('id as count'),
    ).toEqual(invoicesBefore);
    // Each attempt is on record, closed: its order cancelled, its charge failed.
    const orders = await terminationOrders(subscriptionId);
    expect(orders.map((order) => order.status)).toEqual(['cancelled', 'cancelled']);
    expect((await chargesOf(subscriptionId)).map((charge: { status: string }) => charge.status)).toEqual([
      'failed',
      'failed',
    ]);
    // The page's figures are unchanged: still the same fee to end it.
    const user = { _id: String(member._id), email: member.email, role: 'member', name: '' } as SessionUser;
    expect((await loadDashboard({ api: f.state.server.api }, user)).subscription?.lifecycle).toMatchObject({
      status: 'active',
      termination: { fee: (await feeOf(subscriptionId))?.fee },
    });
  });

  it('waits for a gateway that does not answer: a 503, no second charge meanwhile, and the webhook that reports it paid ends the plan', async () => {
    const { member, subscriptionId } = await flexiMember('slow-gateway');
    const api = f.state.server.api;
    const sandbox = f.state.sandbox;
    const usual = api.get('paymentGateway') as PaymentGateway;
    // The next charge is made at the gateway but its answer is not waited for.
    const impatient = new SandboxGateway(sandbox, { timeoutMs: 500 });
    class Unanswered extends SandboxGateway {
      override charge(request: ChargeRequest) {
        sandbox.setFaults({ api: 'timeout', count: 1 });
        return impatient.charge(request);
      }
    }
    sandbox.setFaults({ webhooks: 'reorder' });
    api.set('paymentGateway', new Unanswered(sandbox));
    try {
      const waiting = await rejectionOf(
        terminations().create({ subscription: subscriptionId }, { ...f.as(member), headers: { 'x-locale': 'zh-hk' } }),
      );
      expect(waiting).toMatchObject({ code: 503, message: translate('zh-hk', 'termination.pending') });
      // Asked again meanwhile: the open attempt is waited for, nothing else is charged.
      api.set('paymentGateway', usual);
      expect(await rejectionOf(terminations().create({ subscription: subscriptionId }, f.as(member)))).toMatchObject({
        code: 409,
        message: translate('en', 'termination.inProgress'),
      });
      expect((await row(subscriptionId)).status).toBe('active');
    } finally {
      api.set('paymentGateway', usual);
      sandbox.setFaults({ webhooks: 'normal' });
    }
    await eventually(async () => (await row(subscriptionId)).status === 'cancelled');
    expect(await chargesOf(subscriptionId)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    const [order] = await terminationOrders(subscriptionId);
    expect(await f.knex()('invoices').where({ order_id: order?.id, status: 'issued' })).toHaveLength(1);
  });

  it('is 404 for another member on REST and socket.io, replays a REST retry with the same Idempotency-Key, and lets an admin end a member’s plan', async () => {
    const first = await flexiMember('rest-owner');
    const second = await flexiMember('socket-owner');
    const stranger = await createAccount(f.knex(), { label: 'stranger', password: PASSWORD });
    const admin = await createAccount(f.knex(), { role: 'admin', label: 'staff', password: PASSWORD });
    const url = f.state.server.url;

    // Another member: 404 on REST and on the socket, nothing charged.
    const rest = restClient(url);
    await rest.authenticate({ strategy: 'local', email: stranger.email, password: PASSWORD });
    expect(
      await rejectionOf(clientService(rest, 'terminations').create({ subscription: first.subscriptionId })),
    ).toMatchObject({ code: 404 });
    const socket = socketClient(url);
    try {
      await socket.client.authenticate({ strategy: 'local', email: stranger.email, password: PASSWORD });
      expect(
        await rejectionOf(clientService(socket.client, 'terminations').create({ subscription: second.subscriptionId })),
      ).toMatchObject({ code: 404 });
    } finally {
      socket.close();
    }
    expect(await chargesOf(first.subscriptionId)).toEqual([]);
    expect(await chargesOf(second.subscriptionId)).toEqual([]);

    // The owner over REST, sent twice with one Idempotency-Key: one charge, the same answer again.
    const owner = restClient(url);
    const { accessToken } = await owner.authenticate({
      strategy: 'local',
      email: first.member.email,
      password: PASSWORD,
    });
    const post = async () => {
      const response = await fetch(`${url}/api/terminations`, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${accessToken}`,
          'idempotency-key': 'terminate-rest-0001',
        },
        body: JSON.stringify({ subscription: first.subscriptionId }),
      });
      return {
        status: response.status,
        replayed: response.headers.get('idempotent-replayed'),
        body: (await response.json()) as Record<string, unknown>,
      };
    };
    const answer = await post();
    expect(answer).toMatchObject({
      status: 201,
      replayed: null,
      body: { subscription: first.subscriptionId, status: 'cancelled' },
    });
    const retried = await post();
    expect(retried).toMatchObject({ status: 201, replayed: 'true', body: answer.body });
    expect(await chargesOf(first.subscriptionId)).toHaveLength(1);
    expect((await row(first.subscriptionId)).status).toBe('cancelled');
    // Its invoice as a PDF, in Traditional Chinese: the fee's line and its basis.
    const invoice = answer.body.invoice as { _id: string; number: string };
    const pdf = await fetch(`${url}/api/invoices/${invoice._id}/pdf?lang=zh-hk`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(pdf.status).toBe(200);
    const { text } = await pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain(invoice.number);
    expect(text).toContain('提前終止費');
    expect(text).toContain('合約餘下 12 個月');

    // An admin ends another member's plan through the same call, over the socket.
    const staff = socketClient(url);
    try {
      await staff.client.authenticate({ strategy: 'local', email: admin.email, password: PASSWORD });
      const ended = await clientService(staff.client, 'terminations').create({ subscription: second.subscriptionId });
      expect(ended).toMatchObject({
        subscription: second.subscriptionId,
        status: 'cancelled',
        fee: (await row(second.subscriptionId)).monthly * 12,
      });
    } finally {
      staff.close();
    }
    expect(await chargesOf(second.subscriptionId)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    const history = (await f.knex()('subscriptions').where('id', second.subscriptionId).first('history')).history as {
      to: string;
      reason: string;
    }[];
    expect(history.at(-1)).toMatchObject({ to: 'cancelled', reason: expect.stringContaining('terminated') });
  });
});
