import { z } from '../../../domain/zod.ts';
import { CURRENCY_CODES } from '../../../domain/money.ts';
import type { ClientConfig } from '../../../domain/payment-client.ts';
import {
  GatewayError,
  type CardSummary,
  type Charge,
  type ChargeRequest,
  type GatewayEvent,
  type PaymentGateway,
} from '../gateway.ts';
import type { PaymentSandbox } from './sandbox.ts';
import { SANDBOX_SIGNATURE_HEADER, verifySignature } from './signature.ts';

/** How long the adapter waits for the sandbox, as it would for a provider over the network. */
export const SANDBOX_CALL_TIMEOUT_MS = 20_000;

const cardSchema = z.object({
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
const chargeSchema = z.object({
  id: z.string().min(1),
  status: z.enum(['succeeded', 'requires_action', 'processing', 'failed', 'cancelled', 'refunded']),
  amount: z.number().int(),
  currency: z.enum(CURRENCY_CODES as [string, ...string[]]),
  card: cardSchema.optional(),
  amountRefunded: z.number().int().optional(),
  action: z.object({ url: z.string().optional(), clientSecret: z.string().optional() }).optional(),
  failure: z
    .object({
      code: z.enum([
        'card_declined',
        'insufficient_funds',
        'expired_card',
        'authentication_failed',
        'processing_error',
        'timeout',
      ]),
      message: z.string(),
    })
    .optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});
const eventSchema = z.object({
  id: z.string().min(1),
  type: z.enum(['charge.succeeded', 'charge.failed', 'charge.refunded', 'charge.requires_action', 'charge.cancelled']),
  created: z.iso.datetime(),
  charge: chargeSchema,
});

/** The sandbox behind the gateway interface: called in-process, under a timeout as a network call would be. */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;

  readonly sandbox: PaymentSandbox;
  private readonly timeoutMs: number;

  constructor(sandbox: PaymentSandbox, options: { timeoutMs?: number } = {}) {
    this.sandbox = sandbox;
    this.timeoutMs = options.timeoutMs ?? SANDBOX_CALL_TIMEOUT_MS;
  }

  clientConfig(): ClientConfig {
    return { provider: 'sandbox', origin: this.sandbox.origin };
  }

  createCustomer(input: { userId: string; email: string; name?: string }): Promise<{ customerId: string }> {
    return this.call(() => this.sandbox.createCustomer(input));
  }

  attachPaymentMethod(input: { customerId: string; paymentMethodId: string }): Promise<CardSummary> {
    return this.call(() => this.sandbox.attachPaymentMethod(input));
  }

  charge(request: ChargeRequest): Promise<Charge> {
    return this.call(() => this.sandbox.charge(request));
  }

  capture(chargeId: string, idempotencyKey: string): Promise<Charge> {
    return this.call(() => this.sandbox.capture(chargeId, idempotencyKey));
  }

  cancel(chargeId: string, idempotencyKey: string): Promise<Charge> {
    return this.call(() => this.sandbox.cancel(chargeId, idempotencyKey));
  }

  refund(input: { chargeId: string; amount?: number; idempotencyKey: string }): Promise<Charge> {
    return this.call(() => this.sandbox.refund(input));
  }

  retrieve(chargeId: string): Promise<Charge> {
    return this.call(() => this.sandbox.retrieve(chargeId));
  }

  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): GatewayEvent | null {
    verifySignature(rawBody, headers[SANDBOX_SIGNATURE_HEADER], this.sandbox.webhookSecret);
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new GatewayError('webhook body is not JSON', 'invalid_request');
    }
    const parsed = eventSchema.safeParse(body);
    if (!parsed.success) throw new GatewayError('webhook body is not a sandbox event', 'invalid_request');
    const event = parsed.data;
    return {
      id: event.id,
      type: event.type,
      chargeId: event.charge.id,
      created: new Date(event.created),
      charge: event.charge as Charge,
    };
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new GatewayError('the sandbox did not answer in time', 'timeout')),
        this.timeoutMs,
      );
    });
    const call = this.sandbox.call(work);
    call.catch(() => undefined);
    try {
      return await Promise.race([call, timeout]);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      throw new GatewayError(`sandbox error: ${(error as Error).message}`, 'unavailable');
    } finally {
      clearTimeout(timer);
    }
  }
}
