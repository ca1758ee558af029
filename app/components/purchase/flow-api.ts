import { useCallback, useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import type { UpgradePrice } from '../../../domain/billing/upgrade';
import type { orders } from '../../../domain/entities/orders';
import type { payments } from '../../../domain/entities/payments';
import type { RecordOf } from '../../../domain/entities/types';
import type { FlowIntent } from '../../../domain/orders/flow-request';
import type { OrderPrice } from '../../../domain/orders/pricing';

/*
 * What the flow's page asks its route's action (app/routes/purchase/flow.server.ts), and what it
 * answers. Every call is in-process on the server with the session's user; the page holds no token.
 */

export type { FlowIntent };

/** An order as the payment step shows it. */
export type FlowOrder = Pick<
  RecordOf<typeof orders>,
  '_id' | 'number' | 'status' | 'currency' | 'total' | 'tax' | 'taxRate' | 'monthly' | 'prepaidMonths'
>;

/** A payment attempt as the payment step follows it. */
export type FlowAttempt = Pick<RecordOf<typeof payments>, '_id' | 'status'> & {
  failureCode: string | null;
  failureMessage: string | null;
  /** The 3-D Secure page, when the bank asks the buyer to confirm (the sandbox's). */
  actionUrl: string | null;
  /** What Stripe's script needs to show the bank's check itself. */
  clientSecret: string | null;
};

export interface FlowFailure {
  /** None for a body that named no intent the page knows. */
  intent: FlowIntent | null;
  ok: false;
  status: number;
  /** Already in the page's language. */
  message: string;
  /** Field messages, already in the page's language. */
  errors: Record<string, string>;
  data: Record<string, unknown>;
}

export type FlowAnswer =
  | { intent: 'dates'; ok: true; country: string; dates: string[] }
  | { intent: 'quote'; ok: true; quote: OrderPrice }
  | { intent: 'upgradeQuote'; ok: true; quote: UpgradePrice }
  | { intent: 'register' | 'signIn'; ok: true }
  | { intent: 'verify' | 'resend'; ok: true; verified: boolean; resendAfter: string | null }
  | { intent: 'order'; ok: true; order: FlowOrder }
  | { intent: 'pay' | 'payment'; ok: true; attempt: FlowAttempt }
  | FlowFailure;

/**
 * What the page sends with an intent: its answers as held (a country as chosen, a count as typed),
 * which the action reads by the intent's schema (domain/orders/flow-request.ts).
 */
export type FlowBody = { [field: string]: Sent };
type Sent = string | number | boolean | null | undefined | Sent[] | { [field: string]: Sent };

/** Whether an action's answer asks the page to read the buyer again (they signed in or verified). */
export function changesBuyer(answer: unknown): boolean {
  const result = answer as { intent?: string; ok?: boolean } | undefined;
  return Boolean(result?.ok && ['register', 'signIn', 'verify'].includes(result.intent ?? ''));
}

/**
 * One call of the flow's action at a time, by a fetcher of its own; `onAnswer` hears each answer
 * once. `call` posts JSON to the page's own route.
 */
export function useFlowCall(onAnswer?: (answer: FlowAnswer) => void) {
  const fetcher = useFetcher<FlowAnswer>();
  const heard = useRef<unknown>(null);
  const listener = useRef(onAnswer);
  listener.current = onAnswer;
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || heard.current === fetcher.data) return;
    heard.current = fetcher.data;
    listener.current?.(fetcher.data as FlowAnswer);
  }, [fetcher.state, fetcher.data]);
  const { submit } = fetcher;
  const call = useCallback(
    (intent: FlowIntent, body: FlowBody = {}) =>
      // `?index` is not needed: the flow is a leaf route, and its action answers its own address.
      submit({ ...body, intent }, { method: 'post', encType: 'application/json' }),
    [submit],
  );
  return { call, busy: fetcher.state !== 'idle', answer: fetcher.data };
}

/**
 * Goes on with the flow once a condition the step was waiting for turns true (the buyer signed in
 * or verified here, and the page has read them again); never for one that held when the step opened.
 */
export function useContinueOnceTrue(condition: boolean, onContinue: () => void): void {
  const waiting = useRef(!condition);
  useEffect(() => {
    if (!condition || !waiting.current) return;
    waiting.current = false;
    onContinue();
  }, [condition, onContinue]);
}
