import type { Knex } from 'knex';

/**
 * What an invoice's charge took from the account's balance (decision 031): positive when a credit
 * paid part or all of it, negative when an amount due from before was added to the card's charge.
 * Zero for every invoice paid in full by its card, as every one before this column was.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.integer('balance_applied').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.dropColumn('balance_applied');
  });
}
