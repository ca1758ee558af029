import type { Knex } from 'knex';

/**
 * When an invoice was paid (decision 063): the portal and the PDF say "Paid" and the day, where
 * they said "Issued". An invoice is issued in the transaction that records its order paid
 * (decision 018), so every invoice before this column was paid when it was issued: it takes its
 * issue time. A void invoice keeps it (it was paid; voiding says it is no longer valid).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.timestamp('paid_at', { useTz: true });
  });
  await knex('invoices').update({ paid_at: knex.ref('issued_at') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.dropColumn('paid_at');
  });
}
