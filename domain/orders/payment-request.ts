import { z } from '../zod.ts';
import { FORM_MESSAGES } from '../forms/messages.ts';

/** Message keys of paying an order; each exists in every locale. */
export const PAYMENT_MESSAGES = {
  /** 409: the order's total is not what the buyer saw; `data: {total, currency}` holds the new one. */
  priceChanged: 'purchase.priceChanged',
  /** 409: the order is paid, cancelled or expired. */
  orderNotPayable: 'purchase.orderNotPayable',
  /** 409: another attempt on the order is still waiting for the gateway. */
  inProgress: 'purchase.paymentInProgress',
  /** 503: the gateway did not answer; the attempt (`data.payment`) is settled later by a webhook or a read. */
  gatewayUnavailable: 'purchase.gatewayUnavailable',
  /** 400 on `paymentMethodId`: the card token is unknown or not the buyer's. */
  paymentMethodInvalid: 'purchase.paymentMethodInvalid',
  /**
   * 409: `cardOnFile` was asked for an order that has no card on file the gateway in use holds
   * (a plan's first order, a demo plan's card, a card of another provider); nothing is charged.
   * `data: {cardOnFile: 'unavailable'}` tells it apart from the other 409s.
   */
  noCardOnFile: 'purchase.noCardOnFile',
  /** 400: neither a card token nor the card on file, or both. */
  oneWayToPay: 'purchase.oneWayToPay',
} as const;

/** Why a card payment failed (server/payments/gateway.ts `FailureCode`); each has a message `purchase.card.<code>`. */
export const CARD_FAILURE_CODES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'authentication_failed',
  'processing_error',
  'timeout',
] as const;
export type CardFailureCode = (typeof CARD_FAILURE_CODES)[number];

/** The message key a failed attempt carries in `failureMessage`. */
export const cardFailureMessage = (code: CardFailureCode): string => `purchase.card.${code}`;

const required = (max: number) =>
  z.string({ error: FORM_MESSAGES.required }).trim().min(1, FORM_MESSAGES.required).max(max, FORM_MESSAGES.tooBig);

/** The card's billing address as the payment step asks for it (stored as domain/orders/records.ts `billingAddressSchema`). */
export const billingAddressInputSchema = z
  .object({
    name: required(120),
    line1: required(300),
    line2: z.string().trim().max(300, FORM_MESSAGES.tooBig).optional(),
    city: required(120),
    postalCode: z.string().trim().max(12, FORM_MESSAGES.tooBig).optional(),
    country: z.string({ error: FORM_MESSAGES.required }).regex(/^[A-Z]{2}$/, FORM_MESSAGES.invalid),
  })
  .strict();

const id = (max: number) =>
  z
    .string({ error: FORM_MESSAGES.required })
    .min(1, FORM_MESSAGES.required)
    .max(max, FORM_MESSAGES.invalid)
    .regex(/^[A-Za-z0-9_-]+$/, FORM_MESSAGES.invalid);

/**
 * Paying an order (`payments` create): the order, the card (the token the provider's card fields
 * answered, or `cardOnFile: true` for the card its subscription keeps on file, decision 063),
 * the billing address, a key per attempt (a new one for another card), and the total the buyer
 * was shown, which must be the order's.
 */
export const paymentRequestSchema = z
  .object({
    order: id(64),
    paymentMethodId: id(255).optional(),
    /** Charge the card on file of the order's subscription (an add-on order's): never a card named by the caller. */
    cardOnFile: z.literal(true, { error: FORM_MESSAGES.invalid }).optional(),
    billingAddress: billingAddressInputSchema,
    idempotencyKey: z
      .string()
      .trim()
      .min(16, FORM_MESSAGES.invalid)
      .max(100, FORM_MESSAGES.invalid)
      .regex(/^[A-Za-z0-9_-]+$/, FORM_MESSAGES.invalid),
    expectedTotal: z.number({ error: FORM_MESSAGES.required }).int(FORM_MESSAGES.invalid).min(0, FORM_MESSAGES.invalid),
  })
  .strict()
  .check((context) => {
    const { paymentMethodId, cardOnFile } = context.value;
    if ((paymentMethodId === undefined) === (cardOnFile === undefined))
      context.issues.push({
        code: 'custom',
        path: ['paymentMethodId'],
        message: PAYMENT_MESSAGES.oneWayToPay,
        input: context.value,
      });
  })
  // The check above is invisible to JSON Schema: the API's reference shows it (decision 058).
  .meta({ oneOf: [{ required: ['paymentMethodId'] }, { required: ['cardOnFile'] }] });

export type PaymentRequest = z.input<typeof paymentRequestSchema>;
