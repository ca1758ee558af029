import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../domain/entities/index.ts';
import type { EntityDef } from '../../domain/entities/types.ts';
import type { Database } from '../../server/database.ts';
import {
  enumProblems,
  extraColumnProblems,
  foreignKeyProblems,
  nullabilityProblems,
  nullWriteProblems,
  searchIndexProblems,
  tableProblems,
  translatedKey,
  typeProblems,
  viewProblems,
} from './definition-checks.ts';
import { createTestDatabase, skipReason } from './harness.ts';
import { readSchemaFacts, type SchemaFacts, trigramIndexes } from './schema-facts.ts';

/**
 * Every entity definition against its migrated table (the checks: definition-checks.ts), on both
 * databases, with the trigram indexes its searchable fields need.
 */

describe.skipIf(skipReason)('entity definitions and their migrated tables', () => {
  let database: Database;
  let facts: SchemaFacts;

  beforeAll(async () => {
    database = await createTestDatabase({ seed: false });
    facts = await readSchemaFacts(database.knex);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('has a table for every entity, and a definition or a stated reason for every table', () => {
    expect(tableProblems(entities, facts)).toEqual([]);
  });

  it('stores every field in a column of its kind', () => {
    expect(typeProblems(entities, facts)).toEqual([]);
  });

  it('makes required fields NOT NULL, and NOT NULL columns without a default required or server-set', () => {
    expect(nullabilityProblems(entities, facts)).toEqual([]);
  });

  it('lets a field accept null only where its column does, and marks defaulted fields NOT NULL with a default', () => {
    expect(nullWriteProblems(entities, facts)).toEqual([]);
  });

  it('describes every column by a field, or lists it as server-only', () => {
    expect(extraColumnProblems(entities, facts)).toEqual([]);
  });

  it('backs every ref field with a foreign key to its service’s table, and no other field with one', () => {
    expect(foreignKeyProblems(entities, facts)).toEqual([]);
    // The ref of today (appTemplates.industry) is seen, so the check above is not vacuous.
    const keys = facts.foreignKeys.map((key) => [key.table, key.columns, key.referencedTable]);
    expect(keys).toContainEqual(['app_templates', ['industry_id'], 'industries']);
  });

  it('holds a scoped view (admins over users) to the definition of its whole table', () => {
    expect(viewProblems(entities, facts)).toEqual([]);
    // Seen, so the check above is not vacuous: admins is a view of the users table.
    expect(entities.admins.table).toBe(entities.users.table);
    expect(entities.admins.scope).toBeDefined();
  });

  it('names what a scoped view gets wrong, and a table described whole twice', () => {
    const users = entities.users;
    const wrongView: EntityDef = {
      service: 'probeStaff',
      table: 'users',
      scope: { type: ['admin', 'member', 'owner'], kind: ['x'] },
      fields: {
        _id: { kind: 'id', column: 'id', readonly: true },
        type: { kind: 'enum', enum: ['admin', 'editor'], column: 'role', required: true },
        name: { kind: 'integer' },
        nickname: { kind: 'string' },
      },
      defaultSort: {},
      access: { find: 'none', get: 'none', create: 'none', patch: 'none', remove: 'none' },
    };
    const orphan: EntityDef = { ...wrongView, service: 'probeOrphans', table: 'probe_nothing', fields: {} };
    expect(viewProblems({ users, probeStaff: wrongView, probeOrphans: orphan }, facts)).toEqual([
      'probeStaff.name is integer, but users has users.name as string',
      'probeStaff.nickname: users.nickname is not a field of users',
      "probeStaff.type: its values admin, editor are not its scope's, admin, member, owner",
      'probeStaff.type: its scope holds owner, which users does not allow',
      'probeStaff: its scope names kind, which is not one of its fields',
      'users.email is NOT NULL without a default, but the scoped view probeStaff has no field for it',
      'users.password is NOT NULL without a default, but the scoped view probeStaff has no field for it',
      'probeOrphans is a scoped view of probe_nothing, which no unscoped definition describes',
    ]);
    // Two definitions over one table, neither scoped: the table is described twice.
    const copy: EntityDef = { ...users, service: 'probeUsers' };
    expect(tableProblems({ ...entities, probeUsers: copy }, facts)).toEqual([
      'users: described whole by users and probeUsers; one definition describes a table, others are scoped views (scope)',
    ]);
    // The view leaves users' other columns to users; without it, they would be undescribed.
    expect(extraColumnProblems({ admins: entities.admins }, facts)).toEqual([]);
  });

  it('keeps enum values equal to any CHECK on their column, and short enough for it', () => {
    expect(enumProblems(entities, facts)).toEqual([]);
  });

  it('names the entity, field and column of each kind of disagreement', async () => {
    const { knex } = database;
    const probe: EntityDef = {
      service: 'probeArticles',
      table: 'probe_articles',
      fields: {
        _id: { kind: 'id', column: 'id', readonly: true },
        title: { kind: 'i18n', required: true },
        slug: { kind: 'string' },
        status: { kind: 'enum', enum: ['draft', 'archived'], required: true },
        format: { kind: 'enum', enum: ['memo', 'notice'] },
        owner: { kind: 'ref', ref: 'users', column: 'owner_id' },
        industry: { kind: 'string', column: 'industry_id' },
        author: { kind: 'ref', ref: 'users', column: 'author_id' },
        pinned: { kind: 'integer', defaulted: true },
        createdAt: { kind: 'date', readonly: true },
      },
      defaultSort: {},
      access: { find: 'none', get: 'none', create: 'none', patch: 'none', remove: 'none' },
    };
    await knex.schema.createTable('probe_articles', (t) => {
      t.string('id', 64).primary();
      t.jsonb('title');
      t.string('slug', 64).notNullable();
      t.enu('status', ['draft', 'published']).notNullable();
      t.string('format', 4).notNullable().defaultTo('memo');
      t.string('owner_id', 64);
      t.string('industry_id', 64).references('id').inTable('industries');
      t.string('author_id', 64).references('id').inTable('industries');
      t.boolean('pinned');
      t.integer('views').notNullable();
    });
    await knex.schema.createTable('probe_notes', (t) => t.string('id', 64).primary());
    try {
      const withProbe = await readSchemaFacts(knex);
      const only = { probeArticles: probe };
      expect(tableProblems({ ...entities, ...only }, withProbe)).toEqual([
        'probe_notes: no entity describes this table and TABLES_WITHOUT_DEFINITION does not list it',
      ]);
      expect(typeProblems(only, withProbe)).toEqual([
        'probeArticles.pinned (integer): probe_articles.pinned is boolean, expected integer or bigint',
        'probeArticles.createdAt: column probe_articles.created_at does not exist',
      ]);
      expect(nullabilityProblems(only, withProbe)).toEqual([
        'probeArticles.title is required but probe_articles.title allows NULL',
        'probe_articles.slug is NOT NULL without a default, but probeArticles.slug is neither required nor readonly',
      ]);
      expect(nullWriteProblems(only, withProbe)).toEqual([
        'probeArticles.slug accepts null (neither required nor defaulted) but probe_articles.slug is NOT NULL',
        'probeArticles.format accepts null (neither required nor defaulted) but probe_articles.format is NOT NULL',
        'probeArticles.pinned is defaulted but probe_articles.pinned is not NOT NULL with a default',
      ]);
      expect(extraColumnProblems(only, withProbe)).toEqual([
        'probe_articles.views: no field of probeArticles, and not listed as server-only',
      ]);
      expect(foreignKeyProblems(only, withProbe)).toEqual([
        'probeArticles.owner: no foreign key from probe_articles.owner_id to users(id)',
        'probeArticles.industry is a string field, but probe_articles_industry_id_foreign references industries',
        'probeArticles.author: probe_articles_author_id_foreign points to industries(id), not users(id)',
      ]);
      expect(enumProblems(only, withProbe)).toEqual([
        'probeArticles.status: probe_articles_status_check allows draft, published; the definition has draft, archived',
        "probeArticles.format: 'notice' does not fit probe_articles.format (character varying(4))",
      ]);
    } finally {
      await knex.schema.dropTable('probe_notes');
      await knex.schema.dropTable('probe_articles');
    }
  });

  describe('trigram indexes on searchable fields', () => {
    it('has one on every searchable field, and on each language of a translated one', async () => {
      const report = await trigramIndexes(database.knex);
      expect(searchIndexProblems(entities, report)).toEqual([]);
      // Seen, so the check above is not vacuous.
      expect(report.users?.email).toEqual([{ index: 'users_email_trgm', key: 'email' }]);
      expect(report.blogs?.title?.map((index) => index.key)).toEqual(
        ['en', 'zh-cn', 'zh-hk'].map((locale) => translatedKey('title', locale)),
      );
    });

    it('names the field and the language whose index is missing, and sees no other kind of index', async () => {
      // Changed in a transaction rolled back, so the schema stays as migrated.
      let problems: string[] = [];
      const undo = new Error('undo');
      await database.knex
        .transaction(async (trx) => {
          await trx.raw('drop index users_email_trgm, blogs_title_zh_hk_trgm');
          // A plain index on a searchable column does not serve ILIKE '%...%'.
          await trx.raw('create index users_email_plain on users (email)');
          problems = searchIndexProblems(entities, await trigramIndexes(trx));
          throw undo;
        })
        .catch((error: unknown) => {
          if (error !== undo) throw error;
        });
      expect(problems).toEqual([
        'users.email is searchable but users has no trigram (gin_trgm_ops) index on email',
        // A scoped view searches its table's columns: it needs the same indexes.
        'admins.email is searchable but users has no trigram (gin_trgm_ops) index on email',
        "blogs.title is searchable but blogs has no trigram (gin_trgm_ops) index on (title ->> 'zh-hk'::text)",
      ]);
    });
  });
});
