import { Conflict, NotFound } from '@feathersjs/errors';
import type { Knex } from 'knex';
import {
  canMove,
  type Machine,
  type OrderState,
  type PaymentState,
  type StateMove,
  type SubscriptionState,
} from '../../../domain/orders/states.ts';

/** Who moves a state and why: a user's id, `system`, or `gateway:<name>`; a short reason. */
export interface MoveBy {
  actor: string;
  reason: string;
}

/** A move the transition table refuses, asked for directly (event handlers use `tryMove`). */
export class IllegalTransition extends Conflict {
  constructor(machine: Machine, from: string, to: string) {
    super('purchase.illegalMove', { machine, from, to });
  }
}

const TABLES: Record<Machine, string> = { order: 'orders', payment: 'payments', subscription: 'subscriptions' };

/** Runs in the caller's transaction, or in a new one. */
export function inTransaction<T>(db: Knex | Knex.Transaction, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return 'isTransaction' in db && db.isTransaction ? work(db as Knex.Transaction) : db.transaction(work);
}

/**
 * Moves a row's state: locks the row (`for update`), checks the move against the machine's
 * table, sets the status and appends the move to the row's history, all in one transaction.
 * Answers the move, or null when `lenient` and the table refuses it.
 */
async function move(
  db: Knex | Knex.Transaction,
  machine: Machine,
  id: string,
  to: string,
  by: MoveBy,
  lenient: boolean,
): Promise<StateMove | null> {
  return inTransaction(db, async (trx) => {
    const table = TABLES[machine];
    const row = (await trx(table).where('id', id).forUpdate().first('status')) as { status: string } | undefined;
    if (!row) throw new NotFound(`No ${machine} found for id '${id}'`);
    if (!canMove(machine, row.status, to)) {
      if (lenient) return null;
      throw new IllegalTransition(machine, row.status, to);
    }
    const entry: StateMove = { from: row.status, to, at: new Date().toISOString(), actor: by.actor, reason: by.reason };
    await trx(table)
      .where('id', id)
      .update({
        status: to,
        history: trx.raw(`history || ?::jsonb`, [JSON.stringify([entry])]),
        updated_at: trx.fn.now(),
      });
    return entry;
  });
}

/** Moves an order; a move its table does not allow throws `IllegalTransition` (409). */
export async function moveOrder(
  db: Knex | Knex.Transaction,
  orderId: string,
  to: OrderState,
  by: MoveBy,
): Promise<StateMove> {
  return (await move(db, 'order', orderId, to, by, false)) as StateMove;
}

/** Moves a payment attempt; a move its table does not allow throws `IllegalTransition` (409). */
export async function movePayment(
  db: Knex | Knex.Transaction,
  paymentId: string,
  to: PaymentState,
  by: MoveBy,
): Promise<StateMove> {
  return (await move(db, 'payment', paymentId, to, by, false)) as StateMove;
}

/**
 * For event handlers (webhooks, retried jobs): a move the table does not allow from the current
 * state (a late or repeated event) is ignored. Answers whether the row moved.
 */
export async function tryMove(
  db: Knex | Knex.Transaction,
  machine: 'order',
  id: string,
  to: OrderState,
  by: MoveBy,
): Promise<boolean>;
export async function tryMove(
  db: Knex | Knex.Transaction,
  machine: 'payment',
  id: string,
  to: PaymentState,
  by: MoveBy,
): Promise<boolean>;
export async function tryMove(
  db: Knex | Knex.Transaction,
  machine: 'subscription',
  id: string,
  to: SubscriptionState,
  by: MoveBy,
): Promise<boolean>;
export async function tryMove(
  db: Knex | Knex.Transaction,
  machine: Machine,
  id: string,
  to: string,
  by: MoveBy,
): Promise<boolean> {
  return (await move(db, machine, id, to, by, true)) !== null;
}
