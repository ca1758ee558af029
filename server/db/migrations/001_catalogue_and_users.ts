import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('industries', (t) => {
    t.string('id', 64).primary();
    t.string('key', 64).unique();
    t.jsonb('name').notNullable();
    t.jsonb('description').notNullable().defaultTo('{}');
    t.integer('display_order').notNullable().defaultTo(0);
    t.boolean('major').notNullable().defaultTo(false);
    t.jsonb('items').notNullable().defaultTo('[]');
    timestamps(t);
    t.index(['display_order', 'id']);
  });

  await knex.schema.createTable('modules', (t) => {
    t.string('id', 64).primary();
    t.string('key', 64).unique();
    t.jsonb('name').notNullable();
    t.jsonb('short_desc').notNullable().defaultTo('{}');
    t.jsonb('description').notNullable().defaultTo('{}');
    t.boolean('counter').notNullable().defaultTo(false);
    t.integer('month_price').notNullable().defaultTo(0);
    t.string('currency', 3).notNullable().defaultTo('HKD');
    t.string('billing', 16).notNullable().defaultTo('monthly');
    t.boolean('released').notNullable().defaultTo(true);
    t.integer('display_order').notNullable().defaultTo(0);
    timestamps(t);
  });

  await knex.schema.createTable('app_templates', (t) => {
    t.string('id', 64).primary();
    t.string('key', 64).unique();
    t.jsonb('name').notNullable();
    t.jsonb('description').notNullable().defaultTo('{}');
    t.string('type', 16).notNullable();
    t.integer('month_price').notNullable().defaultTo(0);
    t.string('currency', 3).notNullable().defaultTo('HKD');
    t.integer('prepay_month').notNullable().defaultTo(24);
    t.integer('contract_months').notNullable().defaultTo(0);
    t.boolean('show_on_home').notNullable().defaultTo(false);
    t.string('industry_id', 64).notNullable().references('id').inTable('industries').onDelete('RESTRICT');
    t.jsonb('modules').notNullable().defaultTo('[]');
    timestamps(t);
    t.index(['industry_id']);
  });

  await knex.schema.createTable('users', (t) => {
    t.string('id', 64).primary();
    t.string('email', 254).notNullable();
    t.string('password', 255).notNullable();
    t.string('name', 120);
    t.string('first_name', 60);
    t.string('last_name', 60);
    t.string('role', 16).notNullable().defaultTo('member');
    t.string('locale', 8);
    timestamps(t);
    t.unique(['email']);
    t.index(['created_at', 'id']);
  });

  await knex.schema.createTable('revoked_tokens', (t) => {
    t.string('jti', 64).primary();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['revoked_tokens', 'users', 'app_templates', 'modules', 'industries']) {
    await knex.schema.dropTableIfExists(table);
  }
}
