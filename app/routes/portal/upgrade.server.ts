import { data, redirect } from 'react-router';
import { dayOf } from '../../../domain/billing/calendar';
import { offeredToIndustry } from '../../../domain/billing/offered';
import { isLocale, type I18nText } from '../../../domain/locales';
import type { CurrencyCode } from '../../../domain/money';
import { isPaidOrder } from '../../../domain/orders/paid';
import type { FlowAnswer, FlowFailure } from '../../components/purchase/flow-api';
import type { AddOn } from '../../components/site/add-ons';
import type { ServerContext, SessionUser } from '../../context';
import { failure, flowAction, orderView } from '../purchase/flow.server';
import { addOnSummary } from '../site/summaries.server';

/*
 * The add-on upgrade's server side (decision 028): what the page shows of the member's own
 * subscription, and its calls (the price of a choice, the order, the payment), made in-process as
 * the member, so no page script holds a token and another member's subscription is not found.
 */

const ID = /^[A-Za-z0-9_-]{1,64}$/;

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
}

export interface UpgradeDone {
  _id: string;
  number: string;
  paid: boolean;
  total: number;
  tax: number;
  taxRate: number;
  currency: CurrencyCode;
  items: { module: string; name: I18nText; count: number; amount: number }[];
  /** The day the add-ons are expected to be ready, once they are on the subscription. */
  availableOn: string | null;
}

export interface UpgradeData {
  subscription: UpgradeSubscription | null;
  done: UpgradeDone | null;
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
    return { subscription: null, done: null };
  }
  if (!ID.test(id)) throw data(null, { status: 404 });
  const subscription = await ctx.api
    .service('subscriptions')
    .get(id, { ...asMember })
    .catch(() => null);
  // Another member's subscription does not exist for this one.
  if (!subscription || subscription.user !== user._id) throw data(null, { status: 404 });
  const [plan, catalogue] = await Promise.all([
    ctx.api.service('appTemplates').get(subscription.plan, { ...asMember }),
    ctx.api.service('modules').find({ ...asMember, query: { $sort: { order: 1 }, $limit: 100 } }),
  ]);
  const names = new Map(catalogue.data.map((module) => [module._id, module.name]));
  const has = new Set(subscription.modules.map((module) => module.id));
  const orderId = url.searchParams.get('order');
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
    },
    done: orderId && ID.test(orderId) ? await paidOrder(ctx, asMember, orderId, subscription) : null,
  };
}

async function paidOrder(
  ctx: Pick<ServerContext, 'api'>,
  asMember: { provider: string; user: SessionUser },
  orderId: string,
  subscription: { _id: string; modules: { order?: string; availableOn?: string }[] },
): Promise<UpgradeDone | null> {
  const order = await ctx.api
    .service('orders')
    .get(orderId, { ...asMember })
    .catch(() => null);
  if (!order || order.subscription !== subscription._id) return null;
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

type Body = Record<string, unknown>;

/** The page's calls: `upgradeQuote` and `order` for this subscription, then the payment's own (`pay`, `payment`). */
export async function upgradeAction(ctx: ServerContext, lang: string | undefined, id: string | undefined, body: Body) {
  const locale = isLocale(lang) ? lang : 'en';
  const intent = typeof body.intent === 'string' ? body.intent : '';
  const params = {
    provider: 'ssr',
    user: ctx.user ?? undefined,
    ip: ctx.ip,
    headers: { ...ctx.headers, 'x-locale': locale },
  };
  const addOns = Array.isArray(body.addOns) ? (body.addOns as { id: string; count: number }[]) : [];
  const subscription = id ?? '';
  try {
    switch (intent) {
      case 'upgradeQuote': {
        const quote = await ctx.api.service('quotes').create({ subscription, addOns }, params);
        return { intent, ok: true as const, quote } satisfies FlowAnswer;
      }
      case 'order': {
        const idempotencyKey = typeof body.idempotencyKey === 'string' ? body.idempotencyKey : '';
        const order = await ctx.api.service('orders').create({ subscription, addOns, idempotencyKey }, params);
        return {
          intent,
          ok: true as const,
          order: orderView(order as unknown as Record<string, unknown>),
        } satisfies FlowAnswer;
      }
      case 'pay':
      case 'payment':
        return flowAction(ctx, lang, body);
      default:
        return data(
          {
            intent: 'order',
            ok: false as const,
            status: 400,
            message: 'Bad request',
            errors: {},
            data: {},
          } satisfies FlowFailure,
          { status: 400 },
        );
    }
  } catch (error) {
    return failure(intent === 'upgradeQuote' ? 'upgradeQuote' : 'order', error);
  }
}
