import { describe, expectTypeOf, it } from 'vitest';
import type { I18nText } from '../locales.ts';
import type { appTemplates } from './app-templates.ts';
import type { blogs } from './blogs.ts';
import type { enquiries } from './enquiries.ts';
import type { industries } from './industries.ts';
import type { modules } from './modules.ts';
import type { Page, PopulatedOf, ServiceMap } from './services.ts';
import type { CreateOf, PatchOf, QueryOf, RecordOf, Role, WireRecordOf } from './types.ts';
import type { users } from './users.ts';

/*
 * The types each definition gives its callers. Checked by the type checker (`npm run typecheck`),
 * which fails on any of these that stops holding.
 */

declare const api: ServiceMap;

describe('the record a read answers', () => {
  it('leaves hidden fields out and types the rest from the definition', () => {
    expectTypeOf<RecordOf<typeof users>>().not.toHaveProperty('password');
    expectTypeOf<RecordOf<typeof users>['_id']>().toEqualTypeOf<string>();
    expectTypeOf<RecordOf<typeof users>['role']>().toEqualTypeOf<Role>();
    expectTypeOf<RecordOf<typeof users>['name']>().toEqualTypeOf<string | null>();
    expectTypeOf<RecordOf<typeof blogs>['status']>().toEqualTypeOf<'draft' | 'published'>();
    expectTypeOf<RecordOf<typeof blogs>['title']>().toEqualTypeOf<I18nText>();
    expectTypeOf<RecordOf<typeof blogs>['tags']>().toEqualTypeOf<string[]>();
    expectTypeOf<RecordOf<typeof appTemplates>['modules']>().toEqualTypeOf<
      { id: string; monthPrice: number; count: number }[]
    >();
    expectTypeOf<RecordOf<typeof enquiries>['contactMethods']>().toEqualTypeOf<('email' | 'phone')[]>();
  });

  it('holds dates as Date in-process and as text over JSON', () => {
    expectTypeOf<RecordOf<typeof blogs>['publishedAt']>().toEqualTypeOf<Date | null>();
    expectTypeOf<WireRecordOf<typeof blogs>['publishedAt']>().toEqualTypeOf<string | null>();
  });
});

describe('create and patch data', () => {
  it('needs the required fields and refuses read-only ones', () => {
    expectTypeOf<{ email: string; password: string }>().toExtend<CreateOf<typeof users>>();
    expectTypeOf<{ email: string }>().not.toExtend<CreateOf<typeof users>>();
    expectTypeOf<CreateOf<typeof users>>().not.toHaveProperty('createdAt');
    expectTypeOf<CreateOf<typeof users>>().not.toHaveProperty('_id');
  });

  it('takes any writable field, and the list operators', () => {
    expectTypeOf<{ name: null }>().toExtend<PatchOf<typeof users>>();
    expectTypeOf<{ $push: { modules: { id: string; monthPrice: number } } }>().toExtend<PatchOf<typeof appTemplates>>();
    expectTypeOf<{ $set: { 'modules.$.count': number } }>().toExtend<PatchOf<typeof appTemplates>>();
    expectTypeOf<{ sessionVersion: string }>().not.toExtend<PatchOf<typeof users>>();
  });
});

describe('queries', () => {
  it('compare filterable fields and search searchable ones', () => {
    type Search = { status: 'published'; tags: { $in: string[] }; title: { $regex: string; $options: 'i' } };
    expectTypeOf<Search>().toExtend<QueryOf<typeof blogs>>();
    expectTypeOf<{ 'modules.id': string }>().toExtend<QueryOf<typeof appTemplates>>();
    expectTypeOf<{ $sort: { publishedAt: -1 }; $select: ['slug'] }>().toExtend<QueryOf<typeof blogs>>();
  });

  it('refuse what the compiler refuses', () => {
    // Passwords cannot be selected; no article has the status 'archived'.
    expectTypeOf<{ $select: ['password'] }>().not.toExtend<QueryOf<typeof users>>();
    expectTypeOf<{ status: 'archived' }>().not.toExtend<QueryOf<typeof blogs>>();
    // @ts-expect-error the body is neither filterable nor searchable
    const byBody = () => api.service('blogs').find({ query: { body: 'x' } });
    // @ts-expect-error the summary cannot be sorted
    const bySummary = () => api.service('blogs').find({ query: { $sort: { summary: 1 } } });
    expectTypeOf(byBody).toBeFunction();
    expectTypeOf(bySummary).toBeFunction();
  });
});

describe('the typed services', () => {
  it('answer a page, or the records with paginate false, shaped by $select and $populate', () => {
    expectTypeOf(() =>
      api.service('blogs').find({ query: { $select: ['slug', 'tags'] } }),
    ).returns.resolves.toEqualTypeOf<Page<Pick<RecordOf<typeof blogs>, '_id' | 'slug' | 'tags'>>>();
    expectTypeOf(() => api.service('modules').find({ paginate: false })).returns.resolves.toEqualTypeOf<
      RecordOf<typeof modules>[]
    >();
    expectTypeOf(() => api.service('appTemplates').get('id', { query: { $populate: 'industry' } }))
      .returns.resolves.toHaveProperty('industry')
      .toEqualTypeOf<string | RecordOf<typeof industries>>();
    type IncludedModule = PopulatedOf<typeof appTemplates, 'modules.id'>['modules'][number]['id'];
    expectTypeOf<IncludedModule>().toEqualTypeOf<string | RecordOf<typeof modules>>();
  });

  it('type the services that have no definition', () => {
    expectTypeOf(() => api.service('features').find())
      .returns.resolves.toHaveProperty('contactForm')
      .toEqualTypeOf<boolean>();
  });
});
