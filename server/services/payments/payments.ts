import { Conflict, Forbidden, NotAuthenticated, NotFound, Unavailable, Unprocessable } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { definitions } from '../../../domain/entities/index.ts';
import type { ServerApp } from '../types.ts';
import { PAYMENT_MESSAGES, paymentRequestSchema } from '../../../domain/orders/payment-request.ts';
import { PURCHASE_MESSAGES } from '../../../domain/orders/request.ts';
import type { ShippingCountry } from '../../../domain/orders/countries.ts';
import { SHIPPING_MESSAGES } from '../../../domain/orders/shipping.ts';
import { clockOf } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { newId } from '../../db/ids.ts';
import { localeFromHeaders } from '../../i18n.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { GatewayError, type CardSummary, type Charge, type PaymentGateway } from '../../payments/gateway.ts';
import { createGateway } from '../../payments/index.ts';
import { isDeliveryDate } from '../../purchase/delivery-dates.ts';
import { registerEntityService } from '../entity/register.ts';
import { invalid } from '../entity/validate.ts';
import { parseRequest } from '../orders/price.ts';
import { movePayment, tryMove } from '../orders/transitions.ts';
import {
  applyCharge,
  chargeRequestOf,
  digest,
  failWithoutCharge,
  OPEN_PAYMENT_STATES,
  PAYABLE_ORDER_STATES,
  receiveEvent,
  type PaymentRow,
  type SettleDependencies,
  type SettleOutcome,
} from './settle.ts';

/** How long a repeated request waits for the first one's attempt to leave `created`/`processing`. */
const DUPLICATE_WAIT_MS = 25_000;
/** An attempt still `created` after this was never sent to the gateway (the server stopped): it is cancelled. */
const STALE_CREATED_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isOpen = (status: string) => (OPEN_PAYMENT_STATES as readonly string[]).includes(status);

interface OrderRow {
  id: string;
  number: string;
  user_id: string;
  status: string;
  total: number;
  currency: string;
  shipping: { country: ShippingCountry; shippingDate: string };
  kind: 'plan' | 'addon' | 'renewal' | 'termination';
  subscription_id: string | null;
}

/** The card an attempt charges: what the member sees of it, and the gateway's references. */
type AttemptCard = CardSummary & { customerId: string; paymentMethodId: string };

type Caller = { _id: unknown };

export interface PaymentsOptions {
  config: Config;
  knex: Knex;
  logger: Logger;
  jobs: JobQueue;
  app: ServerApp;
}

/**
 * Paying orders (decision 019, addendum): an attempt per card tried, charged once under a key
 * derived from its id, and settled from the gateway's answer, its webhooks, or a later read.
 * Every state moves through the transition tables; nothing here is ever charged twice.
 */
export class Payments {
  private readonly options: PaymentsOptions;
  private readonly deps: SettleDependencies;

  constructor(options: PaymentsOptions) {
    this.options = options;
    this.deps = { knex: options.knex, logger: options.logger.child({ component: 'payments' }), jobs: options.jobs };
  }

  /** The gateway in use (a test may set `paymentGateway` on the app to another, e.g. with a shorter timeout). */
  get gateway(): PaymentGateway {
    return this.options.app.get('paymentGateway') as PaymentGateway;
  }

  private get knex(): Knex {
    return this.options.knex;
  }

