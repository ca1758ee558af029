import type { Knex } from 'knex';

/*
 * A subscription's life after the purchase (decision 031): its states (incomplete, active, past
 * due, unpaid, non-renewing, cancelled; `ended` was never set and becomes `cancelled`), the day
 * it stops when the member has asked it to, the day a failed renewal is tried again, the card on
 * file (what a person recognises it by, apart from the gateway's references to charge it), the
 * history of its moves, and renewal orders (`renewal`, naming the subscription). Values of the
 * checks are written out, not imported: the definitions-vs-tables test holds the definitions to them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table subscriptions drop constraint if exists subscriptions_status_check');
  await knex.raw(`update subscriptions set status = 'cancelled' where status = 'ended'`);
  await knex.raw(
    `alter table subscriptions add constraint subscriptions_status_check check (status in ('incomplete', 'active', 'past_due', 'unpaid', 'non_renewing', 'cancelled'))`,
  );
  await knex.schema.alterTable('subscriptions', (t) => {
    t.timestamp('cancel_at', { useTz: true });
    t.timestamp('retry_on', { useTz: true });
    t.jsonb('card');
    t.jsonb('payment_method');
    t.jsonb('history').notNullable().defaultTo('[]');
  });
  // The card on file of the plans bought so far: the one their order was paid with.
  await knex.raw(`
    update subscriptions s set
      card = jsonb_build_object('brand', p.card->'brand', 'last4', p.card->'last4', 'expMonth', p.card->'expMonth', 'expYear', p.card->'expYear'),
      payment_method = jsonb_build_object('gateway', p.gateway, 'customerId', p.card->'customerId', 'paymentMethodId', p.card->'paymentMethodId')
    from (
      select distinct on (order_id) order_id, gateway, card from payments
      where status = 'succeeded' and card is not null order by order_id, created_at desc
    ) p
    where p.order_id = s.order_id`);

  await knex.raw('alter table orders drop constraint if exists orders_kind_check');
  await knex.raw(`alter table orders add constraint orders_kind_check check (kind in ('plan', 'addon', 'renewal'))`);
  await knex.raw('alter table orders drop constraint orders_addon_has_subscription');
  await knex.raw(
    `alter table orders add constraint orders_addon_has_subscription check ((kind in ('addon', 'renewal')) = (subscription_id is not null))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`delete from orders where kind = 'renewal'`);
  await knex.raw('alter table orders drop constraint orders_addon_has_subscription');
  await knex.raw(
    `alter table orders add constraint orders_addon_has_subscription check ((kind = 'addon') = (subscription_id is not null))`,
  );
  await knex.raw('alter table orders drop constraint orders_kind_check');
  await knex.raw(`alter table orders add constraint orders_kind_check check (kind in ('plan', 'addon'))`);
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropColumn('history');
    t.dropColumn('payment_method');
    t.dropColumn('card');
    t.dropColumn('retry_on');
    t.dropColumn('cancel_at');
  });
  await knex.raw('alter table subscriptions drop constraint subscriptions_status_check');
  await knex.raw(
    `update subscriptions set status = 'active' where status in ('incomplete', 'past_due', 'unpaid', 'non_renewing')`,
  );
  await knex.raw(
    `alter table subscriptions add constraint subscriptions_status_check check (status in ('active', 'cancelled', 'ended'))`,
  );
}
