import type { Knex } from 'knex';

/*
 * The audit log of staff writes (decision 033): one row per record created, patched or removed by
 * an admin or an editor from outside, written in the same transaction as the change. Rows are
 * never changed. `user_id` is no foreign key: the log outlives the accounts it names. Values of
 * the check are written out, not imported: the definitions-vs-tables test holds the definition to them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_logs', (t) => {
    t.string('id', 64).primary();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('user_id', 64).notNullable();
    t.string('user_email', 254).notNullable();
    t.string('service', 64).notNullable();
    t.enu('method', ['create', 'patch', 'remove']).notNullable();
    t.string('record_id', 64).notNullable();
    t.jsonb('changes').notNullable();
    t.string('request_id', 64);
    // Newest first, and a record's or a person's history.
    t.index(['created_at', 'id']);
    t.index(['service', 'record_id', 'created_at']);
    t.index(['user_id', 'created_at']);
  });
  const { rows } = await knex.raw<{ rows: { schema: string }[] }>(
    `select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`,
  );
  // Installed by migration 020.
  await knex.raw('create index audit_logs_user_email_trgm on audit_logs using gin (user_email ??)', [
    `${rows[0]?.schema}.gin_trgm_ops`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_logs');
}
