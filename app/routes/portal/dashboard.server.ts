import { dayOf, type IsoDay } from '../../../domain/billing/calendar';
import {
  type Cancellation,
  cancellationOf,
  isRemovable,
  removalCredit,
  type Termination,
  terminationOf,
} from '../../../domain/billing/lifecycle';
import { billingTermsOf, subscriptionOverview, type SubscriptionOverview } from '../../../domain/billing/overview';
import type { invoices } from '../../../domain/entities/invoices';
import type { subscriptions } from '../../../domain/entities/subscriptions';
import type { RecordOf } from '../../../domain/entities/types';
import type { I18nText } from '../../../domain/locales';
import type { SessionUser, ServerContext } from '../../context';
import { invoiceShownStatus, type InvoiceShownStatus } from '../../../domain/invoices/status';

type SubscriptionRecord = RecordOf<typeof subscriptions>;

export interface DashboardPlan {
  name: I18nText;
  type: SubscriptionRecord['planType'];
  status: SubscriptionRecord['status'];
}

export interface DashboardModule {
  name: I18nText;
  counter: boolean;
}

/** An invoice as the dashboard lists it: the record's parts shown, and the Hong Kong day it was issued. */
export type DashboardInvoice = Pick<RecordOf<typeof invoices>, '_id' | 'number' | 'total' | 'currency'> & {
  /** Paid, issued (not paid yet) or void, as the list words it (decision 063). */
  status: InvoiceShownStatus;
  issuedOn: string;
};

export interface DashboardData {
  /** Null when the member has no subscription. */
  subscription: {
    _id: string;
    plan: DashboardPlan;
    overview: SubscriptionOverview;
    modules: Record<string, DashboardModule>;
    /** The card on file (renewals are charged to it): brand, last four digits and expiry only. */
    card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
    lifecycle: DashboardLifecycle;
  } | null;
  /** The member's newest invoices, newest first. */
  invoices: DashboardInvoice[];
}

/** Where the subscription stands after its purchase (decision 031). */
export interface DashboardLifecycle {
  status: SubscriptionRecord['status'];
  /** The day it stops, when the member asked it to. */
  cancelAt: IsoDay | null;
  /** The day a failed renewal is tried again. */
  retryOn: IsoDay | null;
  /** A renewal not paid yet: how much, for the billing date of when. */
  pastDue: { amount: number; since: IsoDay; order: string } | null;
  /** What stopping the plan today would mean. */
  cancellation: Cancellation;
  /** What ending it today would cost, when a termination can end it sooner (decision 044). */
  termination: Termination | null;
  /** The add-ons the member may remove, each with what removing it today credits to the balance. */
  removals: Record<string, number>;
}

/** How many invoices the dashboard lists. */
export const DASHBOARD_INVOICES = 24;

async function recentInvoices(
  ctx: Pick<ServerContext, 'api'>,
  asMember: { provider: string; user: SessionUser },
): Promise<DashboardInvoice[]> {
  const page = await ctx.api
    .service('invoices')
    .find({ ...asMember, query: { user: asMember.user._id, $sort: { issuedAt: -1 }, $limit: DASHBOARD_INVOICES } });
  return page.data.map((invoice) => ({
    _id: invoice._id,
    number: invoice.number,
    issuedOn: dayOf(invoice.issuedAt),
    total: invoice.total,
    currency: invoice.currency,
    status: invoiceShownStatus(invoice),
  }));
}

/**
 * The member's newest subscription and what the dashboard works out from it (decision 023): read
 * as the member (provider `ssr`, their user), so the entity definitions' owner rules keep every
 * row to their own, then computed by the domain's billing rules. The queries name the caller too:
 * staff read every row, and their own dashboard is theirs alone. With `subscriptionId`, that one
 * subscription of the member's (none when it is not theirs).
 */
