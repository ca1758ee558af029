import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('subscribers', (t) => {
    t.string('id', 64).primary();
    t.string('email', 254).notNullable();
    t.string('name', 120);
    t.string('company_name', 160);
    t.string('phone', 40);
    t.string('campaign', 32).notNullable();
    t.string('locale', 8);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // One subscription per address and campaign: subscribing again is not a second row.
    t.unique(['campaign', 'email']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('subscribers');
}
