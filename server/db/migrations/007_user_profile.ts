import type { Knex } from 'knex';

/**
 * What a buyer registers with (company, address, phone) and when they proved their email. Accounts
 * made before verification existed were made by staff or the seed: they count as verified.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('company_name', 200);
    t.string('company_address', 500);
    t.string('phone', 32);
    t.timestamp('email_verified_at', { useTz: true });
  });
  await knex('users').update({ email_verified_at: knex.ref('created_at') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('company_name');
    t.dropColumn('company_address');
    t.dropColumn('phone');
    t.dropColumn('email_verified_at');
  });
}