export async function loadDashboard(
  ctx: Pick<ServerContext, 'api'>,
  user: SessionUser,
  now: Date = new Date(),
  { subscriptionId }: { subscriptionId?: string } = {},
): Promise<DashboardData> {
  const asMember = { provider: 'ssr', user };
  // One subscription by its id (`/plan/{id}`, decision 044), still only among the member's own.
  const found = await ctx.api.service('subscriptions').find({
    ...asMember,
    query: {
      user: user._id,
      ...(subscriptionId ? { _id: subscriptionId } : {}),
      $sort: { contractStart: -1 },
      $limit: 1,
    },
  });
  const subscription = found.data[0];
  if (!subscription) return { subscription: null, invoices: await recentInvoices(ctx, asMember) };

  // Every row of the ledger counts, however many pages it takes.
  const everyPage = async <R>(page: (skip: number) => Promise<{ data: R[]; total: number }>): Promise<R[]> => {
    const rows: R[] = [];
    for (;;) {
      const { data, total } = await page(rows.length);
      rows.push(...data);
      if (data.length === 0 || rows.length >= total) return rows;
    }
  };
  // The payments of the plan's order and of every add-on order since (decision 028).
  const addOnOrders = await everyPage((skip) =>
    ctx.api.service('orders').find({
      ...asMember,
      query: { subscription: subscription._id, $select: ['_id'], $sort: { createdAt: 1 }, $limit: 100, $skip: skip },
    }),
  );
  const orderIds = [subscription.order, ...addOnOrders.map((order) => order._id)];
  const [plan, catalogue, invoices, payments, listed, balanceEntries] = await Promise.all([
    ctx.api.service('appTemplates').get(subscription.plan, asMember),
    ctx.api.service('modules').find({ ...asMember, query: { $sort: { order: 1 }, $limit: 100 } }),
    everyPage((skip) =>
      ctx.api.service('invoices').find({
        ...asMember,
        query: { subscription: subscription._id, $sort: { issuedAt: 1 }, $limit: 100, $skip: skip },
      }),
    ),
    everyPage((skip) =>
      ctx.api
        .service('payments')
        .find({ ...asMember, query: { order: { $in: orderIds }, $sort: { createdAt: 1 }, $limit: 100, $skip: skip } }),
    ),
    recentInvoices(ctx, asMember),
    everyPage((skip) =>
      ctx.api.service('balanceEntries').find({
        ...asMember,
        query: { subscription: subscription._id, $sort: { createdAt: 1 }, $limit: 100, $skip: skip },
      }),
    ),
  ]);
  const overview = subscriptionOverview(
    subscription,
    { invoices, payments, catalogue: catalogue.data, balanceEntries },
    now,
  );
  const paidWith =
    subscription.card ?? payments.filter((payment) => payment.status === 'succeeded' && payment.card).at(-1)?.card;
  const unpaid =
    subscription.status === 'past_due' || subscription.status === 'unpaid'
      ? (
          await ctx.api.service('orders').find({
            ...asMember,
            query: {
              subscription: subscription._id,
              kind: 'renewal',
              status: { $in: ['pending_payment', 'payment_failed'] },
              $sort: { createdAt: -1 },
              $limit: 1,
            },
          })
        ).data[0]
      : undefined;
  const renewalDay = unpaid?.items.find((line) => line.kind === 'plan')?.from;
  const lifecycle: DashboardLifecycle = {
    status: subscription.status,
    cancelAt: subscription.cancelAt ? dayOf(subscription.cancelAt) : null,
    retryOn: subscription.retryOn ? dayOf(subscription.retryOn) : null,
    pastDue: unpaid && renewalDay ? { amount: unpaid.total, since: renewalDay, order: unpaid._id } : null,
    cancellation: cancellationOf(billingTermsOf(subscription), dayOf(now), subscription.monthly),
    termination:
      subscription.status === 'active' || subscription.status === 'non_renewing'
        ? terminationOf(billingTermsOf(subscription), dayOf(now), subscription.monthly)
        : null,
    removals: Object.fromEntries(
      subscription.modules
        .filter((module) => isRemovable(module))
        .map((module) => [module.id, removalCredit(billingTermsOf(subscription), module, dayOf(now)).credit]),
    ),
  };
  return {
    subscription: {
      _id: subscription._id,
      card: paidWith
        ? { brand: paidWith.brand, last4: paidWith.last4, expMonth: paidWith.expMonth, expYear: paidWith.expYear }
        : null,
      lifecycle,
      plan: { name: plan.name, type: subscription.planType, status: subscription.status },
      overview,
      modules: Object.fromEntries(
        catalogue.data.map((module) => [module._id, { name: module.name, counter: module.counter }]),
      ),
    },
    invoices: listed,
  };
}
