import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway.ts';
import { StripeGateway } from './adapter.ts';

/** Stripe's answers are stubbed: these tests never reach the network. */
interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: URLSearchParams;
}

type Answer = { status: number; body: unknown };

const SETTINGS = {
  secretKey: 'sk_test_offline',
  publishableKey: 'pk_test_offline',
  webhookSecret: 'whsec_offline_secret',
};

function stubbedGateway(answer: (request: SentRequest) => Answer) {
  const sent: SentRequest[] = [];
  const fakeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const request: SentRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      headers: Object.fromEntries(new Headers(init?.headers)),
      body: new URLSearchParams(typeof init?.body === 'string' ? init.body : ''),
    };
    sent.push(request);
    const { status, body } = answer(request);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'request-id': `req_${sent.length}` },
    });
  };
  const gateway = new StripeGateway(SETTINGS, {
    httpClient: Stripe.createFetchHttpClient(fakeFetch as typeof fetch),
    maxNetworkRetries: 0,
  });
  return { gateway, sent };
}

const card = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 };
const intent = (overrides: Record<string, unknown> = {}) => ({
  id: 'pi_123',
  object: 'payment_intent',
  amount: 358800,
  currency: 'hkd',
  status: 'succeeded',
  client_secret: 'pi_123_secret_abc',
  payment_method: { id: 'pm_123', object: 'payment_method', type: 'card', card },
  latest_charge: { id: 'ch_1', object: 'charge', amount_refunded: 0, refunded: false },
  last_payment_error: null,
  ...overrides,
});

