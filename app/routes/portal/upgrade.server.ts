import { data, redirect } from 'react-router';
import { dayOf } from '../../../domain/billing/calendar';
import { offeredToIndustry } from '../../../domain/billing/offered';
import type { I18nText } from '../../../domain/locales';
import type { CurrencyCode } from '../../../domain/money';
import type { z } from '../../../domain/zod.ts';
import type { orders } from '../../../domain/entities/orders';
import type { RecordOf } from '../../../domain/entities/types';
import { isPaidOrder } from '../../../domain/orders/paid';
import type { PaymentOptions } from '../../../domain/orders/payment-options';
import { upgradeRequestSchema } from '../../../domain/orders/flow-request';
import type { FormRead } from '../../components/forms/read-form';
import type { FlowAnswer } from '../../components/purchase/flow-api';
import type { AddOn } from '../../components/site/add-ons';
import type { ServerContext, SessionUser } from '../../context';
import { failure, intentsOf, localeOf, orderView, paymentCall, refusedBody } from '../purchase/flow.server';
import { addOnSummary } from '../site/summaries.server';
import { RECORD_ID } from '../../../domain/record-id';

/*
 * The add-on upgrade's server side (decision 028): what the page shows of the member's own
 * subscription, and its calls (the price of a choice, the order, the payment), made in-process as
 * the member, so no page script holds a token and another member's subscription is not found.
 */

export interface UpgradeSubscription {
  _id: string;
  planName: I18nText;
  planType: string;
  currency: CurrencyCode;
  contractStart: string;
  /** What it has now (with names), for the list of what the plan already includes. */
  modules: { id: string; name: I18nText; count: number; pending: boolean }[];
  /** The add-ons it could take: released, not had, sold to its industry. */
  offered: AddOn[];
  /** How it can be paid for (decision 063): the card on file and the billing address of the last order. */
  payWith: Pick<PaymentOptions, 'card' | 'billingAddress'>;
}

type OrderRecord = RecordOf<typeof orders>;

/** The add-on order just paid, as the confirmation shows it. */
export type UpgradeDone = Pick<OrderRecord, '_id' | 'number' | 'total' | 'tax' | 'taxRate' | 'currency'> & {
  paid: boolean;
  items: (Pick<OrderRecord['items'][number], 'name' | 'count' | 'amount'> & { module: string })[];
  /** The day the add-ons are expected to be ready, once they are on the subscription. */
  availableOn: string | null;
};

export interface UpgradeData {
  subscription: UpgradeSubscription | null;
  done: UpgradeDone | null;
  /** `?order=` names an add-on order of this plan that is not paid (a payment left or still with the bank). */
  unpaid: boolean;
}

/**
 * The member's subscription to add to (`id`), or without one their newest (a redirect to its
 * address), or none; and with `?order=` the add-on order just paid, for the confirmation.
 */
export async function loadUpgrade(
  ctx: Pick<ServerContext, 'api'>,
  user: SessionUser,
  lang: string,
  id: string | undefined,
  url: URL,
): Promise<UpgradeData> {
  // Each call gets params of its own: the services' hooks write the caller's scope into them.
  const asMember = { provider: 'ssr', user };
  if (!id) {
    const found = await ctx.api.service('subscriptions').find({
      ...asMember,
      query: { user: user._id, status: 'active', $sort: { contractStart: -1 }, $limit: 1, $select: ['_id'] },
    });
    const newest = found.data[0];
    if (newest) throw redirect(`/${lang}/upgrade/${newest._id}${url.search}`);
    return { subscription: null, done: null, unpaid: false };
  }
  if (!RECORD_ID.test(id)) throw data(null, { status: 404 });
  const subscription = await ctx.api
    .service('subscriptions')
    .get(id, { ...asMember })
    .catch(() => null);
  // Another member's subscription does not exist for this one.
  if (!subscription || subscription.user !== user._id) throw data(null, { status: 404 });
  const [plan, catalogue, payWith] = await Promise.all([
    ctx.api.service('appTemplates').get(subscription.plan, { ...asMember }),
    ctx.api.service('modules').find({ ...asMember, query: { $sort: { order: 1 }, $limit: 100 } }),
    ctx.api.service('paymentOptions').get(subscription._id, { ...asMember }),
  ]);
  const names = new Map(catalogue.data.map((module) => [module._id, module.name]));
  const has = new Set(subscription.modules.map((module) => module.id));
  const orderId = url.searchParams.get('order');
  const confirmed = orderId && RECORD_ID.test(orderId) ? await paidOrder(ctx, asMember, orderId, subscription) : null;
  return {
    subscription: {
      _id: subscription._id,
      planName: plan.name,
      planType: subscription.planType,
      currency: subscription.currency,
      contractStart: dayOf(subscription.contractStart),
      modules: subscription.modules.map((module) => ({
        id: module.id,
        name: names.get(module.id) ?? { en: module.id },
        count: module.count,
        pending: module.status === 'pending',
      })),
      offered: catalogue.data
        .filter((module) => module.released && !has.has(module._id) && offeredToIndustry(module, subscription.industry))
        .map(addOnSummary),
      payWith: { card: payWith.card, billingAddress: payWith.billingAddress },
    },
    done: confirmed === 'unpaid' ? null : confirmed,
    unpaid: confirmed === 'unpaid',
  };
}

