import { describe, expect, it } from 'vitest';
import { orders } from '../entities/orders.ts';
import { subscribers } from '../entities/subscribers.ts';
import { readTable, viewSearch, type FindPage, type FoundPage } from './table.ts';
import { parseView, viewQuery } from './view.ts';

/** A `find` that answers from a table of pages by path, and keeps every call. */
function fakeFind(answer: (path: string, query: Record<string, unknown>) => FoundPage | Error) {
  const calls: { path: string; query: Record<string, unknown> }[] = [];
  const find: FindPage = async (path, query) => {
    calls.push({ path, query });
    const found = answer(path, query);
    if (found instanceof Error) throw found;
    return found;
  };
  return { find, calls };
}

const row = (id: string, fields: Record<string, unknown> = {}) => ({ _id: id, ...fields });
const params = (text: string) => new URLSearchParams(text);

describe('a back-office table read through any `find`', () => {
  it('asks the service for the view’s query and gives back the page, its count and the role’s actions', async () => {
    const view = parseView(subscribers, params('q=mei&sort=email&size=5'));
    const { find, calls } = fakeFind(() => ({ total: 7, data: [row('s1', { email: 'mei@tillpoint.test' })] }));
    const table = await readTable(find, 'subscribers', view, 'en', 'admin');
    expect(calls).toEqual([{ path: 'subscribers', query: viewQuery(subscribers, view) }]);
    expect(table).toMatchObject({
      source: 'subscribers',
      view,
      total: 7,
      totalCapped: false,
      cursors: { previous: null, next: null },
    });
    expect(table.rows.map((record) => record._id)).toEqual(['s1']);
    expect(table.actions).toContain('remove');
    // An editor's table offers no removal: the same read, the role's own actions.
    expect((await readTable(find, 'subscribers', view, 'en', 'editor')).actions).not.toContain('remove');
  });

  it('shows the last page for a page past the end, and leaves the view it was given alone', async () => {
    const view = parseView(subscribers, params('page=9&size=5'));
    const { find, calls } = fakeFind((_path, query) =>
      query.$skip === 10 ? { total: 12, data: [row('s11'), row('s12')] } : { total: 12, data: [] },
    );
    const table = await readTable(find, 'subscribers', view, 'en', 'admin');
    expect(calls.map((call) => call.query.$skip)).toEqual([40, 10]);
    expect(table.view.page).toBe(3);
    expect(table.rows.map((record) => record._id)).toEqual(['s11', 's12']);
    expect(view.page).toBe(9);
    // The first page empty is simply empty: nothing is read again.
    const empty = fakeFind(() => ({ total: 0, data: [] }));
    expect(
      (await readTable(empty.find, 'subscribers', parseView(subscribers, params('page=3')), 'en', 'admin')).rows,
    ).toEqual([]);
    expect(empty.calls).toHaveLength(1);
  });

  it('passes a capped count and cursors on as the service gave them', async () => {
    const capped = fakeFind(() => ({ total: 1000, totalCapped: true, data: [row('s1')] }));
    expect(
      await readTable(capped.find, 'subscribers', parseView(subscribers, params('')), 'en', 'admin'),
    ).toMatchObject({ total: 1000, totalCapped: true });
    const cursors = { previous: 'abc', next: 'def' };
    const byCursor = fakeFind(() => ({ total: -1, data: [row('s1')], cursors }));
    const table = await readTable(
      byCursor.find,
      'subscribers',
      parseView(subscribers, params('mode=cursor&cursor=abc')),
      'en',
      'admin',
    );
    expect(table).toMatchObject({ total: -1, cursors });
    expect(byCursor.calls[0]?.query).toMatchObject({ $cursor: 'abc' });
  });

  it('names the related records listed and filtered by, in one lookup each, and keeps the ids it may not read', async () => {
    const view = parseView(orders, params('f.user=u9'));
    const { find, calls } = fakeFind((path, query) => {
      if (path === 'orders')
        return { total: 2, data: [row('o1', { user: 'u1', plan: 'p1' }), row('o2', { user: 'u2', plan: 'p1' })] };
      if (path === 'users')
        return {
          total: 2,
          data: (query._id as { $in: string[] }).$in
            .filter((id) => id !== 'u2')
            .map((id) => row(id, { email: `${id}@tillpoint.test` })),
        };
      return new Error('Forbidden');
    });
    const table = await readTable(find, 'orders', view, 'zh-hk', 'admin');
    expect(table.references.user).toEqual({ u1: 'u1@tillpoint.test', u9: 'u9@tillpoint.test' });
    // The plans could not be read: none named (their ids show as they are, never as gone), the table still shows.
    expect(table.references.plan).toBeUndefined();
    const users = calls.find((call) => call.path === 'users');
    expect(users?.query).toMatchObject({ _id: { $in: ['u1', 'u2', 'u9'] } });
    expect(calls.filter((call) => call.path === 'users')).toHaveLength(1);
  });

  it('fails when the page itself cannot be read, with the service’s error', async () => {
    const refused = Object.assign(new Error('Forbidden'), { code: 403 });
    const { find } = fakeFind(() => refused);
    await expect(readTable(find, 'subscribers', parseView(subscribers, params('')), 'en', 'admin')).rejects.toBe(
      refused,
    );
  });
});

describe('what a table’s data is kept under', () => {
  it('is the view alone, written one way', () => {
    expect(viewSearch('subscribers', params('size=5&editor=s1&q=mei&open=s2,s3&sort=email'))).toBe(
      'q=mei&sort=email&size=5',
    );
    expect(viewSearch('subscribers', params('sort=email&q=mei&size=5'))).toBe('q=mei&sort=email&size=5');
    // Defaults are left out: the same table whether asked for or not.
    expect(viewSearch('subscribers', params('page=1&size=10&mode=page&f.nope=1'))).toBe('');
    // An entity listed by cursor first keeps its mode out, and page mode in.
    expect(viewSearch('contactForms', params('mode=cursor'))).toBe('');
    expect(viewSearch('contactForms', params('mode=page&page=2'))).toBe('mode=page&page=2');
  });

  it('reads back as the view it was written from', () => {
    const search = viewSearch(
      'orders',
      params('q=HK&sort=-total&page=2&size=20&f.status=paid&f.status=failed&f.total.min=10.5&f.user=u1'),
    );
    expect(parseView(orders, params(search))).toEqual(
      parseView(
        orders,
        params('f.user=u1&q=HK&sort=-total&page=2&size=20&f.status=paid&f.status=failed&f.total.min=10.5'),
      ),
    );
  });
});
