import { BadRequest, Conflict, NotFound } from '@feathersjs/errors';
import type { Application } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { addDays, dayOf } from '../../../domain/billing/calendar.ts';
import { billingTermsOf } from '../../../domain/billing/overview.ts';
import {
  type UpgradeModule,
  type UpgradePrice,
  priceUpgrade,
  UpgradePricingError,
  type UpgradeProblem,
} from '../../../domain/billing/upgrade.ts';
import type { CurrencyCode } from '../../../domain/money.ts';
import type { Seller } from '../../../domain/orders/countries.ts';
import type { OrderLine } from '../../../domain/orders/pricing.ts';
import { PURCHASE_MESSAGES, UPGRADE_MESSAGES } from '../../../domain/orders/request.ts';
import { PAYMENT_MESSAGES } from '../../../domain/orders/payment-request.ts';
import type { BillingPeriodKind } from '../../../domain/billing/schedule.ts';
import { moveOrder } from './transitions.ts';

/*
 * Add-ons for a subscription the caller has (decision 026): the subscription as pricing reads it,
 * the price of a choice (the `quotes` preview and the order use the same `priceUpgrade`), and the
 * open add-on orders a new one replaces.
 */

const PROBLEM_MESSAGES: Record<UpgradeProblem, string> = {
  empty: UPGRADE_MESSAGES.empty,
  unknownAddOn: PURCHASE_MESSAGES.unknownAddOn,
  alreadyActive: UPGRADE_MESSAGES.alreadyActive,
  notForIndustry: UPGRADE_MESSAGES.notForIndustry,
  duplicateAddOn: PURCHASE_MESSAGES.duplicateAddOn,
  count: PURCHASE_MESSAGES.addOnCount,
};

export interface SubscriptionRow {
  id: string;
  user_id: string;
  order_id: string;
  industry_id: string;
  plan_id: string;
  plan_type: string;
  modules: {
    id: string;
    count: number;
    monthPrice: number;
    billing?: string;
    status?: string;
    order?: string;
    availableOn?: string;
  }[];
  currency: CurrencyCode;
  monthly: number;
  period: BillingPeriodKind;
  prepaid_months: number;
  contract_months: number;
  contract_start: Date;
  billing_anchor_day: number;
  status: string;
}

export interface UpgradeSubjectRow {
  subscription: SubscriptionRow;
  seller: Seller;
  /** The address of the plan's order: the add-ons are for the same business. */
  shipping: { country: string } & Record<string, unknown>;
}

/**
 * The caller's own active subscription (locked for the transaction when `lock`): another
 * member's, or none, is `NotFound`, never told apart; one that is not active cannot be upgraded.
 */
export async function subscriptionToUpgrade(
  db: Knex | Knex.Transaction,
  subscriptionId: string,
  userId: string,
  lock = false,
): Promise<UpgradeSubjectRow> {
  const query = db('subscriptions').where({ id: subscriptionId, user_id: userId });
  const subscription = (await (lock ? query.forUpdate() : query).first()) as SubscriptionRow | undefined;
  if (!subscription) throw new NotFound(UPGRADE_MESSAGES.noSubscription);
  if (subscription.status !== 'active') throw new Conflict(UPGRADE_MESSAGES.notActive);
  const order = (await db('orders').where('id', subscription.order_id).first('seller', 'shipping')) as {
    seller: Seller;
    shipping: UpgradeSubjectRow['shipping'];
  };
  return { subscription, seller: order.seller, shipping: order.shipping };
}

/** The module catalogue as the upgrade prices it (read before any transaction: PGlite has one connection). */
export async function upgradeCatalogue(app: Application): Promise<UpgradeModule[]> {
  return (await app.service('modules').find({ paginate: false })) as UpgradeModule[];
}

/** Prices a choice of add-ons for the subscription on the day of `now` (Hong Kong), or a 400 naming the item. */
export function priceUpgradeOf(
  subject: UpgradeSubjectRow,
  catalogue: readonly UpgradeModule[],
  addOns: readonly { id: string; count?: number }[],
  now: Date,
): UpgradePrice {
  const { subscription } = subject;
  try {
    return priceUpgrade(
      {
        terms: billingTermsOf({
          contractStart: subscription.contract_start,
          billingAnchorDay: subscription.billing_anchor_day,
          prepaidMonths: subscription.prepaid_months,
          contractMonths: subscription.contract_months,
          period: subscription.period,
        } as Parameters<typeof billingTermsOf>[0]),
        seller: subject.seller,
        currency: subscription.currency,
        industry: subscription.industry_id,
        monthly: subscription.monthly,
        modules: subscription.modules,
      },
      catalogue,
      addOns,
      dayOf(now),
    );
  } catch (error) {
    if (error instanceof UpgradePricingError)
      throw new BadRequest('validation.failed', { errors: { [error.field]: PROBLEM_MESSAGES[error.problem] } });
    throw error;
  }
}

/** An upgrade's lines as an order and its invoice keep them: each add-on's share, with the days it pays for. */
export function upgradeLines(price: UpgradePrice): OrderLine[] {
  return price.items.map((line) => ({
    key: line.key,
    kind: 'addon',
    module: line.module,
    name: line.name,
    billing: line.billing,
    unitPrice: line.unitPrice,
    count: line.count,
    amount: line.amount,
    ...(line.periodEnd && line.remainingDays > 0
      ? { from: addDays(line.periodEnd, -line.remainingDays), to: line.periodEnd }
      : {}),
  }));
}

/**
 * A new add-on order replaces the subscription's open ones (placed, or declined, and never paid):
 * they are cancelled, unless one has a payment under way, which must settle first (409).
 */
export async function replaceOpenAddOnOrders(
  trx: Knex.Transaction,
  subscriptionId: string,
  actor: string,
): Promise<void> {
  const open = (await trx('orders')
    .where({ subscription_id: subscriptionId, kind: 'addon' })
    .whereIn('status', ['pending_payment', 'payment_failed'])
    .forUpdate()
    .select('id')) as { id: string }[];
  for (const { id } of open) {
    const paying = await trx('payments')
      .where('order_id', id)
      .whereIn('status', ['created', 'processing', 'requires_action'])
      .first('id');
    if (paying) throw new Conflict(PAYMENT_MESSAGES.inProgress);
    await moveOrder(trx, id, 'cancelled', { actor, reason: 'replaced by a newer add-on order' });
  }
}
