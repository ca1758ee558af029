import type { Knex } from 'knex';

/*
 * Exports of a back-office table (decision 036): what was asked (the entity, the format, the
 * columns, the table's query or a selection of ids, the language), who asked, and how far the job
 * has gone. The file itself is in the storage under `file_key`, removed a day after it is made.
 * Values of the checks are written out, not imported.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('exports', (t) => {
    t.string('id', 64).primary();
    t.string('source', 64).notNullable();
    t.enu('format', ['csv', 'xlsx']).notNullable();
    t.jsonb('columns').notNullable();
    t.jsonb('query');
    t.jsonb('ids');
    t.string('locale', 8).notNullable();
    t.enu('state', ['queued', 'running', 'done', 'failed', 'cancelled']).notNullable().defaultTo('queued');
    t.integer('rows').notNullable().defaultTo(0);
    t.integer('total');
    t.string('file_key', 200);
    t.string('error', 500);
    t.string('user_id', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    // A person's exports, newest first; the clean-up's walk of old ones.
    t.index(['user_id', 'created_at']);
    t.index(['created_at']);
  });
  // Staff's exports are in the audit log beside their writes.
  await knex.raw('alter table audit_logs drop constraint audit_logs_method_check');
  await knex.raw(
    `alter table audit_logs add constraint audit_logs_method_check check (method in ('create', 'patch', 'remove', 'export'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('audit_logs').where({ method: 'export' }).delete();
  await knex.raw('alter table audit_logs drop constraint audit_logs_method_check');
  await knex.raw(
    `alter table audit_logs add constraint audit_logs_method_check check (method in ('create', 'patch', 'remove'))`,
  );
  await knex.schema.dropTable('exports');
}
