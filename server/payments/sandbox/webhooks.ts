import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Charge, GatewayEvent } from '../gateway.ts';
import { SANDBOX_SIGNATURE_HEADER, signPayload } from './signature.ts';

/** How the sandbox delivers its webhooks: as a provider does, or with one of the faults tests need. */
export type WebhookMode = 'normal' | 'duplicate' | 'reorder';

/** An event as the sandbox sends it (the body of a webhook). */
export interface SandboxEventBody {
  id: string;
  type: GatewayEvent['type'];
  /** ISO time with milliseconds, so events of one second keep their order. */
  created: string;
  charge: Charge;
}

interface DeliveryRow {
  id: string;
  payload: SandboxEventBody | string;
}

/** Waits after a failed delivery before the next attempt (a provider retries for days; the sandbox, briefly). */
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000];
const DELIVERY_TIMEOUT_MS = 5_000;

/**
 * Sends the sandbox's events, signed, to our webhook receiver, recording every attempt in
 * payment_sandbox_webhook_deliveries. Events without a target yet wait there as `pending`.
 */
export class WebhookSender {
  mode: WebhookMode = 'normal';
  /** Where events go (`/api/paymentWebhooks/sandbox` of our server, or a test's receiver). */
  target: string | undefined;
  private held: string[] = [];
  private chain: Promise<void> = Promise.resolve();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  private readonly knex: Knex;
  private readonly secret: string;
  private readonly logger: Logger;

  constructor(knex: Knex, secret: string, logger: Logger) {
    this.knex = knex;
    this.secret = secret;
    this.logger = logger;
  }

  /** Delivers events just written (in the order given), as the current mode says. */
  dispatch(eventIds: string[]): void {
    if (eventIds.length === 0 || this.closed) return;
    if (this.mode === 'reorder') {
      this.held.push(...eventIds);
      return;
    }
    const sends = this.mode === 'duplicate' ? eventIds.flatMap((id) => [id, id]) : eventIds;
    this.enqueue(sends);
  }

  /** Sends the events held back by the `reorder` mode, newest first. */
  release(): void {
    const held = this.held.reverse();
    this.held = [];
    this.enqueue(held);
  }

  /** Resolves when every send started so far has finished (retries scheduled later aside). */
  async idle(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.chain;
      await current;
    } while (current !== this.chain);
  }

  /** Sends every event still pending (after a target is set). */
  async deliverPending(): Promise<void> {
    const rows = await this.knex('payment_sandbox_webhook_deliveries')
      .where({ status: 'pending' })
      .orderBy('created_at')
      .select('id');
    this.dispatch(rows.map((row: { id: string }) => row.id));
    await this.idle();
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private enqueue(eventIds: string[]): void {
    for (const id of eventIds)
      this.chain = this.chain
        .then(() => this.send(id, 0))
        .catch((error: unknown) => this.logger.warn({ err: error, eventId: id }, 'sandbox webhook failed'));
  }

  private async send(eventId: string, retry: number): Promise<void> {
    if (this.closed || !this.target) return;
    const row = (await this.knex('payment_sandbox_webhook_deliveries')
      .where({ id: eventId })
      .first('id', 'payload')) as DeliveryRow | undefined;
    if (!row) return;
    const body = typeof row.payload === 'string' ? row.payload : JSON.stringify(row.payload);
    let status: number | null = null;
    try {
      const response = await fetch(this.target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signPayload(body, this.secret) },
        body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (error) {
      this.logger.warn({ err: error, eventId }, 'sandbox webhook not delivered');
    }
    const delivered = status !== null && status >= 200 && status < 300;
    await this.knex('payment_sandbox_webhook_deliveries')
      .where({ id: eventId })
      .update({
        attempts: this.knex.raw('attempts + 1'),
        last_response_status: status,
        ...(delivered
          ? { status: 'delivered', delivered_at: new Date() }
          : { status: retry < RETRY_DELAYS_MS.length ? 'pending' : 'failed' }),
      })
      .catch((error: unknown) => this.logger.warn({ err: error, eventId }, 'sandbox webhook delivery not recorded'));
    const delay = RETRY_DELAYS_MS[retry];
    if (!delivered && delay !== undefined && !this.closed) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.chain = this.chain
          .then(() => this.send(eventId, retry + 1))
          .catch((error: unknown) => this.logger.warn({ err: error, eventId }, 'sandbox webhook failed'));
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
  }
}
