import { NavLink } from 'react-router';
import { ADMIN_GROUPS, ADMIN_SCREENS, type AdminSource } from '../../../domain/admin/screens';
import { useLocale } from '../../i18n/messages';

const item = ({ isActive }: { isActive: boolean }) =>
  `block rounded-lg px-3 py-2 text-sm whitespace-nowrap ${
    isActive
      ? 'bg-brand-50 font-semibold text-brand-800 dark:bg-brand-950 dark:text-brand-200'
      : 'text-muted hover:bg-sunken hover:text-ink'
  }`;

/**
 * The back office's side menu: the entities the staff member may list, by group. On a phone it is
 * a row that scrolls sideways above the page; from `lg` a column beside it.
 */
export function AdminMenu({ screens }: { screens: readonly AdminSource[] }) {
  const { t, locale } = useLocale();
  const base = `/${locale}/admin`;
  return (
    <nav
      aria-label={t('admin.menu')}
      className="border-b border-line bg-raised lg:w-60 lg:shrink-0 lg:border-r lg:border-b-0"
      data-testid="admin-menu"
    >
      <div className="flex gap-1 overflow-x-auto px-2 py-2 lg:sticky lg:top-0 lg:flex-col lg:gap-4 lg:overflow-visible lg:px-3 lg:py-5">
        <NavLink to={base} end className={item} data-testid="admin-menu-home">
          {t('admin.home')}
        </NavLink>
        {ADMIN_GROUPS.map((group) => {
          const inGroup = screens.filter((source) => ADMIN_SCREENS[source].group === group);
          if (inGroup.length === 0) return null;
          return (
            <section key={group} aria-labelledby={`admin-group-${group}`} className="contents lg:block">
              <h2
                id={`admin-group-${group}`}
                className="sr-only px-3 pb-1 text-xs font-semibold tracking-wide text-muted uppercase lg:not-sr-only lg:block"
              >
                {t(`admin.groups.${group}`)}
              </h2>
              <ul className="contents lg:block lg:space-y-0.5">
                {inGroup.map((source) => (
                  <li key={source} className="shrink-0">
                    <NavLink to={`${base}/${source}`} className={item} data-testid={`admin-menu-${source}`}>
                      {t(`resources.${source}.name`)}
                    </NavLink>
                  </li>
                ))}
                {group === 'system' ? (
                  <>
                    <li className="shrink-0">
                      <NavLink to={`${base}/translations`} className={item} data-testid="admin-menu-translations">
                        {t('admin.translations.title')}
                      </NavLink>
                    </li>
                    <li className="shrink-0">
                      <NavLink to={`${base}/settings`} className={item} data-testid="admin-menu-settings">
                        {t('admin.settings.title')}
                      </NavLink>
                    </li>
                  </>
                ) : null}
              </ul>
            </section>
          );
        })}
      </div>
    </nav>
  );
}
