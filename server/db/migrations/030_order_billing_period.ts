import type { Knex } from 'knex';
import { SUBSCRIPTION_PERIODS } from '../../../domain/entities/subscriptions.ts';

/**
 * How a plan's order asks to be billed once its prepaid months are over (decision 018, addendum):
 * every month or every year; the subscription it makes takes it as its `period`. Orders placed
 * before this column were all monthly.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.enu('period', SUBSCRIPTION_PERIODS).notNullable().defaultTo('monthly');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('period');
  });
}
