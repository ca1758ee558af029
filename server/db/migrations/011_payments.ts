import type { Knex } from 'knex';

/*
 * Paying an order (decision 019, addendum): what a payment attempt keeps beyond migration 008 (the
 * digest of its request, the 3-D Secure action, where a challenge returns to), one attempt in
 * flight per order, the gateway's customer of each user, and the webhook events received (each
 * applied once).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    // A digest of what was asked for: the same key with another request is refused (422).
    t.string('request_hash', 64).notNullable().defaultTo('');
    // A 3-D Secure challenge: the provider's page (sandbox) or the client secret (Stripe).
    t.jsonb('action');
    // Where the provider's challenge page sends the buyer back to.
    t.string('return_url', 2000);
  });
  await knex.raw(`alter table payments alter column request_hash drop default`);
  // An order has at most one attempt whose outcome is not yet known: a second card cannot be
  // charged while the first may still go through.
  await knex.raw(
    `create unique index payments_order_in_flight on payments (order_id) where status in ('created', 'processing')`,
  );

  await knex.schema.createTable('payment_customers', (t) => {
    t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('RESTRICT');
    t.string('gateway', 32).notNullable();
    t.string('customer_id', 255).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'gateway']);
  });

  await knex.schema.createTable('payment_webhook_events', (t) => {
    t.string('gateway', 32).notNullable();
    t.string('event_id', 255).notNullable();
    t.string('type', 40).notNullable();
    t.string('charge_id', 255).notNullable();
    t.string('payment_id', 64);
    // What the event did: applied (moved an attempt), unchanged (late or repeated), unknown (no attempt of ours).
    t.string('outcome', 16).notNullable();
    t.timestamp('created', { useTz: true }).notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['gateway', 'event_id']);
    t.index(['charge_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('payment_webhook_events');
  await knex.schema.dropTableIfExists('payment_customers');
  await knex.raw('drop index if exists payments_order_in_flight');
  await knex.schema.alterTable('payments', (t) => {
    t.dropColumn('return_url');
    t.dropColumn('action');
    t.dropColumn('request_hash');
  });
}
