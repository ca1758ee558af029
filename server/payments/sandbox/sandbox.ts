import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { isCurrency, type CurrencyCode } from '../../../domain/money.ts';
import {
  GatewayError,
  type CardSummary,
  type Charge,
  type ChargeRequest,
  type ChargeStatus,
  type FailureCode,
  type GatewayEvent,
} from '../gateway.ts';
import {
  checkCard,
  cardBrand,
  cardFingerprint,
  SCENARIO_FAILURES,
  type CardInput,
  type CardInputProblem,
  type CardScenario,
} from './cards.ts';
import { WebhookSender, type SandboxEventBody, type WebhookMode } from './webhooks.ts';

/** What the sandbox's API does wrong on purpose, for tests of our side. */
export interface SandboxFaults {
  /**
   * `timeout`: the call does its work, then never answers (as a provider whose answer is lost);
   * `error`: the call answers 500 before doing anything; `none`: normal.
   */
  api: 'none' | 'timeout' | 'error';
  /** How many calls the `api` fault applies to before it clears itself (`Infinity`: until reset). */
  count: number;
  webhooks: WebhookMode;
}

/** A card refused at tokenisation, with what was wrong (message keys `gateway.errors.<problem>`). */
export class CardInputError extends Error {
  readonly problems: CardInputProblem[];
  constructor(problems: CardInputProblem[]) {
    super(`card refused: ${problems.join(', ')}`);
    this.problems = problems;
  }
}

interface ChargeRow {
  id: string;
  customer_id: string;
  payment_method_id: string;
  amount: string | number;
  currency: string;
  status: ChargeStatus;
  off_session: boolean;
  amount_refunded: string | number;
  failure_code: FailureCode | null;
  failure_message: string | null;
  return_url: string | null;
  metadata: Record<string, string> | string | null;
  created_at: Date;
}

interface PaymentMethodRow {
  id: string;
  customer_id: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  scenario: CardScenario;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const AUTHENTICATION_FAILED = {
  code: 'authentication_failed' as const,
  message: 'We are unable to authenticate your payment method.',
};
const EXPIRED_CARD = { code: 'expired_card' as const, message: 'Your card has expired.' };

/** Whether a kept card's expiry month has ended (in UTC, as the frame checks one typed in). */
function expired(method: Pick<PaymentMethodRow, 'exp_month' | 'exp_year'>, now: Date): boolean {
  const year = now.getUTCFullYear();
  return method.exp_year < year || (method.exp_year === year && method.exp_month < now.getUTCMonth() + 1);
}
/** How long a second request with a key waits for the first to finish before it is told to retry. */
const CONCURRENT_KEY_WAIT_MS = 15_000;

export interface SandboxOptions {
  knex: Knex;
  logger: Logger;
  /** Signs webhooks and keys the card fingerprints. */
  webhookSecret: string;
  /** Its public origin (serves the frame and challenge pages); set again once its server listens. */
  origin: string;
  /** Production: the fault switches are not reachable over HTTP. */
  production?: boolean;
}

/**
 * The local sandbox payment gateway: a provider's side (customers, cards, charges, webhooks),
 * kept in its own tables. The adapter calls it in-process; its server serves the card frame, the
 * 3-D Secure challenge and the tokenising API on an origin of its own.
 */
export class PaymentSandbox {
  readonly knex: Knex;
  readonly logger: Logger;
  readonly webhookSecret: string;
  readonly webhooks: WebhookSender;
  readonly production: boolean;
  origin: string;
  /** The origins of our site allowed to embed the frame and receive its messages. */
  siteOrigins: string[] = [];
  private faults: SandboxFaults = { api: 'none', count: 0, webhooks: 'normal' };
  private readonly hanging = new Set<() => void>();

  constructor(options: SandboxOptions) {
    this.knex = options.knex;
    this.logger = options.logger;
    this.webhookSecret = options.webhookSecret;
    this.origin = options.origin;
    this.production = options.production ?? false;
    this.webhooks = new WebhookSender(options.knex, options.webhookSecret, options.logger);
  }

  setFaults(faults: Partial<SandboxFaults>): SandboxFaults {
    this.faults = { ...this.faults, count: Infinity, ...faults };
    if (this.faults.api === 'none') this.faults.count = 0;
    const leavingReorder = this.webhooks.mode === 'reorder' && this.faults.webhooks !== 'reorder';
    this.webhooks.mode = this.faults.webhooks;
    if (leavingReorder) this.webhooks.release();
    return this.getFaults();
  }

  getFaults(): SandboxFaults {
    return { ...this.faults };
  }

  /** Stops retries and lets calls hanging on the `timeout` fault end (as failures). */
  close(): void {
    this.webhooks.close();
    for (const wake of this.hanging) wake();
    this.hanging.clear();
  }

