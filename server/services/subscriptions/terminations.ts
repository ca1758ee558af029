import { BadRequest, Conflict, type FeathersError, NotFound, PaymentError, Unavailable } from '@feathersjs/errors';
import type { Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { dayOf, type IsoDay } from '../../../domain/billing/calendar.ts';
import { terminationOf } from '../../../domain/billing/lifecycle.ts';
import { LOCALES, type I18nText } from '../../../domain/locales.ts';
import type { Seller } from '../../../domain/orders/countries.ts';
import type { OrderLine } from '../../../domain/orders/pricing.ts';
import type { StateMove } from '../../../domain/orders/states.ts';
import { taxFor } from '../../../domain/tax.ts';
import { clockOf } from '../../clock.ts';
import { newId, RECORD_ID } from '../../db/ids.ts';
import { localeFromHeaders, translate } from '../../i18n.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { PaymentGateway } from '../../payments/gateway.ts';
import { insertNumberedOrder } from '../orders/numbered.ts';
import { movePayment, tryMove } from '../orders/transitions.ts';
import { chargeOffSession, type OffSessionOutcome } from '../payments/off-session.ts';
import { digest, OPEN_PAYMENT_STATES } from '../payments/settle.ts';
import type { ServerApp } from '../types.ts';
import { type SubscriptionRow, termsOf } from './renewals.ts';
import { announce } from './announce.ts';

/*
 * Ending a plan inside its minimum term (decision 044): the termination fee the plan page shows
 * (`terminationOf`, the same figure) is charged off-session on the card on file, as a renewal is,
 * in an order of its own (`termination`) with its invoice; once paid the plan ends at once. A
 * declined card changes nothing but the record of the attempt.
 */

/** The messages of a termination that cannot be made. */
export const TERMINATION_MESSAGES = {
  /** 409: Lite, or past its minimum term (or the term ends with the period paid): stop it instead. */
  notInTerm: 'termination.notInTerm',
  /** 409: the plan has ended already. */
  ended: 'termination.ended',
  /** 409: a renewal is overdue: settle it first. */
  overdue: 'termination.overdue',
  /** 409: another termination of the plan is waiting for the gateway. */
  inProgress: 'termination.inProgress',
  /** 409: the fee is not the one the caller was shown (`data: {fee, currency}` holds it). */
  feeChanged: 'termination.feeChanged',
  /** 402: the card on file was not charged; `data.reason` is why, in the caller's language. */
  declined: 'termination.declined',
  /** 402: there is no card on file the gateway holds (a demo plan's card is shown, held by none). */
  noCard: 'termination.noCard',
  /** 503: the gateway did not answer; the plan ends once a webhook reports the charge made. */
  pending: 'termination.pending',
} as const;

/** The order line's name, in every language. */
function feeLineName(): I18nText {
  return Object.fromEntries(LOCALES.map((locale) => [locale, translate(locale, 'termination.lineName')])) as I18nText;
}

/** Roles that may terminate any member's plan (the owner may terminate their own). */
const STAFF_TERMINATORS = ['admin'];

type Caller = { _id: unknown; role?: string };

export interface TerminationAnswer {
  subscription: string;
  status: 'cancelled';
  /** The Hong Kong day the plan ended. */
  endedOn: IsoDay;
  fee: number;
  currency: string;
  monthsLeft: number;
  order: { _id: string; number: string };
  invoice: { _id: string; number: string } | null;
}

export interface TerminationsDependencies {
  knex: Knex;
  logger: Logger;
  jobs: JobQueue;
  gateway: () => PaymentGateway;
}

/**
 * `terminations` create `{subscription, expectedFee?}`: the owner (or an admin, for any member)
 * ends a plan inside its minimum term now, for the fee. Another member's plan is 404. The answer
 * is the ended plan with its fee's order and invoice; a card that is not charged is a 402 and
 * leaves the plan as it was.
 */
export class TerminationsService {
  private readonly app: ServerApp;
  private readonly deps: TerminationsDependencies;

  constructor(app: ServerApp, deps: TerminationsDependencies) {
    this.app = app;
    this.deps = deps;
  }

  private get knex(): Knex {
    return this.deps.knex;
  }

  async create(data: unknown, params: Params & { user?: Caller | null } = {}): Promise<TerminationAnswer> {
    const body =
      typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    const errors: Record<string, string> = {};
    if (typeof body.subscription !== 'string' || !RECORD_ID.test(body.subscription))
      errors.subscription = 'validation.invalid';
    if (
      body.expectedFee !== undefined &&
      (typeof body.expectedFee !== 'number' || !Number.isInteger(body.expectedFee) || body.expectedFee < 0)
    ) {
      errors.expectedFee = 'validation.invalid';
    }
    for (const field of Object.keys(body))
      if (field !== 'subscription' && field !== 'expectedFee') errors[field] = 'validation.unknownField';
    if (Object.keys(errors).length > 0) throw new BadRequest('validation.failed', { errors });
    const subscriptionId = body.subscription as string;
    const expectedFee = body.expectedFee as number | undefined;
    const userId = String(params.user?._id ?? '');
    const staff = STAFF_TERMINATORS.includes(params.user?.role ?? '');
    const actor = userId || 'system';
    const now = clockOf(this.app)();
    const today = dayOf(now);

    // Under the subscription's lock: the checks, the fee's order and the attempt, so a second
    // request (a double click, another instance) finds this one's attempt and charges nothing.
    const placed = await this.knex.transaction(async (trx) => {
      const scope = staff ? { id: subscriptionId } : { id: subscriptionId, user_id: userId };
      const row = (await trx('subscriptions').where(scope).forUpdate().first()) as SubscriptionRow | undefined;
      if (!row) throw new NotFound(`No record found for id '${subscriptionId}'`);
      if (row.status === 'cancelled') throw new Conflict(TERMINATION_MESSAGES.ended, { status: row.status });
      if (row.status === 'past_due' || row.status === 'unpaid')
        throw new Conflict(TERMINATION_MESSAGES.overdue, { status: row.status });
      if (row.status !== 'active' && row.status !== 'non_renewing')
        throw new Conflict(TERMINATION_MESSAGES.notInTerm, { status: row.status });
      const termination = terminationOf(termsOf(row), today, row.monthly);
      if (!termination) throw new Conflict(TERMINATION_MESSAGES.notInTerm, { status: row.status });
      if (expectedFee !== undefined && expectedFee !== termination.fee) {
        throw new Conflict(TERMINATION_MESSAGES.feeChanged, { fee: termination.fee, currency: row.currency });
      }
      const open = (await trx('payments as p')
        .join('orders as o', 'o.id', 'p.order_id')
        .where({ 'o.subscription_id': row.id, 'o.kind': 'termination' })
        .whereIn('p.status', OPEN_PAYMENT_STATES as unknown as string[])
        .first('p.id')) as { id: string } | undefined;
      if (open) throw new Conflict(TERMINATION_MESSAGES.inProgress);

      const planOrder = (await trx('orders').where('id', row.order_id).first('seller', 'shipping')) as {
        seller: Seller;
        shipping: unknown;
      };
      const line: OrderLine = {
        key: 'termination',
        kind: 'termination',
        name: feeLineName(),
        billing: 'monthly',
        unitPrice: row.monthly,
        count: 1,
        amount: termination.fee,
      };
      const tax = taxFor(planOrder.seller, termination.fee);
      const attemptId = newId();
      const placedMove: StateMove = {
        from: 'draft',
        to: 'pending_payment',
        at: now.toISOString(),
        actor,
        reason: `termination asked for on ${today}`,
      };
      const orderId = await insertNumberedOrder(trx, {
        kind: 'termination',
        subscription_id: row.id,
        user_id: row.user_id,
        status: 'pending_payment',
        seller: planOrder.seller,
        industry_id: row.industry_id,
        plan_id: row.plan_id,
        plan_type: row.plan_type,
        items: JSON.stringify([line]),
        currency: row.currency,
        // The months the fee pays for, as a renewal's order keeps its period's (the invoice's lines read it so).
        prepaid_months: termination.monthsLeft,
        contract_months: 0,
        monthly: row.monthly,
        yearly: 0,
        one_time: 0,
        subtotal: termination.fee,
        tax_rate: tax.taxRate,
        tax: tax.tax,
        total: termination.fee,
        shipping: JSON.stringify(planOrder.shipping),
        // One order per request: a declined one stays as the record of that request.
        idempotency_key: `termination:${row.id}:${attemptId}`,
        request_hash: digest({ termination: row.id, today, fee: termination.fee }),
        history: JSON.stringify([placedMove]),
      });
      const method = row.payment_method;
      await trx('payments').insert({
        id: attemptId,
        order_id: orderId,
        user_id: row.user_id,
        status: 'created',
        gateway: this.deps.gateway().name,
        amount: termination.fee,
        currency: row.currency,
        card:
          row.card && method
            ? JSON.stringify({ ...row.card, customerId: method.customerId, paymentMethodId: method.paymentMethodId })
            : null,
        idempotency_key: `termination:${row.id}:${attemptId}`,
        request_hash: digest({ order: orderId, amount: termination.fee }),
        history: JSON.stringify([]),
      });
      return { row, termination, orderId, paymentId: attemptId };
    });

    const { row, termination, orderId, paymentId } = placed;
    const outcome = await this.charge(row, orderId, paymentId, termination.fee, actor);
    if (outcome !== 'succeeded') {
      // Nothing changes but the record of the attempt: the order is closed, the plan as it was.
      if (outcome !== 'pending')
        await tryMove(this.knex, 'order', orderId, 'cancelled', { actor, reason: 'termination fee not paid' });
      throw await this.failure(outcome, paymentId, params);
    }
    await announce(this.app, row.id);
    const order = (await this.knex('orders').where('id', orderId).first('number')) as { number: string };
    const invoice = (await this.knex('invoices')
      .where({ order_id: orderId, status: 'issued' })
      .first('id', 'number')) as { id: string; number: string } | undefined;
    return {
      subscription: row.id,
      status: 'cancelled',
      endedOn: today,
      fee: termination.fee,
      currency: row.currency,
      monthsLeft: termination.monthsLeft,
      order: { _id: orderId, number: order.number },
      invoice: invoice ? { _id: invoice.id, number: invoice.number } : null,
    };
  }

  /** The off-session charge of the fee on the card on file, settled as a renewal's is. */
  private async charge(
    row: SubscriptionRow,
    orderId: string,
    paymentId: string,
    amount: number,
    actor: string,
  ): Promise<OffSessionOutcome> {
    await movePayment(this.knex, paymentId, 'processing', {
      actor,
      reason: 'termination fee sent to the gateway off-session',
    });
    const order = (await this.knex('orders').where('id', orderId).first('number', 'currency')) as {
      number: string;
      currency: string;
    };
    return chargeOffSession(this.deps, this.deps.gateway(), {
      paymentId,
      order: { id: orderId, number: order.number, currency: order.currency },
      amount,
      card: row.payment_method,
      actor,
      what: 'termination',
    });
  }

  /** The error a termination that was not paid answers with. */
  private async failure(
    outcome: 'failed' | 'noCard' | 'pending',
    paymentId: string,
    params: Params,
  ): Promise<FeathersError> {
    if (outcome === 'pending') return new Unavailable(TERMINATION_MESSAGES.pending, { payment: paymentId });
    if (outcome === 'noCard') return new PaymentError(TERMINATION_MESSAGES.noCard);
    // Why the bank said no, as the card step words it, on the `card` field, in the caller's language.
    const attempt = (await this.knex('payments').where('id', paymentId).first('failure_message')) as {
      failure_message: string | null;
    };
    const locale = localeFromHeaders(params.headers as Record<string, unknown> | undefined);
    return new PaymentError(TERMINATION_MESSAGES.declined, {
      errors: { card: translate(locale, attempt.failure_message ?? 'purchase.card.processing_error') },
    });
  }
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    terminations: TerminationsService;
  }
}
