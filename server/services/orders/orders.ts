import { createHash, randomInt } from 'node:crypto';
import { Conflict, Forbidden, NotAuthenticated, Unprocessable } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { definitions } from '../../../domain/entities/index.ts';
import type { ServerApp } from '../types.ts';
import { orderRequestSchema, PURCHASE_MESSAGES, withoutClientPrices } from '../../../domain/orders/request.ts';
import { SHIPPING_MESSAGES } from '../../../domain/orders/shipping.ts';
import type { StateMove } from '../../../domain/orders/states.ts';
import type { Config } from '../../config.ts';
import { newId } from '../../db/ids.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { isDeliveryDate } from '../../purchase/delivery-dates.ts';
import { registerEntityService } from '../entity/register.ts';
import { invalid } from '../entity/validate.ts';
import { defineOrderMailJobs } from './mail-jobs.ts';
import { parseRequest, priceChoice, priceColumns } from './price.ts';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** An order's number: `TP-` and 8 random base32 characters (decision 018). */
export function orderNumber(): string {
  let code = '';
  for (let i = 0; i < 8; i += 1) code += BASE32[randomInt(32)];
  return `TP-${code}`;
}

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
    if (typeof context.data !== 'object' || context.data === null || Array.isArray(context.data)) throw invalid({ _: 'validation.invalid' });
    // The row rules name the caller as the owner; an order is always its caller's own.
    const { user, ...data } = context.data as Record<string, unknown>;
    if (user !== undefined && String(user) !== userId) throw invalid({ user: 'validation.unknownField' });
    const request = parseRequest(orderRequestSchema, withoutClientPrices(data));

    const account = (await knex('users').where('id', userId).first('email_verified_at')) as { email_verified_at: Date | null } | undefined;
    if (!account?.email_verified_at) throw new Forbidden(PURCHASE_MESSAGES.verifyFirst);

    const { idempotencyKey, ...asked } = request;
    const requestHash = digest(asked);
    const answer = async (id: string) => {
      context.result = await context.service.get(id);
    };
    const earlier = async () => {
      const row = (await knex('orders').where({ user_id: userId, idempotency_key: idempotencyKey }).first('id', 'request_hash')) as
        | { id: string; request_hash: string }
        | undefined;
      if (row && row.request_hash !== requestHash) throw new Unprocessable(PURCHASE_MESSAGES.idempotencyMismatch);
      return row?.id;
    };
    const first = await earlier();
    if (first) return answer(first);

    const { template, price } = await priceChoice(context.app, request, request.shipping.country);
    if (!isDeliveryDate(request.shipping.country, request.shipping.shippingDate, { now: now() })) {
      throw invalid({ 'shipping.shippingDate': SHIPPING_MESSAGES.dateUnavailable });
    }

    const placed: StateMove = { from: 'draft', to: 'pending_payment', at: new Date().toISOString(), actor: userId, reason: 'order placed' };
    const row = {
      user_id: userId,
      status: 'pending_payment',
      industry_id: template.industry,
      plan_id: template._id,
      plan_type: template.type,
      ...priceColumns(price),
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

export interface OrdersDependencies {
  config: Config;
  knex: Knex;
  logger: Logger;
  jobs: JobQueue;
  now?: () => Date;
}

/**
 * The purchase records: orders (placed by their buyer through the rules above), subscriptions and
 * invoices, which only the server writes and their owners read; and the mail jobs of a paid order.
 * Payment attempts have their own service (server/services/payments).
 */
export function configureOrders(app: ServerApp, { config, knex, logger, jobs, now = () => new Date() }: OrdersDependencies): void {
  registerEntityService(app, definitions.orders, { hooks: [orderRules({ knex, now })] });
  registerEntityService(app, definitions.subscriptions);
  registerEntityService(app, definitions.invoices);
  defineOrderMailJobs(app, jobs, config, logger);
}

