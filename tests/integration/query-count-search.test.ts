import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactForms } from '../../domain/entities/contact-forms.ts';
import { EntityService, type Page } from '../../server/services/entity/entity-service.ts';
import { createTestApp, skipReason, type TestApp } from './harness.ts';

/*
 * A search's total counted up to a cap (decisions 045 and 066): exact at or below the cap, the cap
 * and `totalCapped` above it, whether the count stopped among the table's first records (where the
 * planner expects the matches to be common) or went on to count them by their plan. The table's
 * first records are made few here (`countProbeRows`), so that a search's matches sit inside them,
 * past them, or both.
 */

const FIRST = 100;
/** In the order they are written: 60 forms of one company, 180 others, then 60 of another. */
const FORMS = [
  ...Array.from({ length: 60 }, (_, i) => ({ name: 'Quillharbour Chan', email: `qh${i}@one.test`, n: i })),
  ...Array.from({ length: 180 }, (_, i) => ({ name: `Other Person ${i}`, email: `other${i}@two.test`, n: 60 + i })),
  ...Array.from({ length: 60 }, (_, i) => ({ name: 'Quillend Wong', email: `qe${i}@three.test`, n: 240 + i })),
];

/** What the search box sends for a text: one case-insensitive `$regex` per searchable field. */
const freeText = (text: string) => ({
  $or: ['name', 'phone', 'email', 'companyName'].map((field) => ({ [field]: { $regex: text, $options: 'i' } })),
});

describe.skipIf(skipReason)('a search’s total counted up to a cap', () => {
  let app: TestApp;
  let service: EntityService;
  let statements: string[] = [];
  const listen = (query: { sql: string }) => statements.push(query.sql);

  const count = async (text: string, cap?: number) => {
    statements = [];
    const page = (await service.find({
      query: { ...freeText(text), $limit: 0, ...(cap === undefined ? {} : { $countUpTo: cap }) },
    })) as Page;
    return {
      total: page.total,
      totalCapped: page.totalCapped,
      counted: statements.some((sql) => /declare/i.test(sql)),
    };
  };

  beforeAll(async () => {
    app = await createTestApp();
    const knex = app.database.knex;
    await knex('contact_forms').insert(
      FORMS.map((form) => ({
        id: `qcs-${String(form.n).padStart(3, '0')}`,
        name: form.name,
        email: form.email,
        phone: `9${String(form.n).padStart(7, '0')}`,
        company_name: `Company ${form.n}`,
      })),
    );
    // The planner's statistics, as autovacuum would gather them.
    await knex.raw('analyze contact_forms');
    service = new EntityService(knex, contactForms);
    service.countProbeRows = FIRST;
    knex.on('query', listen);
  });
  afterAll(async () => {
    app?.database.knex.off('query', listen);
    await app?.close();
  });

  it('answers exact totals without a cap', async () => {
    expect(await count('quillharbour')).toMatchObject({ total: 60 });
    expect(await count('quillend')).toMatchObject({ total: 60 });
    expect(await count('quill')).toMatchObject({ total: 120 });
  });

  it('proves more than the cap among the first records when they hold that many', async () => {
    expect(await count('quillharbour', 10)).toEqual({ total: 10, totalCapped: true, counted: false });
    expect(await count('quill', 30)).toEqual({ total: 30, totalCapped: true, counted: false });
  });

  it('counts by the plan when the first records hold too few, capped above the cap and exact below', async () => {
    // Common enough for the planner to look among the first records, but all of them after those.
    expect(await count('quillend', 10)).toEqual({ total: 10, totalCapped: true, counted: true });
    expect(await count('quillend', 59)).toEqual({ total: 59, totalCapped: true, counted: true });
    expect(await count('quillend', 60)).toEqual({ total: 60, totalCapped: false, counted: true });
    // More than the first records hold at all, on both sides of them.
    expect(await count('quillharbour', 59)).toMatchObject({ total: 59, totalCapped: true });
    expect(await count('quillharbour', 60)).toMatchObject({ total: 60, totalCapped: false });
    expect(await count('quill', 119)).toMatchObject({ total: 119, totalCapped: true });
    expect(await count('quill', 120)).toMatchObject({ total: 120, totalCapped: false });
    expect(await count('quill', 1000)).toMatchObject({ total: 120, totalCapped: false });
    expect(await count('zzqx', 10)).toEqual({ total: 0, totalCapped: false, counted: true });
  });

  it('counts the same in a caller’s transaction', async () => {
    const inTransaction = (text: string, cap: number) =>
      app.database.knex.transaction(async (transaction) => {
        const page = (await service.find({
          query: { ...freeText(text), $limit: 0, $countUpTo: cap },
          transaction,
        })) as Page;
        return { total: page.total, totalCapped: page.totalCapped };
      });
    expect(await inTransaction('quillharbour', 10)).toEqual({ total: 10, totalCapped: true });
    expect(await inTransaction('quillend', 10)).toEqual({ total: 10, totalCapped: true });
    expect(await inTransaction('quillend', 60)).toEqual({ total: 60, totalCapped: false });
  });
});
