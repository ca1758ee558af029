import type { Knex } from 'knex';

/**
 * When an invoice's payment was refunded (decision 069): a full refund reverses the sale, so its
 * order's invoice is voided and says when; the portal and the PDF read "Refunded", and the balance
 * no longer counts it as owed. Invoices of orders refunded before this column are voided the same
 * way, on the day their order was last changed (when it moved to refunded).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.timestamp('refunded_at', { useTz: true });
  });
  await knex.raw(`
    update invoices set status = 'void', refunded_at = orders.updated_at
    from orders
    where orders.id = invoices.order_id and orders.status = 'refunded' and invoices.status = 'issued'
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.dropColumn('refunded_at');
  });
}
