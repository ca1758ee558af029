import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRest, createTestApp, type Page, rejectionOf, skipReason, type TestApp, untypedService } from './harness.ts';

/** create, patch (with `$push`, `$pull`, `$set`) and remove: validation, references and refusals. */

type I18n = { en: string; 'zh-hk'?: string; 'zh-cn'?: string };
type TemplateModule = {
  id: string;
  monthPrice: number;
  count: number;
};
type AppTemplate = {
  _id: string;
  key: string | null;
  name: I18n;
  type: string;
  monthPrice: number;
  showOnHome: boolean;
  industry: string;
  modules: TemplateModule[];
  createdAt: Date;
  updatedAt: Date;
};
type IndustryItem = {
  _id: string;
  name: I18n;
  icon?: string;
};
type Industry = {
  _id: string;
  key: string | null;
  name: I18n;
  items: IndustryItem[];
};
type Caller = { _id: string; role: string };

const rest = asRest;

const rejection = rejectionOf;

const OBJECT_ID = /^[0-9a-f]{24}$/;

describe.skipIf(skipReason)('service writes', () => {
  let app: TestApp;
  let editor: Caller;
  let admin: Caller;
  let industry: Industry;
  let moduleIds: [string, string, string];

  const templates = () => untypedService(app.api, 'appTemplates');
  const industries = () => untypedService(app.api, 'industries');
  const count = async (table: string) =>
    Number(((await app.database.knex(table).count({ n: '*' }).first()) as { n: number | string }).n);
  let sequence = 0;
  /** A valid new plan; each has its own key. */
  const newTemplate = async (extra: Record<string, unknown> = {}) =>
    (await templates().create(
      {
        key: `sw-plan-${(sequence += 1)}`,
        name: { en: 'Sw Plan' },
        type: 'lite',
        monthPrice: 688,
        industry: industry._id,
        ...extra,
      },
      rest(editor),
    )) as AppTemplate;

  beforeAll(async () => {
    app = await createTestApp();
    const byEmail = async (email: string) =>
      ((await app.api.service('users').find({ query: { email }, paginate: false })) as Caller[])[0] as Caller;
    editor = await byEmail('editor@tillpoint.test');
    admin = await byEmail('admin@tillpoint.test');
    industry = (await industries().create(
      { key: 'sw-industry', name: { en: 'Sw Industry' } },
      rest(admin),
    )) as Industry;
    const modules = (await app.api
      .service('modules')
      .find(rest(undefined, { $limit: 3, $sort: { order: 1 } }))) as Page<{ _id: string }>;
    moduleIds = modules.data.map((m) => m._id) as [string, string, string];
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers a null that the table refuses as a 400 naming the field, and writes nothing', async () => {
    const plan = await newTemplate();
    const patched = await rejection(
      templates().patch(plan._id, { showOnHome: null, name: { en: 'Not written' } }, rest(editor)),
    );
    expect(patched).toMatchObject({ name: 'BadRequest', code: 400, errors: { showOnHome: 'Required' } });
    expect(((await templates().get(plan._id)) as AppTemplate).name.en).toBe('Sw Plan');
    const before = await count('app_templates');
    const created = await rejection(newTemplate({ prepayMonth: null }));
    expect(created).toMatchObject({ code: 400, errors: { prepayMonth: 'Required' } });
    expect(await count('app_templates')).toBe(before);
  });

  describe('create', () => {
    it('creates a valid record, with server-made _id, createdAt and defaults', async () => {
      const created = await newTemplate({ modules: [{ id: moduleIds[0], monthPrice: 100 }] });
      expect(created._id).toMatch(OBJECT_ID);
      expect(created.createdAt).toBeInstanceOf(Date);
      expect(created).toMatchObject({ type: 'lite', monthPrice: 688, industry: industry._id, showOnHome: false });
      // A list item's default is applied.
      expect(created.modules).toEqual([{ id: moduleIds[0], monthPrice: 100, count: 1 }]);
      expect(await templates().get(created._id)).toMatchObject({ _id: created._id, monthPrice: 688 });
    });

    it('refuses missing required fields with an error for each', async () => {
      const before = await count('app_templates');
      const error = await rejection(templates().create({ key: 'sw-missing' }, rest(editor)));
      expect(error.code).toBe(400);
      expect(error.name).toBe('BadRequest');
      expect(Object.keys(error.errors as object).sort()).toEqual(['industry', 'monthPrice', 'name', 'type']);
      // Messages are in the caller's language.
      expect((error.errors as Record<string, string>).name).toBe('Required');
      expect(await count('app_templates')).toBe(before);

      // In-process callers get the message keys.
      const internal = await rejection(templates().create({ key: 'sw-missing', name: { en: '' } }));
      expect(internal.errors).toMatchObject({ 'name.en': 'validation.required', type: 'validation.required' });
    });

    it('refuses unknown fields', async () => {
      const error = await rejection(
        templates().create(
          {
            key: 'sw-unknown',
            name: { en: 'x', fr: 'y' },
            type: 'lite',
            monthPrice: 1,
            industry: industry._id,
            colour: 'red',
          },
          rest(editor),
        ),
      );
      expect(error.code).toBe(400);
      expect(error.errors).toEqual({ colour: expect.any(String), 'name.fr': expect.any(String) });
    });

    it('refuses wrong types, field by field', async () => {
      const error = await rejection(
        templates().create(
          {
            key: 'Not A Key!',
            name: 'plain text',
            type: 'gold',
            monthPrice: '688',
            showOnHome: 'yes',
            industry: { $ne: null },
            modules: [{ id: moduleIds[0], monthPrice: -5 }],
          },
          rest(editor),
        ),
      );
      expect(error.code).toBe(400);
      expect(Object.keys(error.errors as object).sort()).toEqual([
        'industry',
        'key',
        'modules.0.monthPrice',
        'monthPrice',
        'name',
        'showOnHome',
        'type',
      ]);
      // A value of the wrong kind is invalid, not missing.
      expect((error.errors as Record<string, string>).monthPrice).toBe('This value is not valid.');

      const internal = await rejection(
        templates().create({
          name: { en: 'x' },
          type: 'gold',
          monthPrice: '688',
          showOnHome: 1,
          industry: 5,
          prepayMonth: 500,
        }),
      );
      expect(internal.errors).toEqual({
        type: 'validation.invalid',
        monthPrice: 'validation.invalid',
        showOnHome: 'validation.invalid',
        industry: 'validation.invalid',
        prepayMonth: 'validation.tooBig',
      });
    });

    it('refuses read-only fields', async () => {
      const error = await rejection(
        templates().create(
          {
            _id: 'my-own-id',
            createdAt: new Date(0).toISOString(),
            updatedAt: new Date(0).toISOString(),
            name: { en: 'x' },
            type: 'lite',
            monthPrice: 1,
            industry: industry._id,
          },
          rest(editor),
        ),
      );
      expect(error.code).toBe(400);
      expect(Object.keys(error.errors as object).sort()).toEqual(['_id', 'createdAt', 'updatedAt']);
      expect((await templates().find(rest(undefined, { _id: 'my-own-id' }))) as Page<AppTemplate>).toMatchObject({
        total: 0,
      });
    });

    it('refuses text PostgreSQL cannot store with a 400, not a database error', async () => {
      const before = await count('industries');
      for (const data of [
        { key: 'sw-nul', name: { en: 'a\u0000b' } },
        { key: 'sw-nul\u0000', name: { en: 'ab' } },
        { key: 'sw-surrogate', name: { en: 'broken \ud800 text' } },
        { key: 'sw-item', name: { en: 'ab' }, items: [{ name: { en: 'x\u0000' } }] },
      ]) {
        const error = await rejection(industries().create(data, rest(admin)));
        expect(error.code, JSON.stringify(data)).toBe(400);
        expect(Object.keys(error.errors as object).length).toBeGreaterThan(0);
      }
      expect(await count('industries')).toBe(before);
    });

    it('refuses an array of records with MethodNotAllowed', async () => {
      const before = await count('app_templates');
      const data = [1, 2].map((i) => ({
        key: `sw-many-${i}`,
        name: { en: 'x' },
        type: 'lite',
        monthPrice: 1,
        industry: industry._id,
      }));
      const error = await rejection(templates().create(data, rest(editor)));
      expect(error.code).toBe(405);
      expect(error.name).toBe('MethodNotAllowed');
      expect(await count('app_templates')).toBe(before);
    });

    it('refuses a reference to a missing industry with errors.industry', async () => {
      const before = await count('app_templates');
      const error = await rejection(
        templates().create(
          { name: { en: 'x' }, type: 'lite', monthPrice: 1, industry: '000000000000000000000000' },
          rest(editor),
        ),
      );
      expect(error.code).toBe(400);
      expect(Object.keys(error.errors as object)).toEqual(['industry']);
      expect(await count('app_templates')).toBe(before);
      // Also on patch.
      const plan = await newTemplate();
      const patchError = await rejection(templates().patch(plan._id, { industry: 'missing-industry' }, rest(editor)));
      expect(patchError.code).toBe(400);
      expect(Object.keys(patchError.errors as object)).toEqual(['industry']);
      expect(((await templates().get(plan._id)) as AppTemplate).industry).toBe(industry._id);
    });

    it('refuses a duplicate key with a Conflict naming the field', async () => {
      await newTemplate({ key: 'sw-unique' });
      const error = await rejection(newTemplate({ key: 'sw-unique' }));
      expect(error.code).toBe(409);
      expect(error.name).toBe('Conflict');
      expect(Object.keys(error.errors as object)).toEqual(['key']);
      expect(((await templates().find(rest(undefined, { key: 'sw-unique' }))) as Page<AppTemplate>).total).toBe(1);
    });

    it('gives industry items generated _ids, keeping the ones given', async () => {
      const created = (await industries().create(
        {
          key: 'sw-items',
          name: { en: 'Items' },
          items: [
            { name: { en: 'One' } },
            { name: { en: 'Two' }, icon: 'star' },
            { _id: 'given-id', name: { en: 'Three' } },
          ],
        },
        rest(admin),
      )) as Industry;
      const [one, two, three] = created.items as [IndustryItem, IndustryItem, IndustryItem];
      expect(one._id).toMatch(OBJECT_ID);
      expect(two._id).toMatch(OBJECT_ID);
      expect(one._id).not.toBe(two._id);
      expect(two).toMatchObject({ name: { en: 'Two' }, icon: 'star' });
      expect(three._id).toBe('given-id');
      // Stored, not only answered.
      expect(((await industries().get(created._id)) as Industry).items.map((i) => i._id)).toEqual([
        one._id,
        two._id,
        'given-id',
      ]);

      const pushed = (await industries().patch(
        created._id,
        { $push: { items: { name: { en: 'Four' } } } },
        rest(admin),
      )) as Industry;
      expect(pushed.items).toHaveLength(4);
      expect((pushed.items[3] as IndustryItem)._id).toMatch(OBJECT_ID);

      // `items.$` is matched by _id, which stays.
      const renamed = (await industries().patch(
        created._id,
        { $set: { 'items.$.name': { en: 'Uno' } } },
        rest(admin, { 'items._id': one._id }),
      )) as Industry;
      expect(renamed.items[0]).toEqual({ _id: one._id, name: { en: 'Uno' } });
      expect(renamed.items.map((i) => i._id)).toEqual(pushed.items.map((i) => i._id));
    });
  });

  describe('users', () => {
    it('writes a hidden password field, stored hashed and never answered', async () => {
      const created = (await app.api
        .service('users')
        .create({ email: 'SW-Writer@Example.com', password: 'Valid1234', name: 'Sw Writer' }, rest(admin))) as Record<
        string,
        unknown
      >;
      expect(created).toMatchObject({ email: 'sw-writer@example.com', name: 'Sw Writer', role: 'member' });
      expect(created).not.toHaveProperty('password');
      const stored = async () =>
        ((await app.database.knex('users').where({ id: created._id }).first('password')) as { password: string })
          .password;
      const hash = await stored();
      expect(hash).toMatch(/^\$argon2/);

      const patched = (await app.api
        .service('users')
        .patch(created._id as string, { password: 'Other5678' }, rest(admin))) as Record<string, unknown>;
      expect(patched).not.toHaveProperty('password');
      const newHash = await stored();
      expect(newHash).toMatch(/^\$argon2/);
      expect(newHash).not.toBe(hash);

      const weak = await rejection(
        app.api.service('users').patch(created._id as string, { password: 'short' }, rest(admin)),
      );
      expect(weak.code).toBe(400);
      expect(Object.keys(weak.errors as object)).toEqual(['password']);
      expect(await stored()).toBe(newHash);
    });
  });

  describe('patch', () => {
    it('$push appends a validated item to appTemplates.modules', async () => {
      const plan = await newTemplate({ modules: [{ id: moduleIds[0], monthPrice: 100, count: 1 }] });
      const patched = (await templates().patch(
        plan._id,
        { $push: { modules: { id: moduleIds[1], monthPrice: 200 } } },
        rest(editor),
      )) as AppTemplate;
      expect(patched.modules).toEqual([
        { id: moduleIds[0], monthPrice: 100, count: 1 },
        { id: moduleIds[1], monthPrice: 200, count: 1 },
      ]);
      expect(patched.updatedAt.getTime()).toBeGreaterThanOrEqual(plan.updatedAt.getTime());
      expect(((await templates().get(plan._id)) as AppTemplate).modules).toEqual(patched.modules);

      const each = (await templates().patch(
        plan._id,
        { $push: { modules: { $each: [{ id: moduleIds[2], monthPrice: 300, count: 2 }] } } },
        rest(editor),
      )) as AppTemplate;
      expect(each.modules.map((m) => m.id)).toEqual(moduleIds);
    });

    it('concurrent $push patches on one record lose no item', async () => {
      const plan = await newTemplate();
      const prices = Array.from({ length: 8 }, (_, i) => i + 1);
      await Promise.all(
        prices.map((monthPrice) =>
          templates().patch(
            plan._id,
            { $push: { modules: { id: moduleIds[monthPrice % 3] as string, monthPrice } } },
            rest(editor),
          ),
        ),
      );
      const after = (await templates().get(plan._id)) as AppTemplate;
      expect(after.modules.map((m) => m.monthPrice).sort((a, b) => a - b)).toEqual(prices);
    });

    it('$push of an invalid item is a 400 and writes nothing', async () => {
      const plan = await newTemplate({ modules: [{ id: moduleIds[0], monthPrice: 100 }] });
      for (const item of [
        { id: moduleIds[1], monthPrice: 'free' },
        { id: moduleIds[1] },
        { id: moduleIds[1], monthPrice: 1, extra: true },
        'just-an-id',
      ]) {
        const error = await rejection(templates().patch(plan._id, { $push: { modules: item } }, rest(editor)));
        expect(error.code, JSON.stringify(item)).toBe(400);
        expect(Object.keys(error.errors as object).length).toBeGreaterThan(0);
      }
      const error = await rejection(
        templates().patch(plan._id, { $push: { modules: { id: moduleIds[1], monthPrice: -1 } } }, rest(editor)),
      );
      expect(error.errors).toEqual({ 'modules.monthPrice': expect.any(String) });
      // Valid and invalid together: all or nothing.
      const mixed = await rejection(
        templates().patch(
          plan._id,
          { monthPrice: 5, $push: { modules: { $each: [{ id: moduleIds[1], monthPrice: 1 }, { id: moduleIds[2] }] } } },
          rest(editor),
        ),
      );
      expect(mixed.code).toBe(400);
      const after = (await templates().get(plan._id)) as AppTemplate;
      expect(after.modules).toEqual([{ id: moduleIds[0], monthPrice: 100, count: 1 }]);
      expect(after.monthPrice).toBe(688);
      expect(after.updatedAt).toEqual(plan.updatedAt);
    });

    it('$pull removes items by their id', async () => {
      const plan = await newTemplate({ modules: moduleIds.map((id, i) => ({ id, monthPrice: i })) });
      const pulled = (await templates().patch(
        plan._id,
        { $pull: { modules: moduleIds[1] } },
        rest(editor),
      )) as AppTemplate;
      expect(pulled.modules.map((m) => m.id)).toEqual([moduleIds[0], moduleIds[2]]);
      const byObject = (await templates().patch(
        plan._id,
        { $pull: { modules: { id: moduleIds[0] } } },
        rest(editor),
      )) as AppTemplate;
      expect(byObject.modules.map((m) => m.id)).toEqual([moduleIds[2]]);
      expect(((await templates().get(plan._id)) as AppTemplate).modules.map((m) => m.id)).toEqual([moduleIds[2]]);
      // Pulling what is not there changes nothing.
      const none = (await templates().patch(
        plan._id,
        { $pull: { modules: 'not-there' } },
        rest(editor),
      )) as AppTemplate;
      expect(none.modules.map((m) => m.id)).toEqual([moduleIds[2]]);
    });

    it("$set 'modules.$' replaces the item matched by the id in the value", async () => {
      const plan = await newTemplate({
        modules: [
          { id: moduleIds[0], monthPrice: 100, count: 1 },
          { id: moduleIds[1], monthPrice: 200, count: 4 },
        ],
      });
      const patched = (await templates().patch(
        plan._id,
        { $set: { 'modules.$': { id: moduleIds[1], monthPrice: 250 } } },
        rest(editor),
      )) as AppTemplate;
      expect(patched.modules).toEqual([
        { id: moduleIds[0], monthPrice: 100, count: 1 },
        { id: moduleIds[1], monthPrice: 250, count: 4 },
      ]);
      const missing = await rejection(
        templates().patch(plan._id, { $set: { 'modules.$': { id: moduleIds[2], monthPrice: 1 } } }, rest(editor)),
      );
      expect(missing.code).toBe(400);
      const invalid = await rejection(
        templates().patch(plan._id, { $set: { 'modules.$': { id: moduleIds[1], monthPrice: -3 } } }, rest(editor)),
      );
      expect(invalid.code).toBe(400);
      expect(((await templates().get(plan._id)) as AppTemplate).modules).toEqual(patched.modules);
    });

    it("$set 'modules.$.count' changes one property of the item the query names", async () => {
      const plan = await newTemplate({
        modules: [
          { id: moduleIds[0], monthPrice: 100, count: 1 },
          { id: moduleIds[1], monthPrice: 200, count: 1 },
        ],
      });
      const patched = (await templates().patch(
        plan._id,
        { $set: { 'modules.$.count': 7 } },
        rest(editor, { 'modules.id': moduleIds[1] }),
      )) as AppTemplate;
      expect(patched.modules).toEqual([
        { id: moduleIds[0], monthPrice: 100, count: 1 },
        { id: moduleIds[1], monthPrice: 200, count: 7 },
      ]);
      expect(((await templates().get(plan._id)) as AppTemplate).modules).toEqual(patched.modules);
      // A query naming an item the record does not hold finds no record.
      const notFound = await rejection(
        templates().patch(plan._id, { $set: { 'modules.$.count': 2 } }, rest(editor, { 'modules.id': moduleIds[2] })),
      );
      expect(notFound.code).toBe(404);
      // The value is validated as part of the item.
      const invalid = await rejection(
        templates().patch(plan._id, { $set: { 'modules.$.count': -1 } }, rest(editor, { 'modules.id': moduleIds[1] })),
      );
      expect(invalid.code).toBe(400);
      const unknown = await rejection(
        templates().patch(
          plan._id,
          { $set: { 'modules.$.colour': 'red' } },
          rest(editor, { 'modules.id': moduleIds[1] }),
        ),
      );
      expect(unknown.code).toBe(400);
      const noKey = await rejection(templates().patch(plan._id, { $set: { 'modules.$.count': 3 } }, rest(editor)));
      expect(noKey.code).toBe(400);
      expect(((await templates().get(plan._id)) as AppTemplate).modules).toEqual(patched.modules);
    });

    it('$set on a plain field works like plain patch data, validated', async () => {
      const plan = await newTemplate();
      const patched = (await templates().patch(
        plan._id,
        { $set: { monthPrice: 777, showOnHome: true } },
        rest(editor),
      )) as AppTemplate;
      expect(patched).toMatchObject({ monthPrice: 777, showOnHome: true });
      const plain = (await templates().patch(plan._id, { monthPrice: 778 }, rest(editor))) as AppTemplate;
      expect(plain.monthPrice).toBe(778);
      expect(plain.updatedAt.getTime()).toBeGreaterThanOrEqual(plan.updatedAt.getTime());
      for (const data of [
        { $set: { monthPrice: 'lots' } },
        { $set: { colour: 'red' } },
        { $set: { createdAt: new Date().toISOString() } },
        { name: null },
        { type: 'gold' },
      ]) {
        const error = await rejection(templates().patch(plan._id, data, rest(editor)));
        expect(error.code, JSON.stringify(data)).toBe(400);
      }
      expect(((await templates().get(plan._id)) as AppTemplate).monthPrice).toBe(778);
    });

    it('refuses unknown patch operators and list operators on other fields', async () => {
      const plan = await newTemplate();
      for (const data of [
        { $inc: { monthPrice: 1 } },
        { $unset: { key: 1 } },
        { $push: { name: { en: 'x' } } },
        { $pull: { monthPrice: 1 } },
        { $push: 'x' },
        [],
      ]) {
        const error = await rejection(templates().patch(plan._id, data, rest(editor)));
        expect(error.code, JSON.stringify(data)).toBe(400);
      }
      expect(((await templates().get(plan._id)) as AppTemplate).monthPrice).toBe(688);
    });

    it('patch and remove with a null id are MethodNotAllowed and touch no row', async () => {
      await newTemplate();
      const snapshot = async () => ({
        templates: await count('app_templates'),
        onHome: ((await templates().find(rest(undefined, { showOnHome: true, $limit: 0 }))) as Page<AppTemplate>).total,
        priced: ((await templates().find(rest(undefined, { monthPrice: 1, $limit: 0 }))) as Page<AppTemplate>).total,
      });
      const before = await snapshot();
      expect(before.onHome).toBeGreaterThan(0);
      for (const caller of [admin, editor]) {
        const patch = await rejection(templates().patch(null, { monthPrice: 1, showOnHome: false }, rest(caller)));
        expect(patch.code).toBe(405);
        expect(patch.name).toBe('MethodNotAllowed');
        const withQuery = await rejection(
          templates().patch(null, { monthPrice: 1 }, rest(caller, { showOnHome: true })),
        );
        expect(withQuery.code).toBe(405);
      }
      const remove = await rejection(templates().remove(null, rest(admin)));
      expect(remove.code).toBe(405);
      const removeQuery = await rejection(templates().remove(null, rest(admin, { showOnHome: true })));
      expect(removeQuery.code).toBe(405);
      // Not even in-process.
      expect((await rejection(templates().remove(null))).code).toBe(405);
      expect(await snapshot()).toEqual(before);
    });

    it('patch and remove of a missing id are NotFound', async () => {
      expect(
        (await rejection(templates().patch('000000000000000000000000', { monthPrice: 1 }, rest(editor)))).code,
      ).toBe(404);
      expect((await rejection(templates().remove('000000000000000000000000', rest(admin)))).code).toBe(404);
    });
  });

  describe('remove', () => {
    it('refuses to remove an industry a plan still references, with a Conflict, keeping both', async () => {
      const used = (await industries().create({ key: 'sw-used', name: { en: 'Used' } }, rest(admin))) as Industry;
      const plan = await newTemplate({ industry: used._id });
      const error = await rejection(industries().remove(used._id, rest(admin)));
      expect(error.code).toBe(409);
      expect(error.name).toBe('Conflict');
      expect(((await industries().get(used._id)) as Industry).key).toBe('sw-used');
      expect(((await templates().get(plan._id)) as AppTemplate).industry).toBe(used._id);

      // Once the plan is gone, the industry can go.
      await templates().remove(plan._id, rest(admin));
      const removed = (await industries().remove(used._id, rest(admin))) as Industry;
      expect(removed._id).toBe(used._id);
      expect((await rejection(industries().get(used._id))).code).toBe(404);
    });

    it('removes one record and answers it', async () => {
      const plan = await newTemplate();
      const before = await count('app_templates');
      const removed = (await templates().remove(plan._id, rest(admin))) as AppTemplate;
      expect(removed).toMatchObject({ _id: plan._id, key: plan.key });
      expect(await count('app_templates')).toBe(before - 1);
      expect((await rejection(templates().get(plan._id, rest()))).code).toBe(404);
    });
  });
});
