import type { Knex } from 'knex';

/**
 * The local sandbox payment gateway's own records (decision 019). They stand for what a provider
 * keeps on its side: never a card number or a CVC, only what Stripe would show us of a card.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_sandbox_customers', (t) => {
    t.string('id', 40).primary();
    t.string('email', 320).notNullable();
    t.string('name', 200);
    // Our user's id, as metadata (the sandbox has no foreign key into our tables).
    t.string('user_ref', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('payment_sandbox_payment_methods', (t) => {
    t.string('id', 40).primary();
    t.string('customer_id', 40).references('id').inTable('payment_sandbox_customers');
    t.string('brand', 20).notNullable();
    t.string('last4', 4).notNullable();
    t.integer('exp_month').notNullable();
    t.integer('exp_year').notNullable();
    // A keyed hash of the number: the same card is recognised, the number cannot be recovered.
    t.string('fingerprint', 64).notNullable();
    // Which test card it was (what a charge on it does).
    t.string('scenario', 30).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('payment_sandbox_charges', (t) => {
    t.string('id', 40).primary();
    t.string('customer_id', 40).notNullable().references('id').inTable('payment_sandbox_customers');
    t.string('payment_method_id', 40).notNullable().references('id').inTable('payment_sandbox_payment_methods');
    t.bigInteger('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('status', 20).notNullable();
    t.boolean('off_session').notNullable();
    t.bigInteger('amount_refunded').notNullable().defaultTo(0);
    t.string('failure_code', 40);
    t.string('failure_message', 200);
    t.string('return_url', 2000);
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // One row per idempotency key of any write (charge, capture, cancel, refund): the first request's
  // fingerprint and the charge it answered.
  await knex.schema.createTable('payment_sandbox_idempotency_keys', (t) => {
    t.string('key', 255).primary();
    t.string('operation', 20).notNullable();
    t.string('request_hash', 64).notNullable();
    t.string('charge_id', 40).references('id').inTable('payment_sandbox_charges');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('payment_sandbox_webhook_deliveries', (t) => {
    t.string('id', 40).primary();
    t.string('event_type', 40).notNullable();
    t.string('charge_id', 40).notNullable().references('id').inTable('payment_sandbox_charges');
    t.jsonb('payload').notNullable();
    t.string('status', 20).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('last_response_status');
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['charge_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'payment_sandbox_webhook_deliveries',
    'payment_sandbox_idempotency_keys',
    'payment_sandbox_charges',
    'payment_sandbox_payment_methods',
    'payment_sandbox_customers',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
