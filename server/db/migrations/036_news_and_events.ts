import type { Knex } from 'knex';
import { trigramOperatorClass } from './020_search_indexes.ts';

/**
 * The news of the company's apps with their events, the app users' registrations for them, and
 * the one list of categories that the news and the blog share (decision 056).
 *
 * The blog's five categories, fixed in code until now, become rows whose ids are their old keys,
 * so every article keeps its `category` and the blog's addresses stay as they were; the articles'
 * category then points at the list. The apps' read (published, in its window, by region and
 * category, pinned first and newest next) has an index of its own. A registration is one per app
 * user and item; the item counts its registrations (`event_registered`) in the same transaction,
 * under its row lock. The outbox keeps a mail's attachments (the event's calendar file).
 */
const BLOG_CATEGORIES = [
  ['restaurant-tips', { en: 'Restaurant tips', 'zh-hk': '餐廳經營貼士', 'zh-cn': '餐厅经营技巧' }],
  ['retail-tips', { en: 'Retail tips', 'zh-hk': '零售經營貼士', 'zh-cn': '零售经营技巧' }],
  ['payments', { en: 'Payments', 'zh-hk': '收款與支付', 'zh-cn': '收款与支付' }],
  ['product-news', { en: 'Product news', 'zh-hk': '產品消息', 'zh-cn': '产品动态' }],
  ['case-studies', { en: 'Case studies', 'zh-hk': '客戶個案', 'zh-cn': '客户案例' }],
] as const;
const LOCALES = ['en', 'zh-hk', 'zh-cn'];

export async function up(knex: Knex): Promise<void> {
  const opclass = await trigramOperatorClass(knex);
  await knex.schema.createTable('categories', (t) => {
    t.string('id', 64).primary();
    t.jsonb('name').notNullable();
    t.integer('display_order').notNullable().defaultTo(0);
    t.boolean('in_blog').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['display_order', 'id']);
  });
  await knex('categories').insert(
    BLOG_CATEGORIES.map(([id, name], index) => ({
      id,
      name: JSON.stringify(name),
      display_order: (index + 1) * 10,
      in_blog: true,
    })),
  );
  // Any other category an article holds (none in a database this product wrote) is kept by name.
  await knex.raw(
    `insert into categories (id, name, display_order, in_blog)
     select distinct category, jsonb_build_object('en', category), 1000, true from blogs
     where category not in (select id from categories)`,
  );
  await knex.schema.alterTable('blogs', (t) => {
    t.string('category', 64).notNullable().alter();
    t.foreign('category').references('id').inTable('categories');
  });

  await knex.schema.createTable('news', (t) => {
    t.string('id', 64).primary();
    t.jsonb('title').notNullable();
    t.string('name', 120);
    t.jsonb('content').notNullable();
    t.string('author', 120);
    t.string('category', 64).references('id').inTable('categories');
    t.string('city', 80);
    t.string('region', 8).notNullable();
    t.string('image_id', 64).references('id').inTable('attachments').onDelete('SET NULL');
    t.timestamp('date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.boolean('top').notNullable().defaultTo(false);
    t.timestamp('publish_from', { useTz: true });
    t.timestamp('publish_to', { useTz: true });
    t.timestamp('expiry', { useTz: true });
    t.string('status', 16).notNullable();
    t.timestamp('published_at', { useTz: true });
    t.boolean('has_event').notNullable().defaultTo(false);
    t.jsonb('event_title');
    t.jsonb('event_content');
    t.string('event_email', 254);
    t.timestamp('event_start_date', { useTz: true });
    t.timestamp('event_end_date', { useTz: true });
    t.string('event_join_url', 500);
    t.string('event_location', 16);
    t.string('event_map_url', 500);
    t.jsonb('event_notes');
    t.string('event_region', 80);
    t.integer('event_capacity');
    t.timestamp('event_closes_at', { useTz: true });
    t.integer('event_registered').notNullable().defaultTo(0);
    t.boolean('post_to_facebook').notNullable().defaultTo(false);
    t.string('post_to_instagram_id', 120);
    t.boolean('send_notification').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['category']);
    t.index(['created_at', 'id']);
  });
  await knex.raw(`alter table news add constraint news_status_check check (status in ('draft', 'published'))`);
  await knex.raw(
    `alter table news add constraint news_event_registered_check check (event_registered >= 0 and (event_capacity is null or event_registered <= event_capacity))`,
  );
  // The apps' list: published items of a region (and a category), pinned first, newest next, the
  // window checked on the few rows each page reads.
  await knex.raw(
    `create index news_public_list on news (region, top desc, date desc, id desc) where status = 'published'`,
  );
  await knex.raw(
    `create index news_public_category on news (region, category, top desc, date desc, id desc) where status = 'published'`,
  );

  await knex.schema.createTable('event_registrations', (t) => {
    t.string('id', 64).primary();
    t.string('news_id', 64).notNullable().references('id').inTable('news').onDelete('CASCADE');
    t.string('app_user_id', 64).notNullable().references('id').inTable('app_users').onDelete('CASCADE');
    t.string('name', 120);
    t.string('email', 254);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['news_id', 'app_user_id']);
    t.index(['news_id', 'created_at']);
    t.index(['app_user_id', 'created_at']);
  });

  // What the back office searches (decision 033): names and titles in each language, names and addresses.
  for (const locale of LOCALES) {
    const suffix = locale.replace('-', '_');
    await knex.raw(`create index ?? on categories using gin ((name ->> '${locale}') ??)`, [
      `categories_name_${suffix}_trgm`,
      opclass,
    ]);
    await knex.raw(`create index ?? on news using gin ((title ->> '${locale}') ??)`, [
      `news_title_${suffix}_trgm`,
      opclass,
    ]);
  }
  for (const [table, column] of [
    ['news', 'name'],
    ['news', 'author'],
    ['event_registrations', 'name'],
    ['event_registrations', 'email'],
  ] as const) {
    await knex.raw(`create index ?? on ?? using gin (?? ??)`, [`${table}_${column}_trgm`, table, column, opclass]);
  }

  await knex.schema.alterTable('outbox', (t) => {
    t.jsonb('attachments').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => t.dropColumn('attachments'));
  await knex.schema.dropTableIfExists('event_registrations');
  await knex.schema.dropTableIfExists('news');
  await knex.schema.alterTable('blogs', (t) => t.dropForeign(['category']));
  await knex.schema.dropTableIfExists('categories');
}
