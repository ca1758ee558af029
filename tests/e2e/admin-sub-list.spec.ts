import type { APIRequestContext, Page } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { users } from './users.ts';

/*
 * Saving a sub-list in the back office's editor (issue 21, decision 034): the modules of a plan
 * template of this test's own (the seeded plans are priced by other specs), a row added, one
 * removed, a count changed, rows moved, each saved and read back through the API. What the
 * browser sends is the rows in their order; the page's action turns one change into the list
 * operator it needs (`$push`, `$pull`, `$set` on `modules.$`) and a new order into the whole list,
 * which tests/integration/admin-records.test.ts checks on the service's own calls.
 */

test.use({ colorScheme: 'light' });

type PlanModule = { id: string; monthPrice: number; count: number };
type Plan = { _id: string; updatedAt: string; modules: PlanModule[] };
type Named = { _id: string; name: { en: string } };

async function readPlan(request: APIRequestContext, headers: Record<string, string>, id: string): Promise<Plan> {
  const response = await request.get(`/api/appTemplates/${id}`, { headers });
  expect(response.status()).toBe(200);
  return (await response.json()) as Plan;
}

/** The rows a save sent, as the form posts them: `id×count@price` in their order. */
function sentRows(body: string): string[] {
  const form = new URLSearchParams(body);
  const rows = Number(form.get('v.modules.rows'));
  return Array.from(
    { length: rows },
    (_, index) =>
      `${form.get(`v.modules.${index}.id`)}×${form.get(`v.modules.${index}.count`)}@${form.get(`v.modules.${index}.monthPrice`)}`,
  );
}

/** Saves the editor and waits for the table it goes back to; answers what the save posted. */
async function save(page: Page, posts: string[]): Promise<string> {
  const before = posts.length;
  await page.getByTestId('editor-save').click();
  await expect(page).toHaveURL(/\/en\/admin\/appTemplates$/);
  await expect(page.getByTestId('snackbar-success')).toContainText('Saved.');
  expect(posts).toHaveLength(before + 1);
  return posts[before] as string;
}

