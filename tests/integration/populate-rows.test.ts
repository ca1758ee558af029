import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityDef } from '../../domain/entities/types.ts';
import type { EntityRecord } from '../../server/services/entity/entity-service.ts';
import { createPopulator } from '../../server/services/populate.ts';
import { createAccount, createTestApp, skipReason, type TestAccount, type TestApp } from './harness.ts';

/**
 * `$populate` reads its targets under the same row rules as a direct read: a draft article or
 * another member's account stays an id for a caller who could not read it directly.
 */

/** A record type that references articles and accounts (as orders will reference their buyer). */
const referencing: EntityDef = {
  service: 'referencing',
  table: 'referencing',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true },
    article: { kind: 'ref', ref: 'blogs' },
    buyer: { kind: 'ref', ref: 'users' },
  },
  populate: { article: { service: 'blogs', path: 'article' }, buyer: { service: 'users', path: 'buyer' } },
  defaultSort: { _id: 1 },
  access: { find: 'public', get: 'public', create: 'none', patch: 'none', remove: 'none' },
};

describe.skipIf(skipReason)('$populate under the row rules', () => {
  let app: TestApp;
  let draftId: string;
  let publishedId: string;
  let member: TestAccount;
  let other: TestAccount;

  const populate = async (records: EntityRecord[], paths: string[], user?: TestAccount) => {
    await createPopulator(app.api)(referencing, records, paths, {
      provider: 'rest',
      ...(user ? { user: { _id: user._id, role: user.role } } : {}),
    });
    return records;
  };
  const article = (status: 'draft' | 'published', slug: string) =>
    app.api.service('blogs').create({
      title: { en: slug },
      slug,
      summary: { en: 'Summary' },
      body: { en: '<p>Body</p>' },
      category: 'product-news',
      status,
    }) as Promise<EntityRecord>;

  beforeAll(async () => {
    app = await createTestApp();
    draftId = (await article('draft', 'populate-draft'))._id;
    publishedId = (await article('published', 'populate-published'))._id;
    member = await createAccount(app.database.knex, { label: 'populate-member' });
    other = await createAccount(app.database.knex, { label: 'populate-other' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('leaves a draft article an id for callers who are not staff, and fills it for staff', async () => {
    const [draft, published] = await populate(
      [
        { _id: 'a', article: draftId },
        { _id: 'b', article: publishedId },
      ],
      ['article'],
    );
    expect(draft?.article).toBe(draftId);
    expect(published?.article).toMatchObject({ _id: publishedId, status: 'published' });
    const editor = await createAccount(app.database.knex, { role: 'editor' });
    const [forStaff] = await populate([{ _id: 'a', article: draftId }], ['article'], editor);
    expect(forStaff?.article).toMatchObject({ _id: draftId, status: 'draft' });
  });

  it('fills a member’s own account and leaves another member’s an id', async () => {
    const records = await populate(
      [
        { _id: 'a', buyer: member._id },
        { _id: 'b', buyer: other._id },
      ],
      ['buyer'],
      member,
    );
    expect(records[0]?.buyer).toMatchObject({ _id: member._id, email: member.email });
    expect(records[0]?.buyer).not.toHaveProperty('password');
    expect(records[1]?.buyer).toBe(other._id);
  });
});
