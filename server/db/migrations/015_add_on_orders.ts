import type { Knex } from 'knex';

/*
 * Add-on upgrades (decision 026): an order is either a plan bought (`plan`) or add-ons for a
 * subscription the buyer has (`addon`, naming it); a module may be sold to some industries only
 * (none listed: to every industry). Values of the check are written out, not imported: the
 * definitions-vs-tables test holds the definitions to it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.enu('kind', ['plan', 'addon']).notNullable().defaultTo('plan');
    t.string('subscription_id', 64).references('id').inTable('subscriptions').onDelete('RESTRICT');
    t.index(['subscription_id']);
  });
  await knex.raw(
    `alter table orders add constraint orders_addon_has_subscription check ((kind = 'addon') = (subscription_id is not null))`,
  );
  await knex.schema.alterTable('modules', (t) => {
    t.jsonb('industry_ids').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('modules', (t) => {
    t.dropColumn('industry_ids');
  });
  await knex.raw('alter table orders drop constraint orders_addon_has_subscription');
  await knex.schema.alterTable('orders', (t) => {
    t.dropIndex(['subscription_id']);
    t.dropColumn('subscription_id');
    t.dropColumn('kind');
  });
}