test('a plan’s modules are added, removed, changed and moved in the editor, each save stored as sent', async ({
  page,
  login,
  request,
}) => {
  const headers = await staffHeaders(request);
  const modules = (
    (await (await request.get('/api/modules?$limit=50&$sort[order]=1', { headers })).json()) as { data: Named[] }
  ).data;
  // An industry no other spec looks at, and a plan kept off the home page: the public pages that
  // other specs read (the POS pages, home) never list this test's plan.
  const industry = (
    (await (await request.get('/api/industries?key=beauty-wellness&$limit=1', { headers })).json()) as { data: Named[] }
  ).data[0];
  expect(industry).toBeDefined();
  expect(modules.length).toBeGreaterThanOrEqual(4);
  const [a, b, c, d] = modules as [Named, Named, Named, Named];
  const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const created = await request.post('/api/appTemplates', {
    headers,
    data: {
      key: `sub-list-${unique}`,
      name: { en: `Sub-list plan ${unique}` },
      type: 'lite',
      monthPrice: 19_900,
      showOnHome: false,
      industry: industry?._id,
      modules: [
        { id: a._id, monthPrice: 1000, count: 1 },
        { id: b._id, monthPrice: 2000, count: 2 },
        { id: c._id, monthPrice: 3000, count: 1 },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const plan = (await created.json()) as Plan;

  await login(users.admin);
  const posts: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().includes(`/admin/appTemplates/edit/${plan._id}`))
      posts.push(sent.postData() ?? '');
  });
  const openEditor = async () => {
    await page.goto(`/en/admin/appTemplates/edit/${plan._id}`);
    await hydrated(page);
    const list = page.getByTestId('sub-list-modules');
    await expect(list.getByTestId('sub-list-row')).not.toHaveCount(0);
    return list;
  };
  const stored = async () =>
    (await readPlan(request, headers, plan._id)).modules.map(
      (module) => `${module.id}×${module.count}@${module.monthPrice}`,
    );

  // A row added at the end: a module chosen by name, its price in dollars, its count.
  let list = await openEditor();
  await expect(list.getByTestId('sub-list-row')).toHaveCount(3);
  await list.getByTestId('sub-list-add').click();
  await expect(list.getByTestId('sub-list-row')).toHaveCount(4);
  await list.getByRole('combobox', { name: 'Module 4' }).selectOption({ label: d.name.en });
  await list.getByRole('textbox', { name: 'Monthly price 4' }).fill('40.50');
  await list.getByRole('textbox', { name: 'Included 4' }).fill('3');
  expect(sentRows(await save(page, posts))).toEqual([
    `${a._id}×1@10.00`,
    `${b._id}×2@20.00`,
    `${c._id}×1@30.00`,
    `${d._id}×3@40.50`,
  ]);
  expect(await stored()).toEqual([`${a._id}×1@1000`, `${b._id}×2@2000`, `${c._id}×1@3000`, `${d._id}×3@4050`]);

  // A row removed: the second.
  list = await openEditor();
  await expect(list.getByRole('combobox', { name: 'Module 4' })).toHaveValue(d._id);
  await list.getByRole('button', { name: 'Remove row 2' }).click();
  await expect(list.getByTestId('sub-list-row')).toHaveCount(3);
  expect(sentRows(await save(page, posts))).toEqual([`${a._id}×1@10.00`, `${c._id}×1@30.00`, `${d._id}×3@40.50`]);
  expect(await stored()).toEqual([`${a._id}×1@1000`, `${c._id}×1@3000`, `${d._id}×3@4050`]);

  // A count changed, the rest as they were.
  list = await openEditor();
  await list.getByRole('textbox', { name: 'Included 2' }).fill('5');
  expect(sentRows(await save(page, posts))).toEqual([`${a._id}×1@10.00`, `${c._id}×5@30.00`, `${d._id}×3@40.50`]);
  expect(await stored()).toEqual([`${a._id}×1@1000`, `${c._id}×5@3000`, `${d._id}×3@4050`]);

  // A row moved up, and another down: the new order is the list, each row with its own values.
  list = await openEditor();
  await list.getByRole('button', { name: 'Move row 3 up' }).click();
  await expect(list.getByRole('combobox', { name: 'Module 2' })).toHaveValue(d._id);
  await list.getByRole('button', { name: 'Move row 1 down' }).click();
  await expect(list.getByRole('combobox', { name: 'Module 1' })).toHaveValue(d._id);
  await expect(list.getByRole('textbox', { name: 'Included 1' })).toHaveValue('3');
  expect(sentRows(await save(page, posts))).toEqual([`${d._id}×3@40.50`, `${a._id}×1@10.00`, `${c._id}×5@30.00`]);
  expect(await stored()).toEqual([`${d._id}×3@4050`, `${a._id}×1@1000`, `${c._id}×5@3000`]);

  // Several changes in one save: a row added, one removed, a count changed and a row moved.
  list = await openEditor();
  await list.getByRole('button', { name: 'Remove row 2' }).click();
  await list.getByRole('textbox', { name: 'Included 2' }).fill('7');
  await list.getByTestId('sub-list-add').click();
  await list.getByRole('combobox', { name: 'Module 3' }).selectOption({ label: b.name.en });
  await list.getByRole('textbox', { name: 'Monthly price 3' }).fill('25');
  await list.getByRole('button', { name: 'Move row 3 up' }).click();
  expect(sentRows(await save(page, posts))).toEqual([`${d._id}×3@40.50`, `${b._id}×@25`, `${c._id}×7@30.00`]);
  // A count left empty takes the item's default, one.
  expect(await stored()).toEqual([`${d._id}×3@4050`, `${b._id}×1@2500`, `${c._id}×7@3000`]);

  // The editor shows the list as stored.
  list = await openEditor();
  await expect(list.getByRole('combobox', { name: 'Module 2' })).toHaveValue(b._id);
  await expect(list.getByRole('textbox', { name: 'Monthly price 2' })).toHaveValue('25.00');
  await expect(list.getByRole('textbox', { name: 'Included 3' })).toHaveValue('7');
});
