import { createHash } from 'node:crypto';
import { Conflict, Forbidden, NotAuthenticated, Unprocessable } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { definitions } from '../../../domain/entities/index.ts';
import type { ServerApp } from '../types.ts';
import {
  orderRequestSchema,
  PURCHASE_MESSAGES,
  upgradeOrderSchema,
  withoutClientPrices,
} from '../../../domain/orders/request.ts';
import { SHIPPING_MESSAGES } from '../../../domain/orders/shipping.ts';
import type { StateMove } from '../../../domain/orders/states.ts';
import type { Config } from '../../config.ts';
import { newId } from '../../db/ids.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { MailJobs } from '../../mail/deliveries.ts';
import { isDeliveryDate } from '../../purchase/delivery-dates.ts';
import { registerEntityService } from '../entity/register.ts';
import { invalid } from '../entity/validate.ts';
import { configureFulfilments } from './fulfilments.ts';
import { insertNumberedOrder, orderNumber } from './numbered.ts';
import { defineOrderMailJobs } from './mail-jobs.ts';
import { parseRequest, priceChoice, priceColumns } from './price.ts';
import {
  priceUpgradeOf,
  replaceOpenAddOnOrders,
  subscriptionToUpgrade,
  upgradeCatalogue,
  upgradeLines,
} from './upgrade.ts';

export { orderNumber } from './numbered.ts';

