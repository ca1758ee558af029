import type { Knex } from 'knex';

/*
 * The first answer of each write sent with an `Idempotency-Key` (decision 041): a retry of the same
 * request by the same caller gets it again instead of writing twice. Kept a day.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    // A hash of who asked (their token, else their address): one caller's keys are not another's.
    t.string('scope', 64).notNullable();
    t.string('key', 128).notNullable();
    // A hash of the method, path and body: the same key with another request is refused.
    t.string('fingerprint', 64).notNullable();
    t.enu('state', ['pending', 'done']).notNullable();
    t.integer('status');
    t.jsonb('body');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['scope', 'key']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