const chargeRequest = {
  customerId: 'cus_1',
  paymentMethodId: 'pm_123',
  amount: 358800,
  currency: 'HKD' as const,
  idempotencyKey: 'order-1-attempt-1',
  offSession: false,
  metadata: { orderId: 'o1' },
};

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('the Stripe adapter, against a stubbed Stripe', () => {
  it('confirms a PaymentIntent on the buyer’s session, saving the card, with our idempotency key', async () => {
    const { gateway, sent } = stubbedGateway(() => ({ status: 200, body: intent() }));
    const charge = await gateway.charge({
      ...chargeRequest,
      returnUrl: 'https://www.example.com/en/subscription?step=payment',
    });
    expect(charge).toEqual({
      id: 'pi_123',
      status: 'succeeded',
      amount: 358800,
      currency: 'HKD',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 },
    });
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/payment_intents');
    expect(request?.headers['idempotency-key']).toBe('order-1-attempt-1');
    expect(request?.headers.authorization).toBe('Bearer sk_test_offline');
    const body = Object.fromEntries(request?.body ?? []);
    expect(body).toMatchObject({
      amount: '358800',
      currency: 'hkd',
      customer: 'cus_1',
      payment_method: 'pm_123',
      confirm: 'true',
      setup_future_usage: 'off_session',
      return_url: 'https://www.example.com/en/subscription?step=payment',
      'metadata[orderId]': 'o1',
      'automatic_payment_methods[enabled]': 'true',
      'automatic_payment_methods[allow_redirects]': 'never',
    });
    expect(body).not.toHaveProperty('off_session');
  });

  it('charges a renewal off-session, without asking to save the card again', async () => {
    const { gateway, sent } = stubbedGateway(() => ({ status: 200, body: intent() }));
    await gateway.charge({ ...chargeRequest, offSession: true, idempotencyKey: 'renewal-1' });
    const body = Object.fromEntries(sent[0]?.body ?? []);
    expect(body.off_session).toBe('true');
    expect(body).not.toHaveProperty('setup_future_usage');
    expect(sent[0]?.headers['idempotency-key']).toBe('renewal-1');
  });

  it('answers a 3-D Secure challenge with the client secret Stripe.js needs', async () => {
    const { gateway } = stubbedGateway(() => ({
      status: 200,
      body: intent({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } }),
    }));
    const charge = await gateway.charge(chargeRequest);
    expect(charge.status).toBe('requires_action');
    expect(charge.action).toEqual({ clientSecret: 'pi_123_secret_abc' });
  });

  it.each([
    ['card_declined', 'generic_decline', 'card_declined'],
    ['card_declined', 'insufficient_funds', 'insufficient_funds'],
    ['expired_card', undefined, 'expired_card'],
    ['processing_error', undefined, 'processing_error'],
    ['authentication_required', 'authentication_required', 'authentication_failed'],
    ['card_declined', 'stolen_card', 'card_declined'],
  ])('maps a decline (%s, %s) to %s, with the PaymentIntent', async (code, declineCode, expected) => {
    const error = {
      type: 'card_error',
      code,
      decline_code: declineCode,
      message: 'Your card was declined.',
      payment_intent: intent({ status: 'requires_payment_method' }),
    };
    const { gateway } = stubbedGateway(() => ({ status: 402, body: { error } }));
    const charge = await gateway.charge(chargeRequest);
    expect(charge).toMatchObject({
      id: 'pi_123',
      status: 'failed',
      failure: { code: expected, message: 'Your card was declined.' },
    });
  });

  it('reports a key reused with other parameters as an idempotency conflict', async () => {
    const { gateway } = stubbedGateway(() => ({
      status: 400,
      body: {
        error: {
          type: 'idempotency_error',
          message: 'Keys for idempotent requests can only be used with the same parameters',
        },
      },
    }));
    expect((await rejection(gateway.charge(chargeRequest))).code).toBe('idempotency_conflict');
  });

  it('reports Stripe’s own failure as unavailable and a bad request as invalid', async () => {
    const down = stubbedGateway(() => ({
      status: 500,
      body: { error: { type: 'api_error', message: 'Something went wrong' } },
    }));
    expect((await rejection(down.gateway.retrieve('pi_123'))).code).toBe('unavailable');
    const missing = stubbedGateway(() => ({
      status: 404,
      body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } },
    }));
    expect((await rejection(missing.gateway.retrieve('pi_nope'))).code).toBe('invalid_request');
  });

  it('creates customers and attaches cards to them', async () => {
    const { gateway, sent } = stubbedGateway((request) =>
      request.path === '/v1/customers'
        ? { status: 200, body: { id: 'cus_9', object: 'customer' } }
        : { status: 200, body: { id: 'pm_123', object: 'payment_method', type: 'card', card, customer: 'cus_9' } },
    );
    expect(await gateway.createCustomer({ userId: 'u1', email: 'mei@example.test', name: 'Mei' })).toEqual({
      customerId: 'cus_9',
    });
    expect(Object.fromEntries(sent[0]?.body ?? [])).toMatchObject({
      email: 'mei@example.test',
      name: 'Mei',
      'metadata[userId]': 'u1',
    });
    expect(await gateway.attachPaymentMethod({ customerId: 'cus_9', paymentMethodId: 'pm_123' })).toEqual({
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2034,
    });
    expect(sent[1]?.path).toBe('/v1/payment_methods/pm_123/attach');
    expect(Object.fromEntries(sent[1]?.body ?? [])).toEqual({ customer: 'cus_9' });
  });

  it('captures, cancels, refunds and retrieves with the keys given', async () => {
    let refunded = false;
    const { gateway, sent } = stubbedGateway((request) => {
      if (request.path.startsWith('/v1/refunds')) {
        refunded = true;
        return { status: 200, body: { id: 're_1', object: 'refund' } };
      }
      if (request.path.endsWith('/cancel')) return { status: 200, body: intent({ status: 'canceled' }) };
      return {
        status: 200,
        body: intent(
          refunded ? { latest_charge: { id: 'ch_1', object: 'charge', amount_refunded: 358800, refunded: true } } : {},
        ),
      };
    });
    expect((await gateway.capture('pi_123', 'capture-1')).status).toBe('succeeded');
    expect(sent.at(-1)).toMatchObject({ method: 'POST', path: '/v1/payment_intents/pi_123/capture' });
    expect(sent.at(-1)?.headers['idempotency-key']).toBe('capture-1');
    expect((await gateway.cancel('pi_123', 'cancel-1')).status).toBe('cancelled');
    expect(sent.at(-1)?.headers['idempotency-key']).toBe('cancel-1');
    const charge = await gateway.refund({ chargeId: 'pi_123', amount: 358800, idempotencyKey: 'refund-1' });
    expect(charge).toMatchObject({ status: 'refunded', amountRefunded: 358800 });
    const refund = sent.find((request) => request.path === '/v1/refunds');
    expect(Object.fromEntries(refund?.body ?? [])).toEqual({ payment_intent: 'pi_123', amount: '358800' });
    expect(refund?.headers['idempotency-key']).toBe('refund-1');
    expect(sent.at(-1)).toMatchObject({ method: 'GET' });
    expect(sent.at(-1)?.path).toMatch(/^\/v1\/payment_intents\/pi_123\?expand/);
  });

  it('counts JPY in whole yen at Stripe and in x100 units here', async () => {
    const { gateway, sent } = stubbedGateway(() => ({ status: 200, body: intent({ amount: 1200, currency: 'jpy' }) }));
    const charge = await gateway.charge({ ...chargeRequest, amount: 120000, currency: 'JPY' });
    expect(sent[0]?.body.get('amount')).toBe('1200');
    expect(charge.amount).toBe(120000);
  });

  it('offers the browser the publishable key only', () => {
    const { gateway } = stubbedGateway(() => ({ status: 500, body: {} }));
    expect(gateway.clientConfig()).toEqual({ provider: 'stripe', publishableKey: 'pk_test_offline' });
  });
});

