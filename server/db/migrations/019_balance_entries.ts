import type { Knex } from 'knex';

/*
 * The stored side of a member's balance (decision 031, addendum): credits and debits that are
 * neither an invoice nor a payment, such as the unused share of an add-on the member removed.
 * The ledger adds them to the invoices and payments; the next charge takes a credit off.
 * Values of the checks are written out, not imported: the definitions-vs-tables test holds the
 * definitions to them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('balance_entries', (t) => {
    t.string('id', 64).primary();
    t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('RESTRICT');
    t.string('subscription_id', 64).notNullable().references('id').inTable('subscriptions').onDelete('RESTRICT');
    t.enu('kind', ['credit', 'debit']).notNullable();
    t.integer('amount').notNullable();
    t.enu('currency', ['HKD', 'SGD', 'USD', 'TWD', 'MYR', 'VND', 'THB', 'JPY', 'AUD', 'CNY']).notNullable();
    t.enu('reason', ['addon_removed']).notNullable();
    t.string('module_id', 64).references('id').inTable('modules').onDelete('RESTRICT');
    t.jsonb('details');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['subscription_id', 'created_at']);
    t.index(['user_id', 'created_at']);
  });
  await knex.raw('alter table balance_entries add constraint balance_entries_amount_positive check (amount > 0)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('balance_entries');
}
