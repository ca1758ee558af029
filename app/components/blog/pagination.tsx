import { Link } from 'react-router';
import { useLocale } from '../../i18n/messages';

/** Page links that work without JavaScript; `href(page)` keeps the list's filters. */
export function Pagination({
  page,
  pageCount,
  href,
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
}) {
  const { t } = useLocale();
  if (pageCount <= 1) return null;
  const pages = Array.from({ length: pageCount }, (_, i) => i + 1);
  const item =
    'inline-flex min-w-10 items-center justify-center rounded-full border border-line px-3 py-2 font-medium hover:bg-sunken';
  return (
    <nav aria-label={t('blogs.pagination')} className="mt-12 flex justify-center" data-testid="pagination">
      <ul className="flex flex-wrap items-center gap-2">
        {page > 1 ? (
          <li>
            <Link to={href(page - 1)} rel="prev" className={item}>
              {t('blogs.previous')}
            </Link>
          </li>
        ) : null}
        {pages.map((number) => (
          <li key={number}>
            <Link
              to={href(number)}
              aria-current={number === page ? 'page' : undefined}
              aria-label={t('blogs.pageNumber', { page: number })}
              className={`${item} aria-[current=page]:border-brand-700 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white`}
            >
              {number}
            </Link>
          </li>
        ))}
        {page < pageCount ? (
          <li>
            <Link to={href(page + 1)} rel="next" className={item}>
              {t('blogs.next')}
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
