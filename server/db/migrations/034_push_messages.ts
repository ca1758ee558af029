import type { Knex } from 'knex';
import { trigramOperatorClass } from './020_search_indexes.ts';

/**
 * Push messages to the apps' devices (decision 055). A message keeps its statistics as counters
 * that the send job and the devices' reports add to in SQL; the open rate follows from them in a
 * generated column. A delivery is one row per message and device, unique, written before anything
 * is sent: the send job works through the rows not yet done, so a restart sends nothing twice, and a
 * device's reports set its times once whatever how often they come.
 */
const LOCALES = ['en', 'zh-hk', 'zh-cn'];

export async function up(knex: Knex): Promise<void> {
  const opclass = await trigramOperatorClass(knex);
  await knex.schema.createTable('push_messages', (t) => {
    t.string('id', 64).primary();
    t.jsonb('title').notNullable();
    t.jsonb('body').notNullable();
    t.string('audience', 8).notNullable().defaultTo('all');
    t.string('audience_locale', 8);
    t.string('audience_region', 8);
    t.string('device_id', 64).references('id').inTable('app_devices').onDelete('SET NULL');
    t.timestamp('send_at', { useTz: true });
    t.boolean('urgent').notNullable().defaultTo(false);
    t.string('status', 16).notNullable().defaultTo('draft');
    t.integer('targeted').notNullable().defaultTo(0);
    t.integer('sent').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    t.integer('received').notNullable().defaultTo(0);
    t.integer('opened').notNullable().defaultTo(0);
    // When the deliveries were written (the audience is fixed from then on).
    t.timestamp('targets_at', { useTz: true });
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
    // The scheduler's question: scheduled messages whose date has come.
    t.index(['status', 'send_at']);
    t.index(['device_id']);
  });
  await knex.raw(
    'alter table push_messages add column open_rate integer generated always as (case when sent > 0 then round(opened * 100.0 / sent)::integer end) stored',
  );
  await knex.raw(
    `alter table push_messages add constraint push_messages_status_check check (status in ('draft', 'scheduled', 'sending', 'sent', 'cancelled'))`,
  );
  await knex.raw(
    `alter table push_messages add constraint push_messages_audience_check check (audience in ('all', 'users', 'locale', 'region', 'device'))`,
  );
  await knex.raw(
    `alter table push_messages add constraint push_messages_audience_locale_check check (audience_locale in ('en', 'zh-hk', 'zh-cn'))`,
  );
  for (const locale of LOCALES) {
    await knex.raw(`create index ?? on push_messages using gin ((title ->> '${locale}') ??)`, [
      `push_messages_title_${locale.replace('-', '_')}_trgm`,
      opclass,
    ]);
  }

  await knex.schema.createTable('push_deliveries', (t) => {
    t.bigIncrements('id').primary();
    t.string('message_id', 64).notNullable().references('id').inTable('push_messages').onDelete('CASCADE');
    t.string('device_id', 64).notNullable().references('id').inTable('app_devices').onDelete('CASCADE');
    // pending → sending (claimed by one run of the job) → sent | failed.
    t.string('state', 8).notNullable().defaultTo('pending');
    // When it may go: the message's date, or the next 08:00 on the device's clock in its quiet hours.
    t.timestamp('due_at', { useTz: true }).notNullable();
    t.string('claim', 64);
    t.timestamp('claimed_at', { useTz: true });
    t.string('provider_id', 255);
    t.string('error', 300);
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('received_at', { useTz: true });
    t.timestamp('opened_at', { useTz: true });
    t.unique(['message_id', 'device_id']);
    // The job's question: a message's rows still to send, due first.
    t.index(['message_id', 'state', 'due_at']);
    t.index(['device_id']);
  });
  await knex.raw(
    `alter table push_deliveries add constraint push_deliveries_state_check check (state in ('pending', 'sending', 'sent', 'failed'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('push_deliveries');
  await knex.schema.dropTableIfExists('push_messages');
}
