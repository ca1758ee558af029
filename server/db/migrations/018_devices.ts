import type { Knex } from 'knex';

/**
 * The devices registered to a member's apps (decision 030): whose, on which subscription and
 * module, the name the member gave, the device's own code and the pairing code its app enters.
 * Both codes are unique, so a pairing code names one device. A subscription or module with
 * devices on it is not removed under them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('devices', (t) => {
    t.string('id', 64).primary();
    t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('RESTRICT');
    t.string('subscription_id', 64).notNullable().references('id').inTable('subscriptions').onDelete('RESTRICT');
    t.string('module_id', 64).notNullable().references('id').inTable('modules').onDelete('RESTRICT');
    t.string('name', 60).notNullable();
    t.string('code', 16).notNullable().unique();
    t.string('pairing_code', 9).unique();
    t.timestamp('paired_at', { useTz: true });
    t.timestamp('last_seen_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'created_at']);
    // Counting a module's devices when one is registered (the limit).
    t.index(['subscription_id', 'module_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('devices');
}
