import Stripe from 'stripe';
import { isCurrency, type CurrencyCode } from '../../../domain/money.ts';
import type { ClientConfig } from '../../../domain/payment-client.ts';
import {
  GatewayError,
  type CardSummary,
  type Charge,
  type ChargeRequest,
  type ChargeStatus,
  type FailureCode,
  type GatewayEvent,
  type PaymentGateway,
} from '../gateway.ts';

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

type StripeConfig = NonNullable<ConstructorParameters<typeof Stripe>[1]>;

export interface StripeGatewayOptions {
  /** Tests: a stubbed HTTP client (`Stripe.createFetchHttpClient(fakeFetch)`); never the network. */
  httpClient?: StripeConfig['httpClient'];
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

/**
 * Stored amounts are minor units x100 for every currency (domain/money.ts), JPY and VND too;
 * Stripe counts those two in whole units.
 */
const ZERO_DECIMAL: ReadonlySet<string> = new Set(['JPY', 'VND']);

export function toStripeAmount(amount: number, currency: CurrencyCode): number {
  if (!ZERO_DECIMAL.has(currency)) return amount;
  if (amount % 100 !== 0) throw new GatewayError(`${currency} amounts are whole units`, 'invalid_request');
  return amount / 100;
}

const fromStripeAmount = (amount: number, currency: CurrencyCode) =>
  ZERO_DECIMAL.has(currency) ? amount * 100 : amount;

/** Stripe's decline codes (and error codes) as the few failures the purchase flow tells apart. */
export function failureCodeOf(code: string | null | undefined, declineCode: string | null | undefined): FailureCode {
  for (const value of [declineCode, code]) {
    switch (value) {
      case 'insufficient_funds':
      case 'withdrawal_count_limit_exceeded':
        return 'insufficient_funds';
      case 'expired_card':
        return 'expired_card';
      case 'processing_error':
      case 'try_again_later':
      case 'reenter_transaction':
        return 'processing_error';
      case 'authentication_required':
      case 'authentication_not_handled':
      case 'payment_intent_authentication_failure':
        return 'authentication_failed';
      default:
    }
  }
  return 'card_declined';
}

const PAYMENT_INTENT_EVENTS: Partial<Record<string, GatewayEvent['type']>> = {
  'payment_intent.succeeded': 'charge.succeeded',
  'payment_intent.payment_failed': 'charge.failed',
  'payment_intent.requires_action': 'charge.requires_action',
  'payment_intent.canceled': 'charge.cancelled',
};

/**
 * Stripe behind the gateway interface: customers, PaymentMethods attached to them, PaymentIntents
 * confirmed at once (saved for off-session renewals), refunds, and signed webhooks.
 */
export class StripeGateway implements PaymentGateway {
  readonly name = 'stripe' as const;
  readonly stripe: Stripe;
  private readonly settings: StripeSettings;

  constructor(settings: StripeSettings, options: StripeGatewayOptions = {}) {
    this.settings = settings;
    this.stripe = new Stripe(settings.secretKey, {
      httpClient: options.httpClient,
      timeout: options.timeoutMs ?? 20_000,
      // Retries keep the request's idempotency key, so a lost answer never charges twice.
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      telemetry: false,
    });
  }

  clientConfig(): ClientConfig {
    return { provider: 'stripe', publishableKey: this.settings.publishableKey };
  }

  async createCustomer(input: { userId: string; email: string; name?: string }): Promise<{ customerId: string }> {
    const customer = await this.request(() =>
      this.stripe.customers.create({ email: input.email, name: input.name, metadata: { userId: input.userId } }),
    );
    return { customerId: customer.id };
  }

  async attachPaymentMethod(input: { customerId: string; paymentMethodId: string }): Promise<CardSummary> {
    const method = await this.request(() =>
      this.stripe.paymentMethods.attach(input.paymentMethodId, { customer: input.customerId }),
    );
    const card = cardOf(method);
    if (!card) throw new GatewayError('the payment method is not a card', 'invalid_request');
    return card;
  }

  async charge(request: ChargeRequest): Promise<Charge> {
    const params: Stripe.PaymentIntentCreateParams = {
      amount: toStripeAmount(request.amount, request.currency),
      currency: request.currency.toLowerCase(),
      customer: request.customerId,
      payment_method: request.paymentMethodId,
      // Cards only (no redirect-based methods), so no return URL is required to confirm.
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      confirm: true,
      metadata: request.metadata,
      expand: ['payment_method', 'latest_charge'],
      // On the buyer's session the card is saved for renewals; a renewal runs without them.
      ...(request.offSession ? { off_session: true } : { setup_future_usage: 'off_session' as const }),
      ...(request.returnUrl && !request.offSession ? { return_url: request.returnUrl } : {}),
    };
    try {
      const intent = await this.stripe.paymentIntents.create(params, { idempotencyKey: request.idempotencyKey });
      return chargeOf(intent);
    } catch (error) {
      // A declined card is an answer, not an error: the PaymentIntent comes with the decline.
      if (error instanceof Stripe.errors.StripeCardError && error.payment_intent) {
        return {
          ...chargeOf(error.payment_intent),
          status: 'failed',
          failure: { code: failureCodeOf(error.code, error.decline_code), message: error.message },
        };
      }
      throw gatewayErrorOf(error);
    }
  }

  async capture(chargeId: string, idempotencyKey: string): Promise<Charge> {
    return chargeOf(
      await this.request(() =>
        this.stripe.paymentIntents.capture(
          chargeId,
          { expand: ['payment_method', 'latest_charge'] },
          { idempotencyKey },
        ),
      ),
    );
  }

