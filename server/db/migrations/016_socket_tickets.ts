import type { Knex } from 'knex';

/**
 * One-time tickets that sign a portal page's live connection in (decision 027), when there is no
 * Redis: the ticket's hash, the session token sealed with a key only the ticket gives, and when it
 * expires. A row is deleted when it is redeemed; expired rows are dropped now and then.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('socket_tickets', (t) => {
    t.string('hash', 64).primary();
    t.text('sealed').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('socket_tickets');
}
