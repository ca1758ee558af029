import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { cardFailureMessage, type CardFailureCode } from '../../../domain/orders/payment-request.ts';
import type { CardSummaryRecord } from '../../../domain/orders/records.ts';
import type { Charge, ChargeRequest, GatewayEvent, PaymentGateway } from '../../payments/gateway.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { provisionPaidOrder } from '../orders/provision.ts';
import { inTransaction, moveOrder, tryMove } from '../orders/transitions.ts';

/** Attempt states whose outcome is still to come from the gateway. */
export const OPEN_PAYMENT_STATES = ['created', 'processing', 'requires_action'] as const;
/** Order states a payment may be made in. */
export const PAYABLE_ORDER_STATES = ['pending_payment', 'payment_failed'] as const;

/** What a gateway event or answer did to our records. */
export type SettleOutcome = 'applied' | 'unchanged' | 'unknown';

/** The gateway's idempotency key of an attempt's charge: one attempt is one charge, however often it is sent. */
export const chargeKey = (paymentId: string) => `payment_${paymentId}`;

export interface PaymentRow {
  id: string;
  order_id: string;
  user_id: string;
  status: string;
  gateway: string;
  gateway_charge_id: string | null;
  amount: number;
  currency: string;
  card: CardSummaryRecord | null;
  billing_address: unknown;
  idempotency_key: string;
  request_hash: string;
  return_url: string | null;
  created_at: Date;
}

export interface SettleDependencies {
  knex: Knex;
  logger: Logger;
  jobs: JobQueue;
}

/** A digest of a request, so the same key with another request is told apart. */
export function digest(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

/** The charge request of an attempt, the same every time it is sent (the gateway's key then answers the one charge). */
export function chargeRequestOf(row: PaymentRow, orderNumber: string): ChargeRequest {
  return {
    customerId: row.card?.customerId ?? '',
    paymentMethodId: row.card?.paymentMethodId ?? '',
    amount: Number(row.amount),
    currency: row.currency as ChargeRequest['currency'],
    idempotencyKey: chargeKey(row.id),
    offSession: false,
    ...(row.return_url ? { returnUrl: row.return_url } : {}),
    metadata: { paymentId: row.id, orderId: row.order_id, orderNumber },
  };
}

const failureCodeOf = (charge: Charge): CardFailureCode => charge.failure?.code ?? 'processing_error';

/**
 * Applies what the gateway says of an attempt's charge (its answer, a webhook, a retrieve), in
 * one transaction: the attempt moves through the payment table (a move the table refuses from
 * the current state, a late or repeated event, changes nothing); a success pays the order, keeps
 * the card on it and provisions it; a failure marks the order payment_failed; a full refund
 * refunds the order.
 */
export async function applyCharge(
  deps: SettleDependencies,
  db: Knex | Knex.Transaction,
  paymentId: string,
  charge: Charge,
  actor: string,
): Promise<SettleOutcome> {
  return inTransaction(db, async (trx) => {
    const row = (await trx('payments').where('id', paymentId).forUpdate().first()) as PaymentRow | undefined;
    if (!row) return 'unknown';
    if (row.gateway_charge_id && row.gateway_charge_id !== charge.id) {
      deps.logger.warn(
        { payment: paymentId, charge: charge.id, known: row.gateway_charge_id },
        'a charge answered for an attempt that has another',
      );
      return 'unchanged';
    }
    if (!row.gateway_charge_id) await trx('payments').where('id', paymentId).update({ gateway_charge_id: charge.id });
    const by = { actor, reason: `gateway: charge ${charge.status}` };
    switch (charge.status) {
      case 'processing':
        return (await tryMove(trx, 'payment', paymentId, 'processing', by)) ? 'applied' : 'unchanged';
      case 'requires_action': {
        if (!(await tryMove(trx, 'payment', paymentId, 'requires_action', by))) return 'unchanged';
        await trx('payments')
          .where('id', paymentId)
          .update({ action: JSON.stringify(charge.action ?? {}) });
        return 'applied';
      }
      case 'succeeded': {
        if (!(await tryMove(trx, 'payment', paymentId, 'succeeded', by))) return 'unchanged';
        const card = charge.card
          ? { ...charge.card, customerId: row.card?.customerId, paymentMethodId: row.card?.paymentMethodId }
          : row.card;
        await trx('payments')
          .where('id', paymentId)
          .update({ action: null, ...(card ? { card: JSON.stringify(card) } : {}) });
        const order = (await trx('orders').where('id', row.order_id).forUpdate().first('status')) as { status: string };
        if (!(PAYABLE_ORDER_STATES as readonly string[]).includes(order.status)) {
          // Guarded against (one attempt in flight per order, open challenges cancelled first), so
          // staff must see it if it happens: the buyer was charged for an order paid already.
          deps.logger.error(
            { payment: paymentId, order: row.order_id, orderStatus: order.status },
            'a charge succeeded for an order that is not payable: refund it',
          );
          return 'applied';
        }
        await moveOrder(trx, row.order_id, 'paid', { actor, reason: `payment ${paymentId} succeeded` });
        if (card)
          await trx('orders')
            .where('id', row.order_id)
            .update({ card: JSON.stringify(card) });
        await provisionPaidOrder({ jobs: deps.jobs }, trx, row.order_id, actor);
        return 'applied';
      }
      case 'failed': {
        if (!(await tryMove(trx, 'payment', paymentId, 'failed', by))) return 'unchanged';
        const code = failureCodeOf(charge);
        await trx('payments')
          .where('id', paymentId)
          .update({ action: null, failure_code: code, failure_message: cardFailureMessage(code) });
        await tryMove(trx, 'order', row.order_id, 'payment_failed', {
          actor,
          reason: `payment ${paymentId} failed: ${code}`,
        });
        return 'applied';
      }
      case 'cancelled':
        if (!(await tryMove(trx, 'payment', paymentId, 'cancelled', by))) return 'unchanged';
        await trx('payments').where('id', paymentId).update({ action: null });
        return 'applied';
      case 'refunded': {
        if (!(await tryMove(trx, 'payment', paymentId, 'refunded', by))) return 'unchanged';
        if (await tryMove(trx, 'order', row.order_id, 'refunded', { actor, reason: `payment ${paymentId} refunded` }))
          // The sale is reversed: its invoice is no longer owed, and says when (decision 069).
          await trx('invoices')
            .where({ order_id: row.order_id, status: 'issued' })
            .update({ status: 'void', refunded_at: trx.fn.now() });
        return 'applied';
      }
      default:
        return 'unchanged';
    }
  });
}

/** Marks an attempt failed without a charge (the gateway refused the request itself, or there was nothing to charge). */
export async function failWithoutCharge(
  db: Knex | Knex.Transaction,
  paymentId: string,
  actor: string,
  reason: string,
  code: CardFailureCode = 'processing_error',
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = (await trx('payments').where('id', paymentId).forUpdate().first('order_id')) as { order_id: string };
    if (!(await tryMove(trx, 'payment', paymentId, 'failed', { actor, reason }))) return;
    await trx('payments')
      .where('id', paymentId)
      .update({ failure_code: code, failure_message: cardFailureMessage(code) });
    await tryMove(trx, 'order', row.order_id, 'payment_failed', {
      actor,
      reason: `payment ${paymentId} failed: ${reason}`,
    });
  });
}

