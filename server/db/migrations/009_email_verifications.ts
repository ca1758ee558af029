import type { Knex } from 'knex';

/**
 * Email verification (decision 020): one row per code sent. The code and the link's token are kept
 * only as HMACs under the app secret; the row is bound to the account and to the address the code
 * went to. A row ends when it is used, replaced by a newer one, or killed by wrong codes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_verifications', (t) => {
    t.string('id', 64).primary();
    t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('email', 254).notNullable();
    /** Why it was sent: registration, resend, email-change. */
    t.string('reason', 16).notNullable();
    t.string('code_hash', 64).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('replaced_at', { useTz: true });
    // The account's latest code, and its sends of the last hour.
    t.index(['user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_verifications');
}
