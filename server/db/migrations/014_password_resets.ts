import type { Knex } from 'knex';

/**
 * Password resets by mailed link (decision 026): one row per link sent. The link's token is kept
 * only as its SHA-256 (the token is 256 random bits, so its hash cannot be turned back into it). A
 * row ends when it is used, replaced by a newer link or by a reset, or expires.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('password_resets', (t) => {
    t.string('id', 64).primary();
    t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('replaced_at', { useTz: true });
    // The account's open links, ended together by a newer link or a reset.
    t.index(['user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('password_resets');
}