/**
 * A gateway's webhook event: recorded once per (gateway, event id) in the transaction that applies
 * it, so a repeated delivery, even a concurrent one, changes nothing; an event for a charge that
 * is not ours is recorded and acknowledged. The attempt is found by the charge id, or, before we
 * knew it (the gateway's answer was lost), by the attempt id we put in the charge's metadata.
 */
export async function receiveEvent(
  deps: SettleDependencies,
  gateway: PaymentGateway['name'],
  event: GatewayEvent,
): Promise<SettleOutcome | 'duplicate'> {
  return deps.knex.transaction(async (trx) => {
    const inserted = await trx('payment_webhook_events')
      .insert({
        gateway,
        event_id: event.id,
        type: event.type,
        charge_id: event.chargeId,
        outcome: 'unknown',
        created: event.created,
      })
      .onConflict(['gateway', 'event_id'])
      .ignore()
      .returning('event_id');
    if (inserted.length === 0) return 'duplicate';
    let payment = (await trx('payments').where({ gateway, gateway_charge_id: event.chargeId }).first('id')) as
      { id: string } | undefined;
    const claimed = event.charge.metadata?.paymentId;
    if (!payment && claimed) {
      payment = (await trx('payments').where({ id: claimed, gateway }).whereNull('gateway_charge_id').first('id')) as
        { id: string } | undefined;
    }
    const outcome = payment
      ? await applyCharge(deps, trx, payment.id, { ...event.charge, id: event.chargeId }, `gateway:${gateway}`)
      : 'unknown';
    await trx('payment_webhook_events')
      .where({ gateway, event_id: event.id })
      .update({ outcome, payment_id: payment?.id ?? null });
    return outcome;
  });
}
