import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactForms } from '../../domain/entities/contact-forms.ts';
import { industries } from '../../domain/entities/industries.ts';
import { EntityFields } from '../../server/services/entity/fields.ts';
import { applyFilter, parseQuery } from '../../server/services/entity/query.ts';
import { asRest, createTestApp, type Page, skipReason, type TestApp, untypedService } from './harness.ts';

/**
 * Free-text search as the back office sends it (`$or` of `$regex` over the searchable fields): short
 * text from the start of a value, longer text anywhere, wildcards matched as themselves, and SQL
 * that the trigram indexes of migration 020 serve.
 */

type ContactForm = { _id: string; name: string; email: string; companyName: string };
type Caller = { _id: string; role: string };

const FORMS = [
  { id: 'qs-1', name: 'Abby Chan', email: 'abby@chan-noodles.test', company_name: 'Chan Noodles' },
  { id: 'qs-2', name: 'Ben Lee', email: 'ben@lab.test', company_name: 'Cabbage & Co' },
  { id: 'qs-3', name: 'Carl 50% Off', email: 'carl@deals.test', company_name: 'Fifty_Fifty Ltd' },
  { id: 'qs-4', name: 'Dora Back\\slash', email: 'dora@slash.test', company_name: 'Path 100%' },
  { id: 'qs-5', name: '陳大文', email: 'wen@bakery.test', company_name: '大文餅店' },
];

/** What the search box sends for a text: one case-insensitive `$regex` per searchable field. */
const freeText = (text: string) => ({
  $or: ['name', 'email', 'companyName'].map((field) => ({ [field]: { $regex: text, $options: 'i' } })),
});

describe.skipIf(skipReason)('free-text search', () => {
  let app: TestApp;
  let editor: Caller;

  const search = async (text: string) => {
    const page = (await untypedService(app.api, 'contactForms').find(
      asRest(editor, { ...freeText(text), $limit: 100 }),
    )) as Page<ContactForm>;
    return page.data.map((form) => form._id).sort();
  };

  beforeAll(async () => {
    app = await createTestApp();
    const users = (await app.api
      .service('users')
      .find({ query: { email: 'editor@tillpoint.test' }, paginate: false })) as Caller[];
    editor = users[0] as Caller;
    await app.database.knex('contact_forms').insert(FORMS.map((form) => ({ ...form, phone: '9123 4567' })));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('matches one or two letters at the start of a value only', async () => {
    // `ab` starts Abby and abby@…, and sits inside "Cabbage" and "lab", which a prefix search leaves out.
    expect(await search('ab')).toEqual(['qs-1']);
    expect(await search('AB')).toEqual(['qs-1']);
    expect(await search('c')).toEqual(['qs-1', 'qs-2', 'qs-3']);
    expect(await search('ch')).toEqual(['qs-1']);
  });

  it('matches three characters or more anywhere in a value', async () => {
    expect(await search('abb')).toEqual(['qs-1', 'qs-2']);
    expect(await search('chan')).toEqual(['qs-1']);
    expect(await search('lab.')).toEqual(['qs-2']);
  });

  it('matches two Chinese characters anywhere, as a word inside a name', async () => {
    expect(await search('餅店')).toEqual(['qs-5']);
    expect(await search('大文')).toEqual(['qs-5']);
  });

  it('matches %, _ and \\ as themselves, in short and long text', async () => {
    expect(await search('50%')).toEqual(['qs-3']);
    expect(await search('0%')).toEqual([]);
    expect(await search('%')).toEqual(['qs-3', 'qs-4']);
    expect(await search('y_f')).toEqual(['qs-3']);
    expect(await search('_')).toEqual(['qs-3']);
    expect(await search('k\\\\s')).toEqual(['qs-4']);
    expect(await search('\\\\')).toEqual(['qs-4']);
    // Wildcards as such would match every form.
    expect(await search('%%%')).toEqual([]);
    expect(await search('___')).toEqual([]);
  });

  describe('the SQL the trigram indexes serve', () => {
    /** The plan of a `find` filter's query, with sequential scans ruled out so an index is used if it can be. */
    const planOf = async (knex: Knex, table: string, fields: EntityFields, query: Record<string, unknown>) => {
      const builder = knex(table).select('id');
      applyFilter(knex, fields, builder, parseQuery(fields, query).filter);
      const { sql, bindings } = builder.toSQL();
      // Bound as parameters, as the service sends them; in a transaction so the setting stays in it.
      return knex.transaction(async (trx) => {
        await trx.raw('set local enable_seqscan = off');
        const { rows } = await trx.raw<{ rows: { 'QUERY PLAN': string }[] }>(`explain ${sql}`, bindings);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    };

    it('uses the trigram index of each field, for short and long text', async () => {
      const fields = new EntityFields(contactForms);
      for (const text of ['ab', 'chan', '50%']) {
        const plan = await planOf(app.database.knex, 'contact_forms', fields, freeText(text));
        for (const index of [
          'contact_forms_name_trgm',
          'contact_forms_email_trgm',
          'contact_forms_company_name_trgm',
        ]) {
          expect(plan, text).toContain(`Bitmap Index Scan on ${index}`);
        }
        expect(plan).not.toContain('Seq Scan');
      }
    });

    it('uses the index of each language of a translated field', async () => {
      const plan = await planOf(app.database.knex, 'industries', new EntityFields(industries), {
        name: { $regex: 'noodle', $options: 'i' },
      });
      for (const index of ['industries_name_en_trgm', 'industries_name_zh_hk_trgm', 'industries_name_zh_cn_trgm']) {
        expect(plan).toContain(`Bitmap Index Scan on ${index}`);
      }
    });
  });
});
