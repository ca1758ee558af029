import { type Charge, GatewayError, type PaymentGateway } from '../../payments/gateway.ts';
import { applyCharge, chargeKey, failWithoutCharge, type SettleDependencies } from './settle.ts';

/*
 * The off-session charge on a card on file: a renewal's (decision 031) and a termination fee's
 * (decision 044). The caller has made the order and its payment attempt and moved the attempt to
 * `processing`; this sends the charge and settles the attempt as a buyer's is settled
 * (`applyCharge`), so a webhook that reports the same charge later changes nothing.
 */

/** The card on file as the subscription keeps it: the gateway's customer and payment method. */
export interface CardOnFile {
  gateway: string;
  customerId: string;
  paymentMethodId: string;
}

export interface OffSessionCharge {
  /** The payment attempt, in `processing`. */
  paymentId: string;
  order: { id: string; number: string; currency: string };
  /** Integer minor units. */
  amount: number;
  card: CardOnFile | null;
  /** Who records a failure without a charge (no card on file). */
  actor: string;
  /** What is charged, as the log lines name it. */
  what: 'renewal' | 'termination';
}

/**
 * How the charge ended: `succeeded` or `failed` as settled; `noCard` when the gateway holds no
 * card of the subscription's (the attempt is failed without a charge); `pending` when the gateway
 * did not answer or has not settled it, so the attempt stays open for a webhook or the next run.
 */
export type OffSessionOutcome = 'succeeded' | 'failed' | 'noCard' | 'pending';

export async function chargeOffSession(
  deps: SettleDependencies,
  gateway: PaymentGateway,
  { paymentId, order, amount, card, actor, what }: OffSessionCharge,
): Promise<OffSessionOutcome> {
  const { knex, logger } = deps;
  if (!card || card.gateway !== gateway.name) {
    await failWithoutCharge(knex, paymentId, actor, 'no card on file');
    return 'noCard';
  }
  let charge: Charge;
  try {
    charge = await gateway.charge({
      customerId: card.customerId,
      paymentMethodId: card.paymentMethodId,
      amount,
      currency: order.currency as Charge['currency'],
      idempotencyKey: chargeKey(paymentId),
      offSession: true,
      metadata: { paymentId, orderId: order.id, orderNumber: order.number },
    });
  } catch (error) {
    if (error instanceof GatewayError && (error.code === 'timeout' || error.code === 'unavailable')) {
      // It may have been made: the attempt stays open for a webhook or the next run to settle.
      logger.warn({ payment: paymentId, code: error.code }, `the gateway did not answer a ${what} charge`);
      return 'pending';
    }
    logger.error({ err: error, payment: paymentId }, `the gateway refused a ${what} charge`);
    await failWithoutCharge(knex, paymentId, `gateway:${gateway.name}`, 'the gateway refused the request');
    return 'failed';
  }
  // Off-session, a card that asks for a challenge cannot be charged: the member must come in.
  if (charge.status === 'requires_action') {
    await knex('payments').where('id', paymentId).update({ gateway_charge_id: charge.id });
    await gateway
      .cancel(charge.id, `cancel_${paymentId}`)
      .catch((error: unknown) =>
        logger.warn({ err: error, payment: paymentId }, `a ${what} challenge could not be cancelled`),
      );
    await failWithoutCharge(
      knex,
      paymentId,
      `gateway:${gateway.name}`,
      'the card asks for a challenge off-session',
      'authentication_failed',
    );
    return 'failed';
  }
  await applyCharge(deps, knex, paymentId, charge, `gateway:${gateway.name}`);
  const settled = (await knex('payments').where('id', paymentId).first('status')) as { status: string };
  return settled.status === 'succeeded' ? 'succeeded' : settled.status === 'failed' ? 'failed' : 'pending';
}
