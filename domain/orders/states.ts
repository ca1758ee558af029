import { SUBSCRIPTION_TRANSITIONS } from '../billing/lifecycle.ts';

/*
 * The states of an order and of a payment attempt, and the one table of moves each allows
 * (decision 018). Nothing else sets a status: the server's transition functions check every move
 * against these tables and record it in the row's history.
 */

export const ORDER_STATES = [
  'draft',
  'pending_payment',
  'paid',
  'provisioning',
  'completed',
  'payment_failed',
  'expired',
  'cancelled',
  'refunded',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export const PAYMENT_STATES = [
  'created',
  'processing',
  'requires_action',
  'succeeded',
  'failed',
  'cancelled',
  'refunded',
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

export { SUBSCRIPTION_STATES, type SubscriptionState } from '../billing/lifecycle.ts';
export const INVOICE_STATES = ['issued', 'void'] as const;

type Table<S extends string> = { readonly [From in S]: readonly S[] };

export const ORDER_TRANSITIONS: Table<OrderState> = {
  draft: ['pending_payment'],
  pending_payment: ['paid', 'payment_failed', 'expired', 'cancelled'],
  payment_failed: ['pending_payment', 'paid', 'expired', 'cancelled'],
  paid: ['provisioning', 'refunded'],
  provisioning: ['completed', 'refunded'],
  completed: ['refunded'],
  expired: [],
  cancelled: [],
  refunded: [],
};

export const PAYMENT_TRANSITIONS: Table<PaymentState> = {
  created: ['processing', 'requires_action', 'succeeded', 'failed', 'cancelled'],
  processing: ['requires_action', 'succeeded', 'failed'],
  requires_action: ['processing', 'succeeded', 'failed', 'cancelled'],
  succeeded: ['refunded'],
  failed: [],
  cancelled: [],
  refunded: [],
};

/** One recorded move: from where to where, when, by whom (a user id or `system`/`gateway:…`) and why. */
export interface StateMove<S extends string = string> {
  from: S;
  to: S;
  at: string;
  actor: string;
  reason: string;
}

export type Machine = 'order' | 'payment' | 'subscription';
const TABLES = {
  order: ORDER_TRANSITIONS,
  payment: PAYMENT_TRANSITIONS,
  subscription: SUBSCRIPTION_TRANSITIONS,
} as const;

/** Whether the machine's table allows the move (an unknown state allows nothing). */
export function canMove(machine: Machine, from: string, to: string): boolean {
  const table = TABLES[machine] as Readonly<Record<string, readonly string[]>>;
  return Object.hasOwn(table, from) && (table[from] ?? []).includes(to);
}

export class IllegalMove extends Error {
  readonly machine: Machine;
  readonly from: string;
  readonly to: string;
  constructor(machine: Machine, from: string, to: string) {
    super(`The ${machine} cannot move from ${from} to ${to}`);
    this.machine = machine;
    this.from = from;
    this.to = to;
  }
}

/** Throws `IllegalMove` unless the machine's table allows the move. */
export function assertMove(machine: Machine, from: string, to: string): void {
  if (!canMove(machine, from, to)) throw new IllegalMove(machine, from, to);
}