  /** Pays an order for its buyer; answers the attempt's id (its state tells the outcome). */
  async create(data: unknown, params: { user?: Caller; headers?: Record<string, unknown> }): Promise<string> {
    const caller = params.user;
    if (!caller) throw new NotAuthenticated('auth.notAuthenticated');
    const userId = String(caller._id);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalid({ _: 'validation.invalid' });
    // The row rules name the caller as the owner; an attempt is always its caller's own.
    const { user, ...rest } = data as Record<string, unknown>;
    if (user !== undefined && String(user) !== userId) throw invalid({ user: 'validation.unknownField' });
    const request = parseRequest(paymentRequestSchema, rest);

    const account = (await this.knex('users').where('id', userId).first('email', 'name', 'email_verified_at')) as
      { email: string; name: string | null; email_verified_at: Date | null } | undefined;
    if (!account?.email_verified_at) throw new Forbidden(PURCHASE_MESSAGES.verifyFirst);
    // Another member's order is as if it did not exist.
    const order = (await this.knex('orders')
      .where({ id: request.order, user_id: userId })
      .first('id', 'number', 'user_id', 'status', 'total', 'currency', 'shipping', 'kind', 'subscription_id')) as
      OrderRow | undefined;
    if (!order) throw new NotFound(`No record found for id '${request.order}'`);

    const { idempotencyKey, ...asked } = request;
    const requestHash = digest(asked);
    const earlier = async () => {
      const row = (await this.knex('payments')
        .where({ user_id: userId, idempotency_key: idempotencyKey })
        .first('id', 'request_hash')) as { id: string; request_hash: string } | undefined;
      if (row && row.request_hash !== requestHash) throw new Unprocessable(PURCHASE_MESSAGES.idempotencyMismatch);
      return row?.id;
    };
    const first = await earlier();
    if (first) return this.answerRepeat(first);

    if (!(PAYABLE_ORDER_STATES as readonly string[]).includes(order.status))
      throw new Conflict(PAYMENT_MESSAGES.orderNotPayable, { status: order.status });
    if (request.expectedTotal !== Number(order.total))
      throw new Conflict(PAYMENT_MESSAGES.priceChanged, { total: Number(order.total), currency: order.currency });
    // A plan's delivery day must still be on offer; add-ons are set up remotely, with no delivery.
    if (
      order.kind === 'plan' &&
      !isDeliveryDate(order.shipping.country, order.shipping.shippingDate, { now: clockOf(this.options.app)() })
    ) {
      throw invalid({ 'shipping.shippingDate': SHIPPING_MESSAGES.chooseDate });
    }

    const gateway = this.gateway;
    let card: AttemptCard;
    if (request.cardOnFile) card = await this.cardOnFileFor(order, userId, gateway);
    else {
      const paymentMethodId = request.paymentMethodId ?? '';
      const customerId = await this.customerFor(userId, account, gateway);
      try {
        card = { ...(await gateway.attachPaymentMethod({ customerId, paymentMethodId })), customerId, paymentMethodId };
      } catch (error) {
        throw this.gatewayFailure(error, { paymentMethodId: PAYMENT_MESSAGES.paymentMethodInvalid });
      }
    }

    const id = newId();
    let inserted: { id: string }[];
    try {
      inserted = (await this.knex('payments')
        .insert({
          id,
          order_id: order.id,
          user_id: userId,
          status: 'created',
          gateway: gateway.name,
          amount: order.total,
          currency: order.currency,
          card: JSON.stringify(card),
          billing_address: JSON.stringify(request.billingAddress),
          idempotency_key: idempotencyKey,
          request_hash: requestHash,
          return_url: this.returnUrl(order, params.headers) ?? null,
          history: JSON.stringify([]),
        })
        .onConflict(['user_id', 'idempotency_key'])
        .ignore()
        .returning('id')) as { id: string }[];
    } catch (error) {
      const pg = error as { code?: string; constraint?: string; message?: string };
      if (
        pg.code === '23505' &&
        (pg.constraint === 'payments_order_in_flight' || pg.message?.includes('payments_order_in_flight'))
      ) {
        // Which unique rule a concurrent twin trips first is the database's choice: with the same
        // key, the twin's attempt is the answer; with another key, the order is busy.
        const repeated = await earlier();
        if (repeated) return this.answerRepeat(repeated);
        throw new Conflict(PAYMENT_MESSAGES.inProgress);
      }
      throw error;
    }
    // The same key sent twice at once: the first request's attempt is the answer.
    if (inserted.length === 0) {
      const repeated = await earlier();
      if (!repeated) throw new Conflict(PAYMENT_MESSAGES.inProgress);
      return this.answerRepeat(repeated);
    }

    // This attempt is now the order's one in flight. A challenge left open by an earlier attempt
    // could still be passed and charge a second card: it is cancelled at the gateway first.
    await this.closeOpenChallenges(order.id, id, userId);
    const ready = await this.knex.transaction(async (trx) => {
      const current = (await trx('orders').where('id', order.id).forUpdate().first('status')) as { status: string };
      if (!(PAYABLE_ORDER_STATES as readonly string[]).includes(current.status)) {
        await movePayment(trx, id, 'cancelled', { actor: userId, reason: `order ${current.status}` });
        return false;
      }
      await tryMove(trx, 'order', order.id, 'pending_payment', { actor: userId, reason: `payment ${id} started` });
      await movePayment(trx, id, 'processing', { actor: userId, reason: 'sent to the gateway' });
      return true;
    });
    if (!ready) throw new Conflict(PAYMENT_MESSAGES.orderNotPayable);

    const row = (await this.knex('payments').where('id', id).first()) as PaymentRow;
    let charge: Charge;
    try {
      charge = await gateway.charge(chargeRequestOf(row, order.number));
    } catch (error) {
      if (error instanceof GatewayError && (error.code === 'timeout' || error.code === 'unavailable')) {
        // The charge may or may not exist: the attempt stays `processing` until a webhook or a read
        // settles it (a webhook may have done so while we waited: then that is the answer).
        this.deps.logger.warn({ payment: id, code: error.code }, 'the gateway did not answer a charge');
        const now = (await this.knex('payments').where('id', id).first('status')) as { status: string };
        if (now.status !== 'processing') return id;
        throw new Unavailable(PAYMENT_MESSAGES.gatewayUnavailable, { payment: id });
      }
      this.deps.logger.error({ err: error, payment: id }, 'the gateway refused a charge request');
      await failWithoutCharge(this.knex, id, `gateway:${gateway.name}`, 'the gateway refused the request');
      return id;
    }
    await applyCharge(this.deps, this.knex, id, charge, `gateway:${gateway.name}`);
    return id;
  }

