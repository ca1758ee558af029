import type { CurrencyCode } from '../../domain/money.ts';
import type { ClientConfig, GatewayName } from '../../domain/payment-client.ts';

/*
 * What a payment provider does for us, and nothing more (decision 018): it keeps customers and
 * their cards, and charges them. Billing (orders, subscriptions, invoices) lives in our database,
 * so the local sandbox and Stripe behave the same. Card numbers, expiry dates and CVCs never reach
 * this interface: the browser hands them to the provider's own fields, which answer a token.
 */

/** What we may keep of a card: the provider's reference and what a person recognises it by. */
export interface CardSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface BillingAddress {
  name: string;
  line1: string;
  line2?: string;
  city: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export type ChargeStatus = 'succeeded' | 'requires_action' | 'processing' | 'failed' | 'cancelled' | 'refunded';

export type FailureCode =
  'card_declined' | 'insufficient_funds' | 'expired_card' | 'authentication_failed' | 'processing_error' | 'timeout';

export interface Charge {
  /** The provider's id of the charge (a PaymentIntent on Stripe). */
  id: string;
  status: ChargeStatus;
  /** Integer minor units. */
  amount: number;
  currency: CurrencyCode;
  card?: CardSummary;
  /** Minor units refunded so far, when any (a partly refunded charge stays `succeeded`). */
  amountRefunded?: number;
  /** A 3-D Secure challenge: where the buyer goes (sandbox), or what Stripe's script needs. */
  action?: { url?: string; clientSecret?: string };
  failure?: { code: FailureCode; message: string };
  /** What we attached to the charge (our payment attempt's id): a webhook finds its attempt by it. */
  metadata?: Record<string, string>;
}

export interface ChargeRequest {
  customerId: string;
  /** The token the provider's card fields answered (a PaymentMethod id). */
  paymentMethodId: string;
  amount: number;
  currency: CurrencyCode;
  /** The same key never charges twice: the provider answers the first charge again. */
  idempotencyKey: string;
  /** `false` while the buyer is at the page (3-D Secure possible); `true` for renewals. */
  offSession: boolean;
  /** Where a challenge returns to. */
  returnUrl?: string;
  metadata: Record<string, string>;
}

/** A provider's webhook, once its signature is checked. */
export interface GatewayEvent {
  /** The provider's event id: the same event delivered twice has the same id. */
  id: string;
  type: 'charge.succeeded' | 'charge.failed' | 'charge.refunded' | 'charge.requires_action' | 'charge.cancelled';
  chargeId: string;
  /** When the provider made the event (events can arrive out of order). */
  created: Date;
  charge: Charge;
}

export type GatewayErrorCode = 'timeout' | 'unavailable' | 'invalid_request' | 'idempotency_conflict' | 'bad_signature';

export class GatewayError extends Error {
  readonly code: GatewayErrorCode;

  constructor(message: string, code: GatewayErrorCode) {
    super(message);
    this.code = code;
  }
}

export interface PaymentGateway {
  readonly name: GatewayName;
  clientConfig(): ClientConfig;
  createCustomer(input: { userId: string; email: string; name?: string }): Promise<{ customerId: string }>;
  /** Attaches a card token to a customer so it can be charged again later (renewals, upgrades). */
  attachPaymentMethod(input: { customerId: string; paymentMethodId: string }): Promise<CardSummary>;
  charge(request: ChargeRequest): Promise<Charge>;
  capture(chargeId: string, idempotencyKey: string): Promise<Charge>;
  cancel(chargeId: string, idempotencyKey: string): Promise<Charge>;
  refund(input: { chargeId: string; amount?: number; idempotencyKey: string }): Promise<Charge>;
  retrieve(chargeId: string): Promise<Charge>;
  /**
   * Checks the signature over the raw body; throws `GatewayError('bad_signature')` when it fails
   * (`invalid_request` for a signed body that is not an event). `null`: a signed event of a kind
   * we do not act on, which the receiver acknowledges (2xx) so the provider stops resending it.
   */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): GatewayEvent | null;
}
