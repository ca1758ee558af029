import { Link, useNavigate } from 'react-router';
import { CURSOR_TOTAL, PAGE_SIZES, pageButtons, pagerState, type TableView } from '../../../domain/admin/view';
import { formatNumber } from '../../../domain/format';
import { useLocale } from '../../i18n/messages';

/** Previous or Next: a link, or the same words greyed out where there is no such page. */
function StepLink({
  to,
  testId,
  label,
  className,
}: {
  to: string | null;
  testId: string;
  label: string;
  className: string;
}) {
  return to ? (
    <Link to={to} className={className} data-testid={testId} preventScrollReset>
      {label}
    </Link>
  ) : (
    <span className={`${className} text-muted opacity-50`} aria-disabled="true">
      {label}
    </span>
  );
}

/**
 * The table's pager (issue 21): in page mode the rows shown of the total, the page size, Previous,
 * up to ten page buttons and Next; in cursor mode Previous and Next by the service's cursors. A
 * capped total (decision 045) shows as "1,000+", its buttons reach as far as was counted, and Next
 * goes on past it.
 */
export function Pagination({
  view,
  total,
  totalCapped,
  shown,
  cursors,
  href,
}: {
  view: TableView;
  total: number;
  /** Page mode: more match than `total` (the count stopped at its cap). */
  totalCapped: boolean;
  shown: number;
  cursors: { previous: string | null; next: string | null };
  href: (change: Partial<TableView>) => string;
}) {
  const { t, locale } = useLocale();
  const navigate = useNavigate();
  const cursorMode = view.mode === 'cursor';
  const { from, to, pages, more, hasNext } = pagerState(view, total, totalCapped);
  const pageLink =
    'inline-flex min-h-9 min-w-9 items-center justify-center rounded-lg px-2 text-sm font-semibold hover:bg-sunken';
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        {cursorMode ? (
          <p className="text-muted" data-testid="admin-total" data-total={CURSOR_TOTAL}>
            {t('admin.cursorTotal', { count: formatNumber(shown, locale), total: formatNumber(CURSOR_TOTAL, locale) })}
          </p>
        ) : (
          <p
            className="text-muted"
            data-testid="admin-total"
            data-total={total}
            data-total-capped={more ? '' : undefined}
          >
            {t(more ? 'admin.totalCapped' : 'admin.total', {
              from: formatNumber(from, locale),
              to: formatNumber(to, locale),
              total: formatNumber(total, locale),
            })}
          </p>
        )}
        <Link
          to={href({ mode: cursorMode ? 'page' : 'cursor', cursor: '', page: 1 })}
          className="font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
          data-testid="page-mode"
          preventScrollReset
        >
          {t(cursorMode ? 'admin.mode.toPages' : 'admin.mode.toCursor')}
        </Link>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-2 text-muted">
          {t('admin.pageSize')}
          <select
            value={view.size}
            onChange={(event) =>
              navigate(href({ size: Number(event.target.value), page: 1, cursor: '' }), {
                replace: true,
                preventScrollReset: true,
              })
            }
            className="rounded-lg border border-line bg-raised px-2 py-1.5 text-ink"
            data-testid="page-size"
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <nav aria-label={t('admin.pagination')}>
          {cursorMode ? (
            <ul className="flex items-center gap-0.5">
              <li>
                <StepLink
                  to={cursors.previous ? href({ cursor: cursors.previous }) : null}
                  testId="page-previous"
                  label={t('admin.previous')}
                  className={pageLink}
                />
              </li>
              <li>
                <StepLink
                  to={cursors.next ? href({ cursor: cursors.next }) : null}
                  testId="page-next"
                  label={t('admin.next')}
                  className={pageLink}
                />
              </li>
            </ul>
          ) : (
            <ul className="flex items-center gap-0.5">
              <li>
                <StepLink
                  to={view.page > 1 ? href({ page: view.page - 1 }) : null}
                  testId="page-previous"
                  label={t('admin.previous')}
                  className={pageLink}
                />
              </li>
              {pageButtons(view.page, pages).map((page) => (
                <li key={page}>
                  <Link
                    to={href({ page })}
                    aria-current={page === view.page ? 'page' : undefined}
                    aria-label={t('admin.page', { page })}
                    className={`${pageLink} ${page === view.page ? 'bg-brand-700 text-white hover:bg-brand-700 dark:bg-brand-400 dark:text-brand-950' : ''}`}
                    data-testid={`page-${page}`}
                    preventScrollReset
                  >
                    {page}
                  </Link>
                </li>
              ))}
              {more && pageButtons(view.page, pages).at(-1) === pages ? (
                // Pages past what was counted: Next reaches them.
                <li aria-hidden="true" className="px-1 text-muted" data-testid="page-more">
                  …
                </li>
              ) : null}
              <li>
                <StepLink
                  to={hasNext ? href({ page: view.page + 1 }) : null}
                  testId="page-next"
                  label={t('admin.next')}
                  className={pageLink}
                />
              </li>
            </ul>
          )}
        </nav>
      </div>
    </div>
  );
}