  /**
   * Asks the gateway where an open attempt stands and applies it: by its charge, or, when the
   * gateway's answer never came, by sending the same charge again under the same key (which
   * answers the one charge, made or not yet made, never a second). A gateway that does not answer
   * leaves the attempt as it is.
   */
  async sync(paymentId: string): Promise<SettleOutcome> {
    const row = (await this.knex('payments').where('id', paymentId).first()) as PaymentRow | undefined;
    if (!row || !isOpen(row.status)) return 'unchanged';
    const gateway = this.gateway;
    if (row.gateway !== gateway.name) return 'unchanged';
    if (row.status === 'created') {
      if (Date.now() - new Date(row.created_at).getTime() < STALE_CREATED_MS) return 'unchanged';
      return (await tryMove(this.knex, 'payment', row.id, 'cancelled', {
        actor: 'system',
        reason: 'never sent to the gateway',
      }))
        ? 'applied'
        : 'unchanged';
    }
    try {
      let charge: Charge;
      if (row.gateway_charge_id) charge = await gateway.retrieve(row.gateway_charge_id);
      else {
        const order = (await this.knex('orders').where('id', row.order_id).first('number')) as { number: string };
        charge = await gateway.charge(chargeRequestOf(row, order.number));
      }
      return await applyCharge(this.deps, this.knex, row.id, charge, `gateway:${gateway.name}`);
    } catch (error) {
      this.deps.logger.warn({ err: error, payment: paymentId }, 'an open payment could not be settled now');
      return 'unchanged';
    }
  }

  /** Applies a verified webhook event (server/services/payments/webhooks.ts). */
  receive(event: Parameters<typeof receiveEvent>[2]): Promise<SettleOutcome | 'duplicate'> {
    return receiveEvent(this.deps, this.gateway.name, event);
  }

  /** A repeated request: the first attempt, once it has left `created`/`processing` (or as it stands after a while). */
  private async answerRepeat(paymentId: string): Promise<string> {
    const deadline = Date.now() + DUPLICATE_WAIT_MS;
    for (;;) {
      const row = (await this.knex('payments').where('id', paymentId).first('status')) as { status: string };
      if (row.status !== 'created' && row.status !== 'processing') return paymentId;
      if (Date.now() > deadline) {
        await this.sync(paymentId);
        return paymentId;
      }
      await sleep(50);
    }
  }

