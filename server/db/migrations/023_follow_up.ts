import type { Knex } from 'knex';

/*
 * Staff's follow-up of the leads (decision 035): a status that starts at `new`, and notes, on
 * enquiries, contact forms and newsletter subscribers. The status's values are written out, not
 * imported: the definitions-vs-tables test holds the definitions to them.
 */
const TABLES = ['enquiries', 'contact_forms', 'subscribers'];

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.enu('follow_up', ['new', 'contacted', 'closed']).notNullable().defaultTo('new');
      t.text('notes');
      // The leads still to answer, newest first.
      t.index(['follow_up', 'created_at']);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(['follow_up', 'created_at']);
      t.dropColumn('notes');
      t.dropColumn('follow_up');
    });
  }
}
