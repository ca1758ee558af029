import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemCountName, itemInputName } from '../../domain/admin/form.ts';
import type { ServerContext, SessionUser } from '../../app/context.ts';
import { editorOptions, REFERENCE_CHOICES } from '../../app/routes/admin/editor.server.ts';
import { loadHistory, loadTable, removeRecords, saveRecord } from '../../app/routes/admin/records.server.ts';
import { createAccount, createTestApp, skipReason, type TestApp } from './harness.ts';

/*
 * The back office's saves (app/routes/admin/records.server.ts, decision 034) on a real database:
 * a plan's list of modules written row by row goes as the one list operator its change needs, a
 * save over someone else's change is a conflict and writes nothing, and what a role may not do is
 * refused by the service whatever the page sent.
 */

type Plan = { _id: string; updatedAt: Date; modules: { id: string; monthPrice: number; count?: number }[] };

describe.skipIf(skipReason)('the back office’s saves', () => {
  let app: TestApp;
  let admin: SessionUser;
  let editor: SessionUser;

  const context = (user: SessionUser) =>
    ({ api: app.api, user, ip: '127.0.0.1', headers: {} }) as unknown as ServerContext;
  const plans = () => app.api.service('appTemplates');

  function planForm(
    plan: Plan,
    modules: { id: string; monthPrice: string; count: string }[],
    version = new Date(plan.updatedAt).toISOString(),
  ) {
    const form = new FormData();
    form.set('id', plan._id);
    form.set('version', version);
    form.set(itemCountName('modules'), String(modules.length));
    modules.forEach((module, index) => {
      form.set(itemInputName('modules', index, 'id'), module.id);
      form.set(itemInputName('modules', index, 'monthPrice'), module.monthPrice);
      form.set(itemInputName('modules', index, 'count'), module.count);
    });
    return form;
  }
  const rows = (plan: Plan) =>
    plan.modules.map((module) => ({
      id: module.id,
      monthPrice: (module.monthPrice / 100).toFixed(2),
      count: String(module.count ?? 1),
    }));

  /** The data of each patch the saves send the plans' service, as its hooks receive it. */
  const patches: Record<string, unknown>[] = [];
  const lastPatch = () => patches[patches.length - 1];

  beforeAll(async () => {
    app = await createTestApp();
    app.api.service('appTemplates').hooks({
      before: {
        patch: [
          async (context: { data?: unknown }) => {
            patches.push(structuredClone(context.data) as Record<string, unknown>);
          },
        ],
      },
    });
    const account = (role: 'admin' | 'editor') =>
      createAccount(app.database.knex, { role }).then(
        (created) => ({ _id: created._id, email: created.email, role }) as SessionUser,
      );
    admin = await account('admin');
    editor = await account('editor');
  });
  afterAll(async () => {
    await app?.close();
  });

  async function planWithModules(): Promise<Plan> {
    const found = (await plans().find({ query: { $limit: 50 } })).data as unknown as Plan[];
    const plan = found.find((candidate) => candidate.modules.length >= 2);
    if (!plan) throw new Error('the seed has no plan with two modules');
    return plan;
  }

  it('changes one module’s count with a positional $set, and keeps the rest of the list as it was', async () => {
    const plan = await planWithModules();
    const edited = rows(plan);
    edited[1] = { ...edited[1]!, count: '4' };
    const result = await saveRecord(context(editor), editor, 'appTemplates', planForm(plan, edited), 'en');
    expect(result).toMatchObject({ ok: true, changed: true });
    expect(lastPatch()).toEqual({
      $set: { 'modules.$': { id: plan.modules[1]?.id, monthPrice: plan.modules[1]?.monthPrice, count: 4 } },
    });
    const stored = (await plans().get(plan._id)) as unknown as Plan;
    expect(stored.modules.map((module) => module.count ?? 1)).toEqual(
      plan.modules.map((module, index) => (index === 1 ? 4 : (module.count ?? 1))),
    );
    // The audit log holds the change, before and after: the editor's history shows it to admins.
    const history = await loadHistory(context(admin), admin, 'appTemplates', plan._id, 'en');
    expect(history?.[0]).toMatchObject({ method: 'patch', userEmail: editor.email });
    expect(Object.keys(history?.[0]?.changes ?? {})).toContain('modules');
    expect(await loadHistory(context(editor), editor, 'appTemplates', plan._id, 'en')).toBeNull();
  });

  it('removes a row, and a row moved makes the new order the list', async () => {
    const plan = await planWithModules();
    const [, ...others] = rows(plan);
    expect(await saveRecord(context(admin), admin, 'appTemplates', planForm(plan, others), 'en')).toMatchObject({
      ok: true,
    });
    expect(lastPatch()).toEqual({ $pull: { modules: { id: plan.modules[0]?.id } } });
    const without = (await plans().get(plan._id)) as unknown as Plan;
    expect(without.modules.map((module) => module.id)).toEqual(plan.modules.slice(1).map((module) => module.id));

    const reordered = [...rows(without)].reverse();
    expect(await saveRecord(context(admin), admin, 'appTemplates', planForm(without, reordered), 'en')).toMatchObject({
      ok: true,
    });
    // A new order cannot be said with an operator: the whole list.
    expect(Object.keys(lastPatch() ?? {})).toEqual(['modules']);
    const moved = (await plans().get(plan._id)) as unknown as Plan;
    expect(moved.modules.map((module) => module.id)).toEqual([...without.modules].reverse().map((module) => module.id));
    // Put back as the seed had it.
    await plans().patch(plan._id, { modules: plan.modules } as never);
  });

  it('adds a row at the end with $push, and sends several changes at once as the whole list', async () => {
    const plan = await planWithModules();
    const modules = (await app.api.service('modules').find({ query: { $limit: 50 } })).data as unknown as {
      _id: string;
    }[];
    const unused = modules.filter((module) => !plan.modules.some((item) => item.id === module._id));
    const [added, another] = unused;
    if (!added || !another) throw new Error('the seed has too few modules for this plan');
    const withRow = [...rows(plan), { id: added._id, monthPrice: '12.34', count: '2' }];
    expect(await saveRecord(context(admin), admin, 'appTemplates', planForm(plan, withRow), 'en')).toMatchObject({
      ok: true,
      changed: true,
    });
    expect(lastPatch()).toEqual({ $push: { modules: { id: added._id, monthPrice: 1234, count: 2 } } });
    const pushed = (await plans().get(plan._id)) as unknown as Plan;
    expect(pushed.modules.map((module) => module.id)).toEqual([...plan.modules.map((module) => module.id), added._id]);

    // A row removed and another added in one save: the list as the form has it.
    const [, ...rest] = rows(pushed);
    const both = [...rest, { id: another._id, monthPrice: '1.00', count: '1' }];
    expect(await saveRecord(context(admin), admin, 'appTemplates', planForm(pushed, both), 'en')).toMatchObject({
      ok: true,
    });
    expect(Object.keys(lastPatch() ?? {})).toEqual(['modules']);
    const stored = (await plans().get(plan._id)) as unknown as Plan;
    expect(stored.modules.map((module) => module.id)).toEqual([
      ...pushed.modules.slice(1).map((module) => module.id),
      another._id,
    ]);
    await plans().patch(plan._id, { modules: plan.modules } as never);
  });

  it('refuses a save over someone else’s change as a conflict, and writes nothing', async () => {
    const plan = await planWithModules();
    const loadedVersion = new Date(plan.updatedAt).toISOString();
    await plans().patch(plan._id, { monthPrice: 12_300 } as never);
    const edited = rows(plan);
    edited[0] = { ...edited[0]!, count: '9' };
    const result = await saveRecord(context(admin), admin, 'appTemplates', planForm(plan, edited, loadedVersion), 'en');
    expect(result).toEqual({ ok: false, conflict: true, message: '', errors: {} });
    const stored = (await plans().get(plan._id)) as unknown as Plan;
    expect(stored.modules[0]?.count ?? 1).toBe(plan.modules[0]?.count ?? 1);
  });

  it('answers a bad value with the service’s error by field in the page’s language', async () => {
    const plan = await planWithModules();
    const edited = rows(plan);
    edited[0] = { ...edited[0]!, monthPrice: 'lots' };
    const result = await saveRecord(context(admin), admin, 'appTemplates', planForm(plan, edited), 'zh-hk');
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ conflict: false });
    if (!result.ok) expect(Object.keys(result.errors).some((key) => key.startsWith('modules'))).toBe(true);
  });

  it('lets the service refuse what a role may not remove, going on past it', async () => {
    const plan = await planWithModules();
    // Editors remove no plans: the action is refused before any record is touched.
    await expect(removeRecords(context(editor), editor, 'appTemplates', [plan._id], 'en')).rejects.toMatchObject({
      init: { status: 403 },
    });
    expect(await plans().get(plan._id)).toMatchObject({ _id: plan._id });
  });

  it('names the related record a table is filtered by, and the editor always offers a record’s own reference', async () => {
    const buyer = await createAccount(app.database.knex, { role: 'member' });
    const url = new URL(`http://localhost/en/admin/orders?f.user=${buyer._id}`);
    const table = await loadTable(context(admin), admin, 'orders', url, 'en');
    expect(table.view.choices).toEqual({ user: [buyer._id] });
    expect(table.references.user?.[buyer._id]).toBe(buyer.email);

    // A plan whose industry is not among the first the editor lists is still named by it.
    const industries = app.api.service('industries');
    const made = [];
    const stamp = Date.now();
    for (let index = 0; index <= REFERENCE_CHOICES; index += 1)
      made.push(
        await industries.create({ key: `extra-${stamp}-${index}`, name: { en: `Extra industry ${index}` } } as never),
      );
    const plan = (await plans().find({ query: { $limit: 1 } })).data[0] as unknown as Record<string, unknown>;
    const without = await editorOptions(context(admin), 'appTemplates', 'admin', 'patch', 'en', null);
    expect(without.industry).toHaveLength(REFERENCE_CHOICES);
    // More industries than the editor lists: one of them is not among its choices.
    const listed = new Set(without.industry?.map((option) => option.value));
    const last = made
      .map((industry) => industry as unknown as { _id: string; name: { en: string } })
      .find((industry) => !listed.has(industry._id))!;
    expect(last).toBeDefined();
    const options = await editorOptions(context(admin), 'appTemplates', 'admin', 'patch', 'en', {
      ...plan,
      industry: last._id,
    });
    expect(options.industry).toHaveLength(REFERENCE_CHOICES + 1);
    expect(options.industry?.[0]).toEqual({ value: last._id, label: last.name.en });
    await Promise.all(made.map((industry) => industries.remove((industry as unknown as { _id: string })._id)));
  });
});
