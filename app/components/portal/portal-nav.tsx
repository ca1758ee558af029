import { NavLink } from 'react-router';
import { useLocale } from '../../i18n/messages';
import { useSsoLink } from './sso';

/**
 * The portal's sections, one tab each under the dashboard header (and inside `?sso`, where the
 * header is hidden, the only way between them). `end`: the tab is current only on its own path.
 */
export const PORTAL_SECTIONS = [
  { key: 'overview', path: '', end: true },
  { key: 'plan', path: '/plan', end: false },
  { key: 'invoices', path: '/invoices', end: false },
  { key: 'apps', path: '/apps', end: false },
  { key: 'profile', path: '/profile', end: false },
] as const;

export function PortalNav() {
  const { t, locale } = useLocale();
  const link = useSsoLink();
  return (
    <nav aria-label={t('portal.sections')} className="border-b border-line bg-raised" data-testid="portal-nav">
      <ul className="mx-auto flex max-w-7xl gap-1 overflow-x-auto px-2 sm:px-4 wide:max-w-[1800px]">
        {PORTAL_SECTIONS.map((section) => (
          <li key={section.key} className="shrink-0">
            <NavLink
              to={link(`/${locale}/portal${section.path}`)}
              end={section.end}
              className={({ isActive }) =>
                `block border-b-2 px-3 py-3 text-sm font-semibold whitespace-nowrap ${
                  isActive
                    ? 'border-brand-600 text-brand-700 dark:border-brand-300 dark:text-brand-300'
                    : 'border-transparent text-muted hover:text-ink'
                }`
              }
              data-testid={`portal-nav-${section.key}`}
            >
              {t(`portal.nav.${section.key}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
