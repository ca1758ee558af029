import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('blogs', (t) => {
    t.string('id', 64).primary();
    t.jsonb('title').notNullable();
    t.string('slug', 120).notNullable().unique();
    t.jsonb('summary').notNullable();
    // Sanitised HTML per language (see server/services/blogs/sanitize.ts).
    t.jsonb('body').notNullable();
    t.string('cover_image', 500);
    t.jsonb('cover_alt');
    t.string('category', 32).notNullable();
    t.jsonb('tags').notNullable().defaultTo('[]');
    t.string('author', 120);
    t.timestamp('published_at', { useTz: true });
    t.string('status', 16).notNullable().defaultTo('draft');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The public list: published articles, newest first, optionally of one category.
    t.index(['status', 'published_at', 'id']);
    t.index(['category', 'published_at']);
  });
  // `tags @> '["pos"]'` (the tag filter) is served by a GIN index.
  await knex.raw('create index blogs_tags_gin on blogs using gin (tags jsonb_path_ops)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('blogs');
}
