import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRest, createTestApp, type Page, rejectionOf, skipReason, type TestApp, untypedService } from './harness.ts';

/** Who may read and write the catalogue: anonymous visitors, members, editors and admins. */

type Caller = { _id: string; role: string; email: string };
type Row = { _id: string } & Record<string, unknown>;

const rest = asRest;

const rejection = rejectionOf;

const CATALOGUE = ['industries', 'modules', 'appTemplates'] as const;
type CatalogueService = (typeof CATALOGUE)[number];

describe.skipIf(skipReason)('service access', () => {
  let app: TestApp;
  let admin: Caller;
  let editor: Caller;
  let member: Caller;
  let industryId: string;
  /** One record of each catalogue service, made for these tests. */
  const records = {} as Record<CatalogueService, Row>;

  const service = (name: CatalogueService | 'users' | 'blogs') => untypedService(app.api, name);
  /** Valid create data for each catalogue service; keys differ per call. */
  let sequence = 0;
  const newData = (name: CatalogueService): Record<string, unknown> => {
    sequence += 1;
    if (name === 'industries') return { key: `sa-industry-${sequence}`, name: { en: `Sa industry ${sequence}` } };
    if (name === 'modules')
      return { key: `sa-module-${sequence}`, name: { en: `Sa module ${sequence}` }, monthPrice: 10 };
    return {
      key: `sa-plan-${sequence}`,
      name: { en: `Sa plan ${sequence}` },
      type: 'lite',
      monthPrice: 1,
      industry: industryId,
    };
  };
  const count = async (table: string) =>
    Number(((await app.database.knex(table).count({ n: '*' }).first()) as { n: number | string }).n);
  const tableOf: Record<CatalogueService, string> = {
    industries: 'industries',
    modules: 'modules',
    appTemplates: 'app_templates',
  };

  beforeAll(async () => {
    app = await createTestApp();
    const byEmail = async (email: string) =>
      ((await service('users').find({ query: { email }, paginate: false })) as Caller[])[0] as Caller;
    [admin, editor, member] = (await Promise.all(
      ['admin@tillpoint.test', 'editor@tillpoint.test', 'owner@tillpoint.test'].map(byEmail),
    )) as [Caller, Caller, Caller];
    expect([admin.role, editor.role, member.role]).toEqual(['admin', 'editor', 'member']);
    records.industries = (await service('industries').create(newData('industries'))) as Row;
    industryId = records.industries._id;
    records.modules = (await service('modules').create(newData('modules'))) as Row;
    records.appTemplates = (await service('appTemplates').create(newData('appTemplates'))) as Row;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('anyone may find and get industries, modules and appTemplates', async () => {
    const seeded: Record<CatalogueService, number> = { industries: 7, modules: 9, appTemplates: 21 };
    for (const name of CATALOGUE) {
      const page = (await service(name).find(rest(undefined, { $limit: 100 }))) as Page<Row>;
      expect(page.total, name).toBe(seeded[name] + 1);
      expect(page.data.map((r) => r._id)).toContain(records[name]._id);
      const one = (await service(name).get(records[name]._id, rest())) as Row;
      expect(one._id).toBe(records[name]._id);
      expect(one.key).toBe(records[name].key);
    }
    // Populating a public reference is public too.
    const plan = (await service('appTemplates').get(
      records.appTemplates._id,
      rest(undefined, { $populate: 'industry' }),
    )) as Row;
    expect(plan.industry).toMatchObject({ _id: industryId });
  });

  it('an anonymous caller gets NotAuthenticated on create, patch and remove, and nothing changes', async () => {
    for (const name of CATALOGUE) {
      const before = await count(tableOf[name]);
      const calls: [string, () => Promise<unknown>][] = [
        ['create', () => service(name).create(newData(name), rest())],
        ['patch', () => service(name).patch(records[name]._id, { name: { en: 'Hacked' } }, rest())],
        ['remove', () => service(name).remove(records[name]._id, rest())],
      ];
      for (const [method, call] of calls) {
        const error = await rejection(call());
        expect(error.code, `${name}.${method}`).toBe(401);
        expect(error.name).toBe('NotAuthenticated');
        expect(error.message).toBe('Please sign in to continue.');
      }
      expect(await count(tableOf[name])).toBe(before);
      expect(((await service(name).get(records[name]._id)) as Row).name).toEqual(records[name].name);
    }
  });

  it('a member gets Forbidden on catalogue writes, and nothing changes', async () => {
    for (const name of CATALOGUE) {
      const before = await count(tableOf[name]);
      const calls: [string, () => Promise<unknown>][] = [
        ['create', () => service(name).create(newData(name), rest(member))],
        ['patch', () => service(name).patch(records[name]._id, { name: { en: 'Hacked' } }, rest(member))],
        ['remove', () => service(name).remove(records[name]._id, rest(member))],
      ];
      for (const [method, call] of calls) {
        const error = await rejection(call());
        expect(error.code, `${name}.${method}`).toBe(403);
        expect(error.name).toBe('Forbidden');
      }
      expect(await count(tableOf[name])).toBe(before);
      expect(((await service(name).get(records[name]._id)) as Row).name).toEqual(records[name].name);
    }
    // Reading stays open to members.
    expect(((await service('modules').find(rest(member, { $limit: 0 }))) as Page<Row>).total).toBe(10);
  });

  it('an editor may create and patch the catalogue but not remove it', async () => {
    for (const name of CATALOGUE) {
      const created = (await service(name).create(newData(name), rest(editor))) as Row;
      expect(((await service(name).get(created._id)) as Row).key).toBe(created.key);
      const patched = (await service(name).patch(
        created._id,
        { name: { en: 'Edited by editor' } },
        rest(editor),
      )) as Row;
      expect(patched.name).toEqual({ en: 'Edited by editor' });
      expect(((await service(name).get(created._id)) as Row).name).toEqual({ en: 'Edited by editor' });

      const error = await rejection(service(name).remove(created._id, rest(editor)));
      expect(error.code, name).toBe(403);
      expect(error.name).toBe('Forbidden');
      expect(((await service(name).get(created._id)) as Row)._id).toBe(created._id);
    }
  });

  it('an admin may remove', async () => {
    // Plans first: an industry still referenced cannot go.
    for (const name of ['appTemplates', 'modules', 'industries'] as const) {
      const created = (await service(name).create(newData(name), rest(admin))) as Row;
      const before = await count(tableOf[name]);
      const removed = (await service(name).remove(created._id, rest(admin))) as Row;
      expect(removed._id).toBe(created._id);
      expect(await count(tableOf[name])).toBe(before - 1);
      expect((await rejection(service(name).get(created._id))).code).toBe(404);
    }
  });

  it('user records never carry the password hash, whoever asks', async () => {
    const page = (await service('users').find(rest(admin, { $limit: 100 }))) as Page<Row>;
    expect(page.total).toBeGreaterThanOrEqual(3);
    for (const user of page.data) expect(user).not.toHaveProperty('password');
    const one = (await service('users').get(member._id, rest(admin))) as Row;
    expect(one.email).toBe('owner@tillpoint.test');
    expect(one).not.toHaveProperty('password');
    // Anonymous callers cannot list users.
    expect((await rejection(service('users').find(rest()))).code).toBe(401);
  });
});
