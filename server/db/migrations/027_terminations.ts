import type { Knex } from 'knex';

/*
 * Ending a plan inside its minimum term (decision 044): the termination fee is an order of its own
 * (`termination`, naming the subscription), paid off-session on the card on file like a renewal
 * and invoiced like any order. Values of the checks are written out, not imported: the
 * definitions-vs-tables test holds the definitions to them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table orders drop constraint if exists orders_kind_check');
  await knex.raw(
    `alter table orders add constraint orders_kind_check check (kind in ('plan', 'addon', 'renewal', 'termination'))`,
  );
  await knex.raw('alter table orders drop constraint orders_addon_has_subscription');
  await knex.raw(
    `alter table orders add constraint orders_addon_has_subscription check ((kind in ('addon', 'renewal', 'termination')) = (subscription_id is not null))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`delete from orders where kind = 'termination'`);
  await knex.raw('alter table orders drop constraint orders_addon_has_subscription');
  await knex.raw(
    `alter table orders add constraint orders_addon_has_subscription check ((kind in ('addon', 'renewal')) = (subscription_id is not null))`,
  );
  await knex.raw('alter table orders drop constraint orders_kind_check');
  await knex.raw(`alter table orders add constraint orders_kind_check check (kind in ('plan', 'addon', 'renewal'))`);
}
