import { describe, expect, it } from 'vitest';
import { contactForms } from '../entities/contact-forms.ts';
import { modules } from '../entities/modules.ts';
import { orders } from '../entities/orders.ts';
import {
  COUNT_UP_TO,
  isNarrowed,
  pageButtons,
  pagerState,
  parseView,
  textPattern,
  viewParams,
  viewQuery,
} from './view.ts';

const params = (text: string) => new URLSearchParams(text);

describe('a table view in the URL', () => {
  it('reads what the entity allows and drops the rest', () => {
    const view = parseView(
      orders,
      params(
        'q=+HK-0001+&sort=-createdAt&page=3&size=20&f.status=paid&f.status=bogus&f.nope=1&f.createdAt.min=2026-01-01&f.createdAt.max=2026-13-01',
      ),
    );
    expect(view).toEqual({
      mode: 'page',
      defaultMode: 'page',
      cursor: '',
      q: 'HK-0001',
      sort: { field: 'createdAt', direction: -1 },
      page: 3,
      size: 20,
      choices: { status: ['paid'] },
      ranges: { createdAt: { min: '2026-01-01' } },
    });
  });

  it('filters by a related record, one id written as ids are', () => {
    const view = parseView(orders, params('f.user=u_1-A&f.user=u2&f.plan=bad%20id&f.industry='));
    expect(view.choices).toEqual({ user: ['u_1-A'] });
    expect(viewQuery(orders, view).user).toBe('u_1-A');
    expect(parseView(orders, params(`f.user=${'a'.repeat(65)}`)).choices).toEqual({});
  });

  it('falls back to the defaults for what cannot be read', () => {
    // A field that is not sortable, a size not offered, a page that is not one.
    expect(parseView(orders, params('sort=items&size=7&page=-2'))).toMatchObject({ sort: null, size: 10, page: 1 });
    expect(parseView(orders, params('page=1.5&size=abc'))).toMatchObject({ page: 1, size: 10 });
  });

  it('writes the same view back, leaving defaults out and other parameters alone', () => {
    const text =
      'q=kds&sort=-monthPrice&page=2&size=5&f.billing=monthly&f.billing=yearly&f.released=true&f.monthPrice.min=10.5';
    const view = parseView(modules, params(text));
    const written = viewParams(view, params('editor=abc&page=9&f.old=1'));
    expect(written.get('editor')).toBe('abc');
    expect(written.get('f.old')).toBeNull();
    expect(parseView(modules, written)).toEqual(view);
    expect(viewParams(parseView(modules, params(''))).toString()).toBe('');
  });

  it('asks the service for the page, the sort with a unique last key, the text and the filters', () => {
    const view = parseView(
      modules,
      params(
        'q=QR&sort=-monthPrice&page=3&size=20&f.billing=monthly&f.released=false&f.monthPrice.min=10.5&f.monthPrice.max=99',
      ),
    );
    expect(viewQuery(modules, view)).toEqual({
      $limit: 20,
      $skip: 40,
      // The total counted to the cap and no further (decision 045).
      $countUpTo: 1000,
      $sort: { monthPrice: -1, _id: 1 },
      $or: [{ name: { $regex: 'QR', $options: 'i' } }, { shortDesc: { $regex: 'QR', $options: 'i' } }],
      billing: 'monthly',
      released: false,
      // Money is typed in dollars and asked for in cents.
      monthPrice: { $gte: 1050, $lte: 9900 },
    });
  });

  it('keeps the entity’s own order when none is asked for, and reads days as Hong Kong days', () => {
    const query = viewQuery(
      contactForms,
      parseView(
        contactForms,
        params('f.createdAt.min=2026-03-01&f.createdAt.max=2026-03-31&f.testing=true&f.testing=false'),
      ),
    );
    expect(query.$sort).toEqual({ createdAt: -1, _id: 1 });
    expect(query.createdAt).toEqual({ $gte: '2026-02-28T16:00:00.000Z', $lt: '2026-03-31T16:00:00.000Z' });
    expect(query.testing).toEqual({ $in: [true, false] });
  });

  it('pages by cursor when asked, or by the entity’s own choice, starting again when the view changes', () => {
    const view = parseView(contactForms, params('mode=cursor&cursor=eyJzIjoi&page=4&size=20'));
    expect(view).toMatchObject({ mode: 'cursor', cursor: 'eyJzIjoi', page: 1 });
    expect(viewQuery(contactForms, view)).toEqual({
      $limit: 20,
      $cursor: 'eyJzIjoi',
      $sort: { createdAt: -1, _id: 1 },
    });
    expect(viewParams(view).toString()).toBe('mode=cursor&cursor=eyJzIjoi&size=20');
    // A cursor that is not one is dropped: the first page.
    expect(parseView(contactForms, params('mode=cursor&cursor=not%20a%20cursor')).cursor).toBe('');
    // An entity listed by cursor first: page mode is the one written down.
    const paged = parseView(contactForms, params('mode=page&page=2'), 'cursor');
    expect(paged).toMatchObject({ mode: 'page', page: 2 });
    expect(viewParams(paged).toString()).toBe('mode=page&page=2');
    expect(viewParams(parseView(contactForms, params('cursor=abc'), 'cursor')).toString()).toBe('cursor=abc');
  });

  it('matches text literally', () => {
    expect(textPattern('ab')).toBe('ab');
    expect(textPattern('a.b*c')).toBe('a\\.b\\*c');
    expect(textPattern('^(x$')).toBe('\\^\\(x\\$');
  });

  it('shows at most ten page buttons around the current page', () => {
    expect(pageButtons(1, 3)).toEqual([1, 2, 3]);
    expect(pageButtons(1, 50)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pageButtons(20, 50)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    expect(pageButtons(50, 50)).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
  });

  it('counts up to what ten buttons of the largest page size show', () => {
    expect(COUNT_UP_TO).toBe(1000);
    expect(viewQuery(contactForms, parseView(contactForms, params('mode=page&size=100'), 'cursor'))).toMatchObject({
      $limit: 100,
      $skip: 0,
      $countUpTo: 1000,
    });
    // Cursor mode counts nothing, so it asks for no cap.
    expect(viewQuery(contactForms, parseView(contactForms, params(''), 'cursor'))).not.toHaveProperty('$countUpTo');
  });

  it('pages an exact total to its end, and a capped one as far as counted with Next going on', () => {
    expect(pagerState({ page: 1, size: 10 }, 0)).toEqual({ from: 0, to: 0, pages: 1, more: false, hasNext: false });
    expect(pagerState({ page: 3, size: 10 }, 25)).toEqual({ from: 21, to: 25, pages: 3, more: false, hasNext: false });
    expect(pagerState({ page: 2, size: 10 }, 25, false)).toMatchObject({ from: 11, to: 20, hasNext: true });
    // More than 1 000 match: 100 pages of ten are known, and the 100th still has a Next.
    expect(pagerState({ page: 1, size: 10 }, 1000, true)).toEqual({
      from: 1,
      to: 10,
      pages: 100,
      more: true,
      hasNext: true,
    });
    expect(pagerState({ page: 100, size: 10 }, 1000, true)).toEqual({
      from: 991,
      to: 1000,
      pages: 100,
      more: true,
      hasNext: true,
    });
    // Past the cap the service answers the rows up to the page's end as the floor.
    expect(pagerState({ page: 130, size: 10 }, 1300, true)).toMatchObject({
      from: 1291,
      to: 1300,
      pages: 130,
      hasNext: true,
    });
    expect(pageButtons(130, pagerState({ page: 130, size: 10 }, 1300, true).pages)).toEqual([
      121, 122, 123, 124, 125, 126, 127, 128, 129, 130,
    ]);
  });
});

describe('whether a view narrows the records', () => {
  it('is narrowed by a search, a choice or either end of a range, and not by its sort, page or size', () => {
    expect(isNarrowed(parseView(orders, params('sort=-createdAt&page=2&size=20')))).toBe(false);
    expect(isNarrowed(parseView(orders, params('q=HK')))).toBe(true);
    expect(isNarrowed(parseView(orders, params('f.status=paid')))).toBe(true);
    expect(isNarrowed(parseView(orders, params('f.createdAt.max=2026-01-31')))).toBe(true);
    // What the entity does not allow is dropped, so it narrows nothing.
    expect(isNarrowed(parseView(orders, params('f.nope=1&f.status=bogus')))).toBe(false);
  });
});