  /** Runs one API call under the current fault. */
  async call<T>(work: () => Promise<T>): Promise<T> {
    const fault = this.faults.count > 0 ? this.faults.api : 'none';
    if (fault !== 'none') {
      this.faults.count -= 1;
      if (this.faults.count <= 0) this.faults = { ...this.faults, api: 'none', count: 0 };
    }
    if (fault === 'error') throw new GatewayError('sandbox answered 500 (fault switch)', 'unavailable');
    const result = await work();
    if (fault === 'timeout') {
      await new Promise<void>((resolve) => {
        const wake = () => resolve();
        this.hanging.add(wake);
        setTimeout(wake, 120_000).unref();
      });
      throw new GatewayError('sandbox never answered (fault switch)', 'timeout');
    }
    return result;
  }

  async createCustomer(input: { userId: string; email: string; name?: string }): Promise<{ customerId: string }> {
    if (!input.userId || !input.email) throw new GatewayError('userId and email are required', 'invalid_request');
    const customerId = newId('cus');
    await this.knex('payment_sandbox_customers').insert({
      id: customerId,
      email: input.email.slice(0, 320),
      name: input.name?.slice(0, 200) ?? null,
      user_ref: input.userId.slice(0, 64),
    });
    return { customerId };
  }

  /** What the card frame posts: checked, and kept as a token with its brand, last four and expiry only. */
  async tokenize(input: CardInput): Promise<{ paymentMethodId: string; card: CardSummary }> {
    const { problems, scenario, digits } = checkCard(input);
    if (problems.length > 0 || !scenario) throw new CardInputError(problems);
    const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
    const card: CardSummary = { brand: cardBrand(digits), last4: digits.slice(-4), expMonth: input.expMonth, expYear };
    const paymentMethodId = newId('pm');
    await this.knex('payment_sandbox_payment_methods').insert({
      id: paymentMethodId,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: cardFingerprint(digits, this.webhookSecret),
      scenario,
    });
    return { paymentMethodId, card };
  }

  async attachPaymentMethod(input: { customerId: string; paymentMethodId: string }): Promise<CardSummary> {
    const method = await this.paymentMethod(input.paymentMethodId);
    await this.customer(input.customerId);
    if (method.customer_id && method.customer_id !== input.customerId)
      throw new GatewayError('the payment method belongs to another customer', 'invalid_request');
    if (!method.customer_id)
      await this.knex('payment_sandbox_payment_methods')
        .where({ id: method.id })
        .update({ customer_id: input.customerId });
    return summary(method);
  }

