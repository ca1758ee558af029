import type { Knex } from 'knex';

/*
 * The billing anchor is the day of the month the order was paid, 1 to 31, clamped to the last
 * day of shorter months when a date is worked out (decision 023); it was capped at 28 (decision 018).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table subscriptions drop constraint subscriptions_billing_anchor_day_range');
  await knex.raw(
    'alter table subscriptions add constraint subscriptions_billing_anchor_day_range check (billing_anchor_day between 1 and 31)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('update subscriptions set billing_anchor_day = 28 where billing_anchor_day > 28');
  await knex.raw('alter table subscriptions drop constraint subscriptions_billing_anchor_day_range');
  await knex.raw(
    'alter table subscriptions add constraint subscriptions_billing_anchor_day_range check (billing_anchor_day between 1 and 28)',
  );
}