async function paidOrder(
  ctx: Pick<ServerContext, 'api'>,
  asMember: { provider: string; user: SessionUser },
  orderId: string,
  subscription: { _id: string; modules: { order?: string; availableOn?: string }[] },
): Promise<UpgradeDone | 'unpaid' | null> {
  const read = () =>
    ctx.api
      .service('orders')
      .get(orderId, { ...asMember })
      .catch(() => null);
  let order = await read();
  if (!order || order.subscription !== subscription._id) return null;
  if (!isPaidOrder(order.status)) {
    // Back from the bank's check shown as a page of its own (the payment's return address): its
    // newest attempt is read as the member, which settles one still open with the provider.
    const attempts = await ctx.api
      .service('payments')
      .find({ ...asMember, query: { order: order._id, $sort: { createdAt: -1 }, $limit: 1, $select: ['_id'] } })
      .catch(() => ({ data: [] as { _id: string }[] }));
    const newest = attempts.data[0];
    if (newest) {
      await ctx.api
        .service('payments')
        .get(newest._id, { ...asMember })
        .catch(() => null);
      order = await read();
    }
    // Never confirmed as paid: the page says the payment has not reached us.
    if (!order || !isPaidOrder(order.status)) return 'unpaid';
  }
  return {
    _id: order._id,
    number: order.number,
    paid: isPaidOrder(order.status),
    total: order.total,
    tax: order.tax,
    taxRate: order.taxRate,
    currency: order.currency,
    items: order.items.map((item) => ({
      module: item.module ?? item.key,
      name: item.name,
      count: item.count,
      amount: item.amount,
    })),
    availableOn: subscription.modules.find((module) => module.order === order._id)?.availableOn ?? null,
  };
}

const isUpgradeIntent = intentsOf(upgradeRequestSchema);

/** The page's calls: `upgradeQuote` and `order` for this subscription, then the payment's own (`pay`, `payment`). */
export async function upgradeAction(
  ctx: ServerContext,
  lang: string | undefined,
  id: string | undefined,
  body: FormRead<z.output<typeof upgradeRequestSchema>>,
) {
  const locale = localeOf(lang);
  if (!body.ok) {
    return refusedBody(isUpgradeIntent(body.input.intent) ? body.input.intent : null, body.errors, locale);
  }
  const values = body.values;
  if (values.intent === 'pay' || values.intent === 'payment') return paymentCall(ctx, locale, values);
  const params = {
    provider: 'ssr',
    user: ctx.user ?? undefined,
    ip: ctx.ip,
    headers: { ...ctx.headers, 'x-locale': locale },
  };
  const subscription = id ?? '';
  try {
    if (values.intent === 'upgradeQuote') {
      const quote = await ctx.api.service('quotes').create({ subscription, addOns: values.addOns }, params);
      return { intent: values.intent, ok: true as const, quote } satisfies FlowAnswer;
    }
    const { addOns, idempotencyKey } = values;
    const order = await ctx.api.service('orders').create({ subscription, addOns, idempotencyKey }, params);
    return { intent: values.intent, ok: true as const, order: orderView(order) } satisfies FlowAnswer;
  } catch (error) {
    return failure(values.intent, error, locale);
  }
}