  async charge(request: ChargeRequest): Promise<Charge> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0)
      throw new GatewayError('amount must be a positive integer of minor units', 'invalid_request');
    if (!isCurrency(request.currency)) throw new GatewayError('unknown currency', 'invalid_request');
    const hash = sha256(
      JSON.stringify([
        request.customerId,
        request.paymentMethodId,
        request.amount,
        request.currency,
        request.offSession,
        request.returnUrl ?? null,
        Object.entries(request.metadata).sort(),
      ]),
    );
    const chargeId = await this.once('charge', request.idempotencyKey, hash, () => this.createCharge(request));
    return this.retrieve(chargeId);
  }

  /** The buyer's answer on the challenge page. A second answer changes nothing. */
  async completeChallenge(chargeId: string, outcome: 'approve' | 'fail'): Promise<Charge> {
    await this.move(
      chargeId,
      ['requires_action'],
      () =>
        outcome === 'approve'
          ? { status: 'succeeded', type: 'charge.succeeded' }
          : { status: 'failed', type: 'charge.failed', failure: AUTHENTICATION_FAILED },
      ['processing', 'succeeded', 'failed', 'cancelled', 'refunded'],
    );
    return this.retrieve(chargeId);
  }

  async capture(chargeId: string, idempotencyKey: string): Promise<Charge> {
    // Charges capture at once; capturing one that succeeded answers it (as a repeated capture would).
    await this.once('capture', idempotencyKey, sha256(`capture:${chargeId}`), async () => {
      const charge = await this.retrieve(chargeId);
      if (charge.status !== 'succeeded')
        throw new GatewayError(`a ${charge.status} charge cannot be captured`, 'invalid_request');
      return chargeId;
    });
    return this.retrieve(chargeId);
  }

  async cancel(chargeId: string, idempotencyKey: string): Promise<Charge> {
    await this.once('cancel', idempotencyKey, sha256(`cancel:${chargeId}`), async () => {
      await this.move(
        chargeId,
        ['requires_action', 'processing'],
        () => ({ status: 'cancelled', type: 'charge.cancelled' }),
        ['cancelled'],
      );
      return chargeId;
    });
    return this.retrieve(chargeId);
  }

  async refund(input: { chargeId: string; amount?: number; idempotencyKey: string }): Promise<Charge> {
    if (input.amount !== undefined && (!Number.isSafeInteger(input.amount) || input.amount <= 0))
      throw new GatewayError('amount must be a positive integer of minor units', 'invalid_request');
    await this.once(
      'refund',
      input.idempotencyKey,
      sha256(`refund:${input.chargeId}:${input.amount ?? 'all'}`),
      async () => {
        await this.move(input.chargeId, ['succeeded'], (row) => {
          const left = Number(row.amount) - Number(row.amount_refunded);
          const amount = input.amount ?? left;
          if (amount > left) throw new GatewayError(`only ${left} is left to refund`, 'invalid_request');
          const refunded = Number(row.amount_refunded) + amount;
          return {
            status: refunded === Number(row.amount) ? 'refunded' : 'succeeded',
            type: 'charge.refunded',
            amountRefunded: refunded,
          };
        });
        return input.chargeId;
      },
    );
    return this.retrieve(input.chargeId);
  }

  async retrieve(chargeId: string): Promise<Charge> {
    const row = (await this.knex('payment_sandbox_charges')
      .where({ id: String(chargeId) })
      .first()) as ChargeRow | undefined;
    if (!row) throw new GatewayError('no such charge', 'invalid_request');
    return this.toCharge(row, await this.paymentMethod(row.payment_method_id));
  }

  /** A charge as the challenge page shows it (amount and currency), or undefined. */
  async challengeOf(
    chargeId: string,
  ): Promise<{ amount: number; currency: CurrencyCode; status: ChargeStatus; returnUrl: string | null } | undefined> {
    const row = (await this.knex('payment_sandbox_charges')
      .where({ id: String(chargeId) })
      .first()) as ChargeRow | undefined;
    return row
      ? {
          amount: Number(row.amount),
          currency: row.currency as CurrencyCode,
          status: row.status,
          returnUrl: row.return_url,
        }
      : undefined;
  }

  private async createCharge(request: ChargeRequest): Promise<string> {
    const method = await this.paymentMethod(request.paymentMethodId);
    await this.customer(request.customerId);
    if (method.customer_id && method.customer_id !== request.customerId)
      throw new GatewayError('the payment method belongs to another customer', 'invalid_request');
    if (request.offSession && method.customer_id !== request.customerId)
      throw new GatewayError(
        'an off-session charge needs a payment method attached to the customer',
        'invalid_request',
      );
    // A card kept past its expiry is declined as the bank would (the frame refuses an expired one typed in).
    const failure = SCENARIO_FAILURES[method.scenario] ?? (expired(method, new Date()) ? EXPIRED_CARD : undefined);
    let status: ChargeStatus = 'succeeded';
    let failed: { code: FailureCode; message: string } | undefined = failure;
    if (failure) status = 'failed';
    else if (method.scenario === 'challenge_always' && request.offSession) {
      status = 'failed';
      failed = AUTHENTICATION_FAILED;
    } else if ((method.scenario === 'challenge' || method.scenario === 'challenge_always') && !request.offSession)
      status = 'requires_action';
    const id = newId('ch');
    const eventIds = await this.knex.transaction(async (trx) => {
      // Charging on the buyer's session saves the card for later, as Stripe's setup_future_usage does.
      if (!method.customer_id)
        await trx('payment_sandbox_payment_methods')
          .where({ id: method.id })
          .update({ customer_id: request.customerId });
      const [row] = (await trx('payment_sandbox_charges')
        .insert({
          id,
          customer_id: request.customerId,
          payment_method_id: method.id,
          amount: request.amount,
          currency: request.currency,
          status,
          off_session: request.offSession,
          failure_code: failed?.code ?? null,
          failure_message: failed?.message ?? null,
          return_url: request.returnUrl ?? null,
          metadata: JSON.stringify(request.metadata),
        })
        .returning('*')) as ChargeRow[];
      const type =
        status === 'succeeded' ? 'charge.succeeded' : status === 'failed' ? 'charge.failed' : 'charge.requires_action';
      return [await this.recordEvent(trx, type, row as ChargeRow, method)];
    });
    this.webhooks.dispatch(eventIds);
    return id;
  }

  /** Moves a charge from one of `from` (in a transaction, the row locked) and records its event; in `already`, nothing happens. */
  private async move(
    chargeId: string,
    from: ChargeStatus[],
    to: (row: ChargeRow) => {
      status: ChargeStatus;
      type: GatewayEvent['type'];
      failure?: { code: FailureCode; message: string };
      amountRefunded?: number;
    },
    already: ChargeStatus[] = [],
  ): Promise<void> {
    const eventIds = await this.knex.transaction(async (trx) => {
      const row = (await trx('payment_sandbox_charges')
        .where({ id: String(chargeId) })
        .forUpdate()
        .first()) as ChargeRow | undefined;
      if (!row) throw new GatewayError('no such charge', 'invalid_request');
      if (already.includes(row.status)) return [];
      if (!from.includes(row.status)) throw new GatewayError(`the charge is ${row.status}`, 'invalid_request');
      const next = to(row);
      const [updated] = (await trx('payment_sandbox_charges')
        .where({ id: row.id })
        .update({
          status: next.status,
          updated_at: new Date(),
          ...(next.failure ? { failure_code: next.failure.code, failure_message: next.failure.message } : {}),
          ...(next.amountRefunded !== undefined ? { amount_refunded: next.amountRefunded } : {}),
        })
        .returning('*')) as ChargeRow[];
      const method = (await trx('payment_sandbox_payment_methods')
        .where({ id: row.payment_method_id })
        .first()) as PaymentMethodRow;
      return [await this.recordEvent(trx, next.type, updated as ChargeRow, method)];
    });
    this.webhooks.dispatch(eventIds);
  }

  private async recordEvent(
    trx: Knex.Transaction,
    type: GatewayEvent['type'],
    row: ChargeRow,
    method: PaymentMethodRow,
  ): Promise<string> {
    const body: SandboxEventBody = {
      id: newId('evt'),
      type,
      created: new Date().toISOString(),
      charge: this.toCharge(row, method),
    };
    await trx('payment_sandbox_webhook_deliveries').insert({
      id: body.id,
      event_type: type,
      charge_id: row.id,
      payload: JSON.stringify(body),
    });
    return body.id;
  }

  /**
   * Runs a write once per idempotency key. The key's row is claimed first (a short statement of
   * its own, never inside a transaction that waits on another: PGlite runs one at a time); a
   * concurrent request with the key waits for the first one's charge.
   */
  private async once(
    operation: string,
    key: string,
    requestHash: string,
    work: () => Promise<string>,
  ): Promise<string> {
    if (typeof key !== 'string' || key.length < 1 || key.length > 255)
      throw new GatewayError('an idempotency key of 1 to 255 characters is required', 'invalid_request');
    const deadline = Date.now() + CONCURRENT_KEY_WAIT_MS;
    for (;;) {
      const claimed = await this.knex('payment_sandbox_idempotency_keys')
        .insert({ key, operation, request_hash: requestHash })
        .onConflict('key')
        .ignore()
        .returning('key');
      if (claimed.length > 0) break;
      const row = (await this.knex('payment_sandbox_idempotency_keys').where({ key }).first()) as
        { operation: string; request_hash: string; charge_id: string | null } | undefined;
      if (row && (row.operation !== operation || row.request_hash !== requestHash)) {
        throw new GatewayError('this idempotency key was used with other parameters', 'idempotency_conflict');
      }
      if (row?.charge_id) return row.charge_id;
      if (Date.now() > deadline)
        throw new GatewayError('a request with this idempotency key is still in progress', 'timeout');
      await sleep(50);
    }
    try {
      const chargeId = await work();
      await this.knex('payment_sandbox_idempotency_keys').where({ key }).update({ charge_id: chargeId });
      return chargeId;
    } catch (error) {
      // A refused request keeps nothing, so the key can be used again (Stripe keeps only answers it gave after doing work).
      await this.knex('payment_sandbox_idempotency_keys')
        .where({ key })
        .delete()
        .catch(() => undefined);
      throw error;
    }
  }

  private async paymentMethod(id: string): Promise<PaymentMethodRow> {
    const row = (await this.knex('payment_sandbox_payment_methods')
      .where({ id: String(id) })
      .first()) as PaymentMethodRow | undefined;
    if (!row) throw new GatewayError('no such payment method', 'invalid_request');
    return row;
  }

  private async customer(id: string): Promise<void> {
    const row = await this.knex('payment_sandbox_customers')
      .where({ id: String(id) })
      .first('id');
    if (!row) throw new GatewayError('no such customer', 'invalid_request');
  }

  private toCharge(row: ChargeRow, method: PaymentMethodRow): Charge {
    const charge: Charge = {
      id: row.id,
      status: row.status,
      amount: Number(row.amount),
      currency: row.currency as CurrencyCode,
      card: summary(method),
    };
    if (Number(row.amount_refunded) > 0) charge.amountRefunded = Number(row.amount_refunded);
    if (row.status === 'requires_action') charge.action = { url: `${this.origin}/challenge/${row.id}` };
    if (row.failure_code) charge.failure = { code: row.failure_code, message: row.failure_message ?? '' };
    const metadata =
      typeof row.metadata === 'string' ? (JSON.parse(row.metadata) as Record<string, string>) : row.metadata;
    if (metadata && Object.keys(metadata).length > 0) charge.metadata = metadata;
    return charge;
  }
}

function summary(method: PaymentMethodRow): CardSummary {
  return { brand: method.brand, last4: method.last4, expMonth: method.exp_month, expYear: method.exp_year };
}