describe('Stripe webhooks, signed locally', () => {
  const { gateway } = stubbedGateway(() => ({ status: 500, body: {} }));
  const event = (type: string, object: unknown, id = 'evt_1') =>
    JSON.stringify({ id, object: 'event', type, created: 1_790_000_000, data: { object } });
  const sign = (payload: string, timestamp?: number) => ({
    'stripe-signature': Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: SETTINGS.webhookSecret,
      timestamp,
    }),
  });

  it('parses a signed payment_intent.succeeded into a charge event', () => {
    const payload = event('payment_intent.succeeded', intent());
    const parsed = gateway.parseWebhook(Buffer.from(payload), sign(payload));
    expect(parsed).toEqual({
      id: 'evt_1',
      type: 'charge.succeeded',
      chargeId: 'pi_123',
      created: new Date(1_790_000_000 * 1000),
      charge: {
        id: 'pi_123',
        status: 'succeeded',
        amount: 358800,
        currency: 'HKD',
        card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 },
      },
    });
  });

  it('maps failures, challenges, cancellations and refunds', () => {
    const failed = event(
      'payment_intent.payment_failed',
      intent({
        status: 'requires_payment_method',
        last_payment_error: {
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Insufficient funds',
        },
      }),
    );
    expect(gateway.parseWebhook(Buffer.from(failed), sign(failed))).toMatchObject({
      type: 'charge.failed',
      charge: { status: 'failed', failure: { code: 'insufficient_funds' } },
    });
    const action = event('payment_intent.requires_action', intent({ status: 'requires_action' }));
    expect(gateway.parseWebhook(Buffer.from(action), sign(action))).toMatchObject({
      type: 'charge.requires_action',
      charge: { action: { clientSecret: 'pi_123_secret_abc' } },
    });
    const cancelled = event('payment_intent.canceled', intent({ status: 'canceled' }));
    expect(gateway.parseWebhook(Buffer.from(cancelled), sign(cancelled))).toMatchObject({
      type: 'charge.cancelled',
      charge: { status: 'cancelled' },
    });
    const refunded = event('charge.refunded', {
      id: 'ch_1',
      object: 'charge',
      payment_intent: 'pi_123',
      amount: 358800,
      amount_refunded: 358800,
      refunded: true,
      currency: 'hkd',
      payment_method_details: { type: 'card', card },
    });
    expect(gateway.parseWebhook(Buffer.from(refunded), sign(refunded))).toMatchObject({
      type: 'charge.refunded',
      chargeId: 'pi_123',
      charge: { status: 'refunded', amountRefunded: 358800, card: { last4: '4242' } },
    });
  });

  it('answers null for a signed event of a kind we do not act on', () => {
    const payload = event('customer.created', { id: 'cus_1', object: 'customer' });
    expect(gateway.parseWebhook(Buffer.from(payload), sign(payload))).toBeNull();
  });

  it('refuses a tampered body, a wrong secret, an old timestamp and a missing header', () => {
    const payload = event('payment_intent.succeeded', intent());
    const headers = sign(payload);
    const tampered = payload.replace('358800', '1');
    expect(() => gateway.parseWebhook(Buffer.from(tampered), headers)).toThrow(
      expect.objectContaining({ code: 'bad_signature' }),
    );
    const wrong = {
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' }),
    };
    expect(() => gateway.parseWebhook(Buffer.from(payload), wrong)).toThrow(
      expect.objectContaining({ code: 'bad_signature' }),
    );
    const old = sign(payload, Math.floor(Date.now() / 1000) - 301);
    expect(() => gateway.parseWebhook(Buffer.from(payload), old)).toThrow(
      expect.objectContaining({ code: 'bad_signature' }),
    );
    expect(() => gateway.parseWebhook(Buffer.from(payload), {})).toThrow(
      expect.objectContaining({ code: 'bad_signature' }),
    );
  });
});
