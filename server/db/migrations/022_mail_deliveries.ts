import type { Knex } from 'knex';

/*
 * The mail queue as staff see it (decision 035): one row per mail job, written by the server
 * around the job (server/mail/deliveries.ts). `job_id` links it to pg-boss's job; `job_data` is
 * the job's data, which a retry sends again: no field describes it, so it never leaves the server.
 * `kind` and `locale` have no CHECK: a new mail or language needs no migration.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_deliveries', (t) => {
    t.string('id', 64).primary();
    t.string('kind', 64).notNullable();
    t.string('recipient', 1000);
    t.string('subject', 500);
    t.string('locale', 8);
    t.enu('state', ['queued', 'sending', 'sent', 'retrying', 'failed', 'skipped']).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('last_error', 500);
    t.string('job_id', 64).notNullable().unique();
    t.jsonb('job_data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    // Newest first, and the failed ones.
    t.index(['created_at', 'id']);
    t.index(['state', 'created_at']);
  });
  const { rows } = await knex.raw<{ rows: { schema: string }[] }>(
    `select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`,
  );
  // Installed by migration 020.
  const ops = `${rows[0]?.schema}.gin_trgm_ops`;
  await knex.raw('create index mail_deliveries_recipient_trgm on mail_deliveries using gin (recipient ??)', [ops]);
  await knex.raw('create index mail_deliveries_subject_trgm on mail_deliveries using gin (subject ??)', [ops]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('mail_deliveries');
}
