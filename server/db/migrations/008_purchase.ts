import type { Knex } from 'knex';

/*
 * Buying a plan (decision 018): orders, payment attempts, subscriptions and invoices, and one
 * invoice sequence per seller. The values of the enum checks are written out, not imported: a
 * migration is history, and a later change to a list is a migration of its own (the
 * definitions-vs-tables test holds the definitions to these checks).
 */

const SELLERS = ['HK', 'SG'];
const PLAN_TYPES = ['lite', 'flexi', 'enterprise'];
const CURRENCY_CODES = ['HKD', 'SGD', 'USD', 'TWD', 'MYR', 'VND', 'THB', 'JPY', 'AUD', 'CNY'];
const ORDER = [
  'draft',
  'pending_payment',
  'paid',
  'provisioning',
  'completed',
  'payment_failed',
  'expired',
  'cancelled',
  'refunded',
];
const PAYMENT = ['created', 'processing', 'requires_action', 'succeeded', 'failed', 'cancelled', 'refunded'];
const SUBSCRIPTION_STATES = ['active', 'cancelled', 'ended'];
const SUBSCRIPTION_PERIODS = ['monthly', 'annual'];
const INVOICE_STATES = ['issued', 'void'];

export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder, updated = true) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    if (updated) t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };
  const money = (t: Knex.CreateTableBuilder, ...columns: string[]) => {
    for (const column of columns) t.integer(column).notNullable();
  };

  await knex.schema.createTable('invoice_sequences', (t) => {
    t.enu('seller', SELLERS).primary();
    // The number the seller's next invoice takes; the row is locked while an invoice is issued.
    t.integer('next_number').notNullable().defaultTo(1);
  });
  await knex('invoice_sequences').insert(SELLERS.map((seller) => ({ seller, next_number: 1 })));

  await knex.schema.createTable('orders', (t) => {
    t.string('id', 64).primary();
    t.string('number', 16).notNullable().unique();
    t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('RESTRICT');
    t.enu('status', ORDER).notNullable().defaultTo('draft');
    t.enu('seller', SELLERS).notNullable();
    t.string('industry_id', 64).notNullable().references('id').inTable('industries').onDelete('RESTRICT');
    t.string('plan_id', 64).notNullable().references('id').inTable('app_templates').onDelete('RESTRICT');
    t.enu('plan_type', PLAN_TYPES).notNullable();
    t.jsonb('items').notNullable();
    t.enu('currency', CURRENCY_CODES).notNullable();
    t.integer('prepaid_months').notNullable();
    t.integer('contract_months').notNullable();
    money(t, 'monthly', 'yearly', 'one_time', 'subtotal', 'tax_rate', 'tax', 'total');
    t.jsonb('shipping').notNullable();
    t.string('idempotency_key', 255).notNullable();
    t.string('request_hash', 64).notNullable();
    t.jsonb('card');
    t.jsonb('history').notNullable().defaultTo('[]');
    timestamps(t);
    // The same key from the same buyer is one order, even when two requests race.
    t.unique(['user_id', 'idempotency_key']);
    t.index(['user_id', 'created_at']);
    t.index(['status', 'created_at']);
  });

  await knex.schema.createTable('payments', (t) => {
    t.string('id', 64).primary();
    t.string('order_id', 64).notNullable().references('id').inTable('orders').onDelete('RESTRICT');
    t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('RESTRICT');
    t.enu('status', PAYMENT).notNullable().defaultTo('created');
    t.string('gateway', 32).notNullable();
    t.string('gateway_charge_id', 255);
    t.integer('amount').notNullable();
    t.enu('currency', CURRENCY_CODES).notNullable();
    t.jsonb('card');
    t.jsonb('billing_address');
    t.string('failure_code', 64);
    t.string('failure_message', 500);
    t.string('idempotency_key', 255).notNullable();
    t.jsonb('history').notNullable().defaultTo('[]');
    timestamps(t);
    t.unique(['user_id', 'idempotency_key']);
    t.unique(['gateway', 'gateway_charge_id']);
    t.index(['order_id', 'created_at']);
  });

  await knex.schema.createTable('subscriptions', (t) => {
    t.string('id', 64).primary();
    t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('RESTRICT');
    // One subscription per order: provisioning twice cannot make a second.
    t.string('order_id', 64).notNullable().unique().references('id').inTable('orders').onDelete('RESTRICT');
    t.string('industry_id', 64).notNullable().references('id').inTable('industries').onDelete('RESTRICT');
    t.string('plan_id', 64).notNullable().references('id').inTable('app_templates').onDelete('RESTRICT');
    t.enu('plan_type', PLAN_TYPES).notNullable();
    t.jsonb('modules').notNullable();
    t.enu('currency', CURRENCY_CODES).notNullable();
    t.integer('monthly').notNullable();
    t.enu('period', SUBSCRIPTION_PERIODS).notNullable();
    t.integer('prepaid_months').notNullable();
    t.integer('contract_months').notNullable();
    t.timestamp('contract_start', { useTz: true }).notNullable();
    t.timestamp('contract_end', { useTz: true }).notNullable();
    t.integer('billing_anchor_day').notNullable();
    t.timestamp('next_pay_date', { useTz: true }).notNullable();
    t.enu('status', SUBSCRIPTION_STATES).notNullable().defaultTo('active');
    timestamps(t);
    t.index(['user_id', 'created_at']);
    t.index(['status', 'next_pay_date']);
  });
  await knex.raw(
    'alter table subscriptions add constraint subscriptions_billing_anchor_day_range check (billing_anchor_day between 1 and 28)',
  );

  await knex.schema.createTable('invoices', (t) => {
    t.string('id', 64).primary();
    t.string('number', 16).notNullable().unique();
    t.enu('seller', SELLERS).notNullable();
    t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('RESTRICT');
    t.string('order_id', 64).notNullable().references('id').inTable('orders').onDelete('RESTRICT');
    t.string('subscription_id', 64).references('id').inTable('subscriptions').onDelete('RESTRICT');
    t.jsonb('lines').notNullable();
    t.enu('currency', CURRENCY_CODES).notNullable();
    money(t, 'subtotal', 'tax_rate', 'tax', 'total');
    t.jsonb('billing_address');
    t.jsonb('card');
    t.timestamp('issued_at', { useTz: true }).notNullable();
    t.enu('status', INVOICE_STATES).notNullable().defaultTo('issued');
    timestamps(t, false);
    t.index(['user_id', 'issued_at']);
  });
  // An order has one issued invoice at a time (a voided one may be replaced).
  await knex.raw(`create unique index invoices_order_issued on invoices (order_id) where status = 'issued'`);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['invoices', 'subscriptions', 'payments', 'orders', 'invoice_sequences']) {
    await knex.schema.dropTableIfExists(table);
  }
}