  /** Cancels, at the gateway, the challenges earlier attempts of an order left open (or applies their outcome if they ended). */
  private async closeOpenChallenges(orderId: string, exceptId: string, actor: string): Promise<void> {
    const open = (await this.knex('payments')
      .where({ order_id: orderId, status: 'requires_action' })
      .whereNot('id', exceptId)
      .select('id', 'gateway_charge_id')) as {
      id: string;
      gateway_charge_id: string | null;
    }[];
    for (const attempt of open) {
      try {
        const charge = attempt.gateway_charge_id
          ? await this.gateway.cancel(attempt.gateway_charge_id, `cancel_${attempt.id}`)
          : undefined;
        if (charge) await applyCharge(this.deps, this.knex, attempt.id, charge, `gateway:${this.gateway.name}`);
        else
          await tryMove(this.knex, 'payment', attempt.id, 'cancelled', {
            actor,
            reason: 'replaced by another attempt',
          });
      } catch (error) {
        // Ended meanwhile (passed or failed): its real state decides.
        const settled = await this.sync(attempt.id);
        const row = (await this.knex('payments').where('id', attempt.id).first('status')) as { status: string };
        if (row.status === 'requires_action') {
          this.deps.logger.warn(
            { err: error, payment: attempt.id, settled },
            'an open challenge could not be cancelled',
          );
          await tryMove(this.knex, 'payment', exceptId, 'cancelled', {
            actor,
            reason: 'an earlier challenge is still open',
          });
          throw new Conflict(PAYMENT_MESSAGES.inProgress);
        }
      }
    }
  }

  /**
   * The card on file of an order's subscription, as an attempt charges it (decision 063): only
   * the caller's own subscription's, only one the gateway in use holds for the caller's own
   * customer there. The caller never names a card: there is nothing to point at another
   * member's. Anything else is a 409 before any attempt is written.
   */
  private async cardOnFileFor(order: OrderRow, userId: string, gateway: PaymentGateway): Promise<AttemptCard> {
    // An add-on order's alone: a plan's first order has no card yet, and renewals charge theirs off-session.
    const row =
      order.kind === 'addon' && order.subscription_id
        ? ((await this.knex('subscriptions')
            .where({ id: order.subscription_id, user_id: userId })
            .first('card', 'payment_method')) as
            | {
                card: CardSummary | null;
                payment_method: { gateway: string; customerId: string; paymentMethodId: string } | null;
              }
            | undefined)
        : undefined;
    const method = row?.payment_method;
    if (!row?.card || !method || method.gateway !== gateway.name)
      throw new Conflict(PAYMENT_MESSAGES.noCardOnFile, { cardOnFile: 'unavailable' });
    const customer = (await this.knex('payment_customers')
      .where({ user_id: userId, gateway: gateway.name })
      .first('customer_id')) as { customer_id: string } | undefined;
    if (customer?.customer_id !== method.customerId) {
      // Never charged: a card on file kept for another customer than the member's own is a fault of ours.
      this.deps.logger.error(
        { order: order.id, subscription: order.subscription_id },
        'a card on file does not belong to its member’s customer at the gateway',
      );
      throw new Conflict(PAYMENT_MESSAGES.noCardOnFile, { cardOnFile: 'unavailable' });
    }
    const { brand, last4, expMonth, expYear } = row.card;
    return { brand, last4, expMonth, expYear, customerId: method.customerId, paymentMethodId: method.paymentMethodId };
  }

