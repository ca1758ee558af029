import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { newId } from '../../db/ids.ts';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** An order's number: `TP-` and 8 random base32 characters (decision 018). */
export function orderNumber(): string {
  let code = '';
  for (let i = 0; i < 8; i += 1) code += BASE32[randomInt(32)];
  return `TP-${code}`;
}

/**
 * Inserts an order with a new id and number in the caller's transaction, each try in a savepoint
 * so that two random numbers meeting (about one in a trillion) draw another without losing the
 * transaction. Answers the order's id.
 */
export async function insertNumberedOrder(trx: Knex.Transaction, row: Record<string, unknown>): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const id = newId();
    try {
      await trx.transaction(async (inner) => {
        await inner('orders').insert({ id, number: orderNumber(), ...row });
      });
      return id;
    } catch (error) {
      const pg = error as { code?: string; constraint?: string };
      if (pg.code === '23505' && pg.constraint === 'orders_number_unique' && attempt < 3) continue;
      throw error;
    }
  }
}
