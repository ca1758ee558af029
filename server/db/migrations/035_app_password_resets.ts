import type { Knex } from 'knex';

/**
 * Password resets of the users of the company's apps (decisions 026 and 053): the members' links
 * (migration 014) in a table of their own, for the app users' own accounts. One row per link sent;
 * the token kept only as its SHA-256. A token is looked up in its population's table alone, so a
 * member's link never finds an app user, nor the reverse, and each keeps a cascading key to its
 * accounts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('app_password_resets', (t) => {
    t.string('id', 64).primary();
    t.string('app_user_id', 64).notNullable().references('id').inTable('app_users').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('replaced_at', { useTz: true });
    // The account's open links, ended together by a newer link or a reset.
    t.index(['app_user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('app_password_resets');
}