  /** The user's customer at the gateway, made once and kept on our side. */
  async customerFor(
    userId: string,
    account: { email: string; name: string | null },
    gateway: PaymentGateway,
  ): Promise<string> {
    const known = (await this.knex('payment_customers')
      .where({ user_id: userId, gateway: gateway.name })
      .first('customer_id')) as { customer_id: string } | undefined;
    if (known) return known.customer_id;
    let customerId: string;
    try {
      ({ customerId } = await gateway.createCustomer({
        userId,
        email: account.email,
        ...(account.name ? { name: account.name } : {}),
      }));
    } catch (error) {
      throw this.gatewayFailure(error);
    }
    // Two first payments at once: the first customer kept wins (the other stays unused at the gateway).
    await this.knex('payment_customers')
      .insert({ user_id: userId, gateway: gateway.name, customer_id: customerId })
      .onConflict(['user_id', 'gateway'])
      .ignore();
    const kept = (await this.knex('payment_customers')
      .where({ user_id: userId, gateway: gateway.name })
      .first('customer_id')) as { customer_id: string };
    return kept.customer_id;
  }

  /** A gateway's refusal before anything was charged: 503 when it did not answer, 400 on the field it refused. */
  gatewayFailure(error: unknown, fieldErrors?: Record<string, string>): Error {
    if (error instanceof GatewayError && error.code === 'invalid_request' && fieldErrors) return invalid(fieldErrors);
    this.deps.logger.warn({ err: error }, 'the payment gateway failed before a charge');
    return new Unavailable(PAYMENT_MESSAGES.gatewayUnavailable);
  }

  /**
   * Where the provider's challenge page returns the buyer when it is shown as a page of its own:
   * a plan's to the payment step of the purchase flow, an add-on order's to its plan's upgrade page
   * (which confirms the order once paid).
   */
  private returnUrl(order: OrderRow, headers: Record<string, unknown> | undefined): string | undefined {
    const { config } = this.options;
    let base = config.publicUrl ? new URL(config.publicUrl).origin : undefined;
    const origin = headers?.origin;
    if (
      !base &&
      config.env !== 'production' &&
      typeof origin === 'string' &&
      /^https?:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/.test(origin)
    )
      base = origin;
    if (!base) return undefined;
    const lang = localeFromHeaders(headers);
    const orderId = encodeURIComponent(order.id);
    if (order.kind === 'addon' && order.subscription_id)
      return `${base}/${lang}/upgrade/${encodeURIComponent(order.subscription_id)}?step=done&order=${orderId}`;
    return `${base}/${lang}/subscription?step=payment&order=${orderId}`;
  }
}

/** The payments service's own rules: `create` pays (the generic create never runs); an outside `get` settles an open attempt first. */
export function paymentRules(payments: Payments) {
  return async (context: HookContext, next: NextFunction) => {
    if (context.method === 'create') {
      const id = await payments.create(
        context.data,
        context.params as { user?: Caller; headers?: Record<string, unknown> },
      );
      context.result = await context.service.get(id);
      return;
    }
    await next();
    if (context.method !== 'get' || !context.params.provider) return;
    const result = context.result as { _id: string; status: string } | undefined;
    if (!result || !isOpen(result.status)) return;
    // Settled here or by a concurrent read or webhook meanwhile: the row as it is now.
    await payments.sync(result._id);
    context.result = await context.service.get(result._id, { query: context.params.query });
  };
}

export interface PaymentsDependencies {
  config: Config;
  knex: Knex;
  logger: Logger;
  jobs: JobQueue;
}

/** Registers `payments` and keeps the gateway and the payer on the app (the webhook receiver uses them). */
export function configurePayments(app: ServerApp, { config, knex, logger, jobs }: PaymentsDependencies): Payments {
  app.set('paymentGateway', createGateway(config, knex, logger));
  const payments = new Payments({ app, config, knex, logger, jobs });
  app.set('payments', payments);
  // The reference shows the request `Payments.create` parses, not the attempt's fields (decision 058).
  registerEntityService(app, definitions.payments, {
    hooks: [paymentRules(payments)],
    requests: { create: paymentRequestSchema },
  });
  return payments;
}

/** The app's payer (set by configurePayments). */
export function paymentsOf(app: { get(name: string): unknown }): Payments {
  const payments = app.get('payments');
  if (!(payments instanceof Payments)) throw new Error('payments are not configured');
  return payments;
}
