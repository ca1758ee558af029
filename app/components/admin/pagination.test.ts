import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { parseView, viewParams, type TableView } from '../../../domain/admin/view';
import { contactForms } from '../../../domain/entities/contact-forms';
import { Pagination } from './pagination';

/*
 * The pager as staff see it (decision 045): an exact total as "1–10 of 25"; a total whose count
 * stopped at its cap as "1,000+" in each language, with the page buttons as far as was counted, a
 * mark that more follow, and Next still a link.
 */

type Locale = 'en' | 'zh-hk' | 'zh-cn';
const messagesOf = (locale: Locale) =>
  JSON.parse(readFileSync(new URL(`../../../locales/${locale}.json`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;

function render(
  locale: Locale,
  props: { view: TableView; total: number; totalCapped: boolean; shown: number },
): string {
  const messages = messagesOf(locale);
  const element = createElement(Pagination, {
    ...props,
    cursors: { previous: null, next: null },
    href: (change: Partial<TableView>) => `/?${viewParams({ ...props.view, ...change }).toString()}`,
  });
  const router = createMemoryRouter(
    [{ id: 'routes/locale-layout', path: '/', loader: () => ({ locale, messages }), Component: () => element }],
    { initialEntries: ['/'], hydrationData: { loaderData: { 'routes/locale-layout': { locale, messages } } } },
  );
  return renderToString(createElement(RouterProvider, { router }));
}

/** The text of the element with a test id, tags and React's comment markers removed. */
function textOf(html: string, testId: string): string {
  const match = new RegExp(`<[a-z]+ [^>]*data-testid="${testId}"[^>]*>(.*?)</`).exec(html);
  return (match?.[1] ?? '').replace(/<!-- -->/g, '');
}

/** Where the link with a test id leads, or null when it is not a link (greyed out). */
function hrefOf(html: string, testId: string): string | null {
  const tag = new RegExp(`<a [^>]*data-testid="${testId}"[^>]*>`).exec(html)?.[0];
  return tag ? (/href="([^"]*)"/.exec(tag)?.[1] ?? null) : null;
}

const pageView = (search: string) => parseView(contactForms, new URLSearchParams(search), 'page');

describe('the table’s pager', () => {
  it('shows an exact total with its pages and no Next on the last one', () => {
    const html = render('en', { view: pageView('page=3'), total: 25, totalCapped: false, shown: 5 });
    expect(textOf(html, 'admin-total')).toBe('21–25 of 25');
    expect(html).not.toContain('data-total-capped');
    expect(html).toContain('data-testid="page-3"');
    expect(html).not.toContain('data-testid="page-4"');
    expect(html).not.toContain('data-testid="page-more"');
    // Next is greyed out text, not a link.
    expect(hrefOf(html, 'page-next')).toBeNull();
    expect(html).toContain('>Next</span>');
  });

  it('shows a capped total as “1,000+” in each language, the buttons counted, and Next going on', () => {
    const capped = { view: pageView(''), total: 1000, totalCapped: true, shown: 10 };
    const english = render('en', capped);
    expect(textOf(english, 'admin-total')).toBe('1–10 of 1,000+');
    expect(english).toContain('data-total="1000"');
    expect(english).toContain('data-total-capped=""');
    expect(hrefOf(english, 'page-next')).toBe('/?page=2');
    expect(english).toContain('data-testid="page-10"');
    expect(english).not.toContain('data-testid="page-11"');
    expect(textOf(render('zh-hk', capped), 'admin-total')).toBe('第 1–10 項，共超過 1,000 項');
    expect(textOf(render('zh-cn', capped), 'admin-total')).toBe('第 1–10 条，共超过 1,000 条');

    // At the last page counted, a mark says more follow, and Next leads past the cap.
    const last = render('en', { ...capped, view: pageView('page=100') });
    expect(textOf(last, 'admin-total')).toBe('991–1,000 of 1,000+');
    expect(last).toContain('data-testid="page-100"');
    expect(last).toContain('data-testid="page-more"');
    expect(hrefOf(last, 'page-next')).toBe('/?page=101');
  });

  it('shows the exact total once the last page is reached past the cap', () => {
    const html = render('en', { view: pageView('page=101'), total: 1003, totalCapped: false, shown: 3 });
    expect(textOf(html, 'admin-total')).toBe('1,001–1,003 of 1,003');
    expect(html).toContain('data-testid="page-101"');
    expect(html).not.toContain('data-testid="page-more"');
    expect(hrefOf(html, 'page-next')).toBeNull();
    expect(hrefOf(html, 'page-previous')).toBe('/?page=100');
  });
});
