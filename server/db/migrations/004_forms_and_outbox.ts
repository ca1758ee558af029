import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contact_forms', (t) => {
    t.string('id', 64).primary();
    t.string('name', 120).notNullable();
    t.string('phone', 40).notNullable();
    t.string('email', 254).notNullable();
    t.string('company_name', 200).notNullable();
    t.boolean('testing');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The back office's newest-first list, and the one-minute duplicate check by email.
    t.index(['created_at', 'id']);
    t.index(['email', 'created_at']);
  });
  await knex.schema.createTable('enquiries', (t) => {
    t.string('id', 64).primary();
    t.string('salutation', 8).notNullable();
    t.string('first_name', 60).notNullable();
    t.string('last_name', 60).notNullable();
    t.string('company_name', 200).notNullable();
    t.string('customer_type', 16).notNullable();
    t.string('business_type', 16).notNullable();
    t.string('plan_needed', 64).notNullable();
    t.string('company_website', 300);
    t.jsonb('contact_methods').notNullable().defaultTo('[]');
    t.string('email', 254).notNullable();
    t.string('country_code', 8).notNullable();
    t.string('phone', 40).notNullable();
    t.text('need_description');
    t.text('custom_features');
    t.jsonb('advanced_features');
    t.string('consultation_type', 16).notNullable();
    t.boolean('personal_data_consent').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
    t.index(['email', 'created_at']);
  });
  // Mail kept for staff when no SMTP server is configured.
  await knex.schema.createTable('outbox', (t) => {
    t.string('id', 64).primary();
    t.string('recipient', 1000).notNullable();
    t.string('sender', 500).notNullable();
    t.string('subject', 500).notNullable();
    t.text('text').notNullable();
    t.text('html').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('outbox');
  await knex.schema.dropTable('enquiries');
  await knex.schema.dropTable('contact_forms');
}
