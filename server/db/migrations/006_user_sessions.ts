import type { Knex } from 'knex';

/** The version of an account's sessions: ending them all is one write, checked with the user on every call. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('session_version', 64);
    t.string('session_kept', 64);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('session_version');
    t.dropColumn('session_kept');
  });
}
