import type { Knex } from 'knex';

/**
 * What a news item's first publication sends (decision 059).
 *
 * - A push message may be about a news item (`news_id`) and written by the server for it
 *   (`origin`: the item's notification, its event's reminder). One of each per item at most: a
 *   unique index, so two instances publishing the same item at once, or a job run twice, write
 *   one. Staff's own messages (`staff`) may point at any item, as many as they like.
 * - A new audience, the registrants of an item's event, is longer than the column was.
 * - The item keeps its Facebook post: its id, where the posting stands and the last error.
 * - The reminders' look at upcoming events reads published items with an event by their start.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('push_messages', (t) => {
    t.string('news_id', 64).references('id').inTable('news').onDelete('SET NULL');
    t.string('origin', 8).notNullable().defaultTo('staff');
    t.index(['news_id']);
  });
  await knex.raw(
    `alter table push_messages add constraint push_messages_origin_check check (origin in ('staff', 'news', 'reminder'))`,
  );
  await knex.raw(
    `create unique index push_messages_news_origin_unique on push_messages (news_id, origin) where origin <> 'staff'`,
  );
  await knex.raw('alter table push_messages drop constraint push_messages_audience_check');
  await knex.raw('alter table push_messages alter column audience type varchar(16)');
  await knex.raw(
    `alter table push_messages add constraint push_messages_audience_check check (audience in ('all', 'users', 'locale', 'region', 'device', 'registrants'))`,
  );

  await knex.schema.alterTable('news', (t) => {
    t.string('facebook_post_id', 120);
    t.string('facebook_status', 8);
    t.string('facebook_error', 500);
  });
  await knex.raw(
    `alter table news add constraint news_facebook_status_check check (facebook_status in ('pending', 'posting', 'posted', 'failed'))`,
  );
  await knex.raw(
    `create index news_upcoming_events on news (event_start_date) where has_event and status = 'published'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists news_upcoming_events');
  await knex.schema.alterTable('news', (t) => {
    t.dropColumn('facebook_error');
    t.dropColumn('facebook_status');
    t.dropColumn('facebook_post_id');
  });
  await knex('push_messages').where({ audience: 'registrants' }).update({ audience: 'users' });
  await knex.raw('alter table push_messages drop constraint push_messages_audience_check');
  await knex.raw('alter table push_messages alter column audience type varchar(8)');
  await knex.raw(
    `alter table push_messages add constraint push_messages_audience_check check (audience in ('all', 'users', 'locale', 'region', 'device'))`,
  );
  await knex.schema.alterTable('push_messages', (t) => {
    t.dropColumn('origin');
    t.dropColumn('news_id');
  });
}