/** A digest of what was asked for, so the same key with another request is told apart. */
function digest(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

type Caller = { _id: unknown; role?: string };

interface OrderRulesOptions {
  knex: Knex;
  /** Today, for the delivery days on offer; tests fix it. */
  now: () => Date;
}

/**
 * What the orders service adds on `create`: the buyer is signed in with a verified email; the
 * request is checked (browser-computed prices ignored), priced again on the server, and its
 * delivery day must be on offer; the buyer's key makes a repeated request the same order, and a
 * different request under the same key a 422. The order starts pending payment, its first move
 * in its history. The generic create never runs: every field of an order is the server's.
 */
export function orderRules({ knex, now }: OrderRulesOptions) {
  return async (context: HookContext, next: NextFunction) => {
    if (context.method !== 'create') return next();
    const caller = context.params.user as Caller | undefined;
    if (!caller) throw new NotAuthenticated('auth.notAuthenticated');
    const userId = String(caller._id);
    if (typeof context.data !== 'object' || context.data === null || Array.isArray(context.data))
      throw invalid({ _: 'validation.invalid' });
    // The row rules name the caller as the owner; an order is always its caller's own.
    const { user, ...data } = context.data as Record<string, unknown>;
    if (user !== undefined && String(user) !== userId) throw invalid({ user: 'validation.unknownField' });
    if ('subscription' in data) {
      const id = await placeUpgradeOrder(context.app, knex, userId, data, now());
      context.result = await context.service.get(id);
      return;
    }
    const request = parseRequest(orderRequestSchema, withoutClientPrices(data));

    const account = (await knex('users').where('id', userId).first('email_verified_at')) as
      { email_verified_at: Date | null } | undefined;
    if (!account?.email_verified_at) throw new Forbidden(PURCHASE_MESSAGES.verifyFirst);

    const { idempotencyKey, ...asked } = request;
    const requestHash = digest(asked);
    const answer = async (id: string) => {
      context.result = await context.service.get(id);
    };
    const earlier = async () => {
      const row = (await knex('orders')
        .where({ user_id: userId, idempotency_key: idempotencyKey })
        .first('id', 'request_hash')) as { id: string; request_hash: string } | undefined;
      if (row && row.request_hash !== requestHash) throw new Unprocessable(PURCHASE_MESSAGES.idempotencyMismatch);
      return row?.id;
    };
    const first = await earlier();
    if (first) return answer(first);

    const { template, price } = await priceChoice(context.app, request, request.shipping.country);
    if (!isDeliveryDate(request.shipping.country, request.shipping.shippingDate, { now: now() })) {
      throw invalid({ 'shipping.shippingDate': SHIPPING_MESSAGES.dateUnavailable });
    }

    const placed: StateMove = {
      from: 'draft',
      to: 'pending_payment',
      at: new Date().toISOString(),
      actor: userId,
      reason: 'order placed',
    };
    const row = {
      user_id: userId,
      status: 'pending_payment',
      industry_id: template.industry,
      plan_id: template._id,
      plan_type: template.type,
      ...priceColumns(price),
      period: request.period,
      shipping: JSON.stringify(request.shipping),
      idempotency_key: idempotencyKey,
      request_hash: requestHash,
      history: JSON.stringify([placed]),
    };
    for (let attempt = 0; ; attempt += 1) {
      try {
        // A concurrent request with the same key waits here for the first to commit, then inserts nothing.
        const inserted = (await knex('orders')
          .insert({ id: newId(), number: orderNumber(), ...row })
          .onConflict(['user_id', 'idempotency_key'])
          .ignore()
          .returning('id')) as { id: string }[];
        const id = inserted[0]?.id ?? (await earlier());
        if (!id) throw new Conflict(PURCHASE_MESSAGES.inProgress);
        return answer(id);
      } catch (error) {
        // Two random order numbers met (about one in a trillion): draw another.
        const pg = error as { code?: string; constraint?: string };
        if (pg.code === '23505' && pg.constraint === 'orders_number_unique' && attempt < 3) continue;
        throw error;
      }
    }
  };
}

/**
 * An order of add-ons for the caller's subscription (decision 026): priced by `priceUpgrade` on
 * today's share of the period, under the subscription's lock, so two orders for it queue; the
 * caller's key makes a repeat the same order; a new order replaces the open ones. Answers its id.
 */
async function placeUpgradeOrder(
  app: ServerApp,
  knex: Knex,
  userId: string,
  data: Record<string, unknown>,
  now: Date,
): Promise<string> {
  const request = parseRequest(upgradeOrderSchema, withoutClientPrices(data));
  const { idempotencyKey, ...asked } = request;
  const requestHash = digest({ upgrade: asked });
  const catalogue = await upgradeCatalogue(app);
  return knex.transaction(async (trx) => {
    const subject = await subscriptionToUpgrade(trx, request.subscription, userId, true);
    const earlier = (await trx('orders')
      .where({ user_id: userId, idempotency_key: idempotencyKey })
      .first('id', 'request_hash')) as { id: string; request_hash: string } | undefined;
    if (earlier) {
      if (earlier.request_hash !== requestHash) throw new Unprocessable(PURCHASE_MESSAGES.idempotencyMismatch);
      return earlier.id;
    }
    const price = priceUpgradeOf(subject, catalogue, request.addOns, now);
    await replaceOpenAddOnOrders(trx, subject.subscription.id, userId);
    const { subscription } = subject;
    const placed: StateMove = {
      from: 'draft',
      to: 'pending_payment',
      at: now.toISOString(),
      actor: userId,
      reason: 'add-on order placed',
    };
    return insertNumberedOrder(trx, {
      kind: 'addon',
      subscription_id: subscription.id,
      user_id: userId,
      status: 'pending_payment',
      seller: price.seller,
      industry_id: subscription.industry_id,
      plan_id: subscription.plan_id,
      plan_type: subscription.plan_type,
      items: JSON.stringify(upgradeLines(price)),
      currency: price.currency,
      prepaid_months: 0,
      contract_months: 0,
      monthly: price.monthlyAfter - price.monthlyBefore,
      yearly: price.yearly,
      one_time: price.oneTime,
      subtotal: price.subtotal,
      tax_rate: price.taxRate,
      tax: price.tax,
      total: price.total,
      shipping: JSON.stringify(subject.shipping),
      idempotency_key: idempotencyKey,
      request_hash: requestHash,
      history: JSON.stringify([placed]),
    });
  });
}

export interface OrdersDependencies {
  config: Config;
  knex: Knex;
  logger: Logger;
  jobs: JobQueue;
  mail: MailJobs;
  now?: () => Date;
}

/**
 * The purchase records: orders (placed by their buyer through the rules above), subscriptions and
 * invoices, which only the server writes and their owners read; and the mail jobs of a paid order.
 * Payment attempts have their own service (server/services/payments).
 */
/**
 * What `orders` create takes, as `orderRules` parses it: a plan's order, or add-ons for a
 * subscription the buyer has (with `subscription`). The API's reference shows these, not the
 * order's fields, which are all the server's but the shipping address.
 */
export const orderRequests = { create: [orderRequestSchema, upgradeOrderSchema] } as const;

export function configureOrders(
  app: ServerApp,
  { config, knex, logger, mail, now = () => new Date() }: OrdersDependencies,
): void {
  registerEntityService(app, definitions.orders, { hooks: [orderRules({ knex, now })], requests: orderRequests });
  registerEntityService(app, definitions.subscriptions);
  registerEntityService(app, definitions.invoices);
  registerEntityService(app, definitions.balanceEntries);
  configureFulfilments(app, knex);
  defineOrderMailJobs(app, mail, config, logger);
}