  async cancel(chargeId: string, idempotencyKey: string): Promise<Charge> {
    return chargeOf(
      await this.request(() =>
        this.stripe.paymentIntents.cancel(
          chargeId,
          { expand: ['payment_method', 'latest_charge'] },
          { idempotencyKey },
        ),
      ),
    );
  }

  async refund(input: { chargeId: string; amount?: number; idempotencyKey: string }): Promise<Charge> {
    const intent = await this.retrieve(input.chargeId);
    await this.request(() =>
      this.stripe.refunds.create(
        {
          payment_intent: input.chargeId,
          ...(input.amount !== undefined ? { amount: toStripeAmount(input.amount, intent.currency) } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return this.retrieve(input.chargeId);
  }

  async retrieve(chargeId: string): Promise<Charge> {
    return chargeOf(
      await this.request(() =>
        this.stripe.paymentIntents.retrieve(chargeId, { expand: ['payment_method', 'latest_charge'] }),
      ),
    );
  }

  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): GatewayEvent | null {
    const signature = headers['stripe-signature'];
    if (typeof signature !== 'string') throw new GatewayError('missing Stripe-Signature header', 'bad_signature');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError)
        throw new GatewayError(error.message, 'bad_signature');
      throw new GatewayError('webhook body is not a Stripe event', 'invalid_request');
    }
    const created = new Date(event.created * 1000);
    const type = PAYMENT_INTENT_EVENTS[event.type];
    if (type) {
      const charge = chargeOf(event.data.object as Stripe.PaymentIntent);
      return { id: event.id, type, chargeId: charge.id, created, charge };
    }
    if (event.type === 'charge.refunded') {
      const charge = refundedChargeOf(event.data.object as Stripe.Charge);
      return charge ? { id: event.id, type: 'charge.refunded', chargeId: charge.id, created, charge } : null;
    }
    // Signed, but of a kind we do not act on: the receiver answers 200 so Stripe stops sending it.
    return null;
  }

  private async request<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw gatewayErrorOf(error);
    }
  }
}

function gatewayErrorOf(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const { errors } = Stripe;
  if (error instanceof errors.StripeIdempotencyError) return new GatewayError(error.message, 'idempotency_conflict');
  if (error instanceof errors.StripeConnectionError)
    return new GatewayError(error.message, /timed? ?out|ETIMEDOUT/i.test(error.message) ? 'timeout' : 'unavailable');
  if (error instanceof errors.StripeInvalidRequestError || error instanceof errors.StripeCardError)
    return new GatewayError(error.message, 'invalid_request');
  if (error instanceof errors.StripeError) return new GatewayError(error.message, 'unavailable');
  return new GatewayError(error instanceof Error ? error.message : 'Stripe request failed', 'unavailable');
}

function cardOf(method: string | Stripe.PaymentMethod | null | undefined): CardSummary | undefined {
  if (!method || typeof method === 'string' || !method.card) return undefined;
  return {
    brand: method.card.brand,
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year,
  };
}

function currencyOf(value: string): CurrencyCode {
  const currency = value.toUpperCase();
  if (!isCurrency(currency))
    throw new GatewayError(`Stripe answered a currency we do not price in: ${value}`, 'invalid_request');
  return currency;
}

const STATUSES: Record<string, ChargeStatus> = {
  succeeded: 'succeeded',
  requires_action: 'requires_action',
  processing: 'processing',
  requires_confirmation: 'processing',
  requires_capture: 'processing',
  canceled: 'cancelled',
  requires_payment_method: 'failed',
};

export function chargeOf(intent: Stripe.PaymentIntent): Charge {
  const currency = currencyOf(intent.currency);
  const latest = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  let status = STATUSES[intent.status] ?? 'processing';
  const charge: Charge = { id: intent.id, status, amount: fromStripeAmount(intent.amount, currency), currency };
  const card = cardOf(intent.payment_method);
  if (card) charge.card = card;
  if (latest && latest.amount_refunded > 0) {
    charge.amountRefunded = fromStripeAmount(latest.amount_refunded, currency);
    if (latest.refunded) status = charge.status = 'refunded';
  }
  if (intent.metadata && Object.keys(intent.metadata).length > 0) charge.metadata = { ...intent.metadata };
  if (status === 'requires_action' && intent.client_secret) charge.action = { clientSecret: intent.client_secret };
  if (status === 'failed') {
    const error = intent.last_payment_error;
    charge.failure = {
      code: failureCodeOf(error?.code, error?.decline_code),
      message: error?.message ?? 'The payment was not completed.',
    };
  }
  return charge;
}

function refundedChargeOf(stripeCharge: Stripe.Charge): Charge | undefined {
  const intentId =
    typeof stripeCharge.payment_intent === 'string' ? stripeCharge.payment_intent : stripeCharge.payment_intent?.id;
  if (!intentId) return undefined;
  const currency = currencyOf(stripeCharge.currency);
  const card = stripeCharge.payment_method_details?.card;
  return {
    id: intentId,
    status: stripeCharge.refunded ? 'refunded' : 'succeeded',
    amount: fromStripeAmount(stripeCharge.amount, currency),
    currency,
    amountRefunded: fromStripeAmount(stripeCharge.amount_refunded, currency),
    ...(card && card.brand && card.last4
      ? { card: { brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year } }
      : {}),
  };
}
