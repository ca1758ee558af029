import { Form, Link } from 'react-router';
import { useLocale } from '../../i18n/messages';
import { useSsoLink } from '../portal/sso';
import { siteLinks, useShell, useSite } from '../../shell';
import { ChevronDownIcon } from '../ui/icons';
import { Logo } from './logo';
import { Menu } from './menu';
import { ThemeToggle } from './theme';
import { UserBadge } from './user-badge';

/**
 * The dashboard's header: its title, and the user's menu with logout. The portal's live connection
 * takes the logout form's submission (`onLogout`) to sign out through it when it can.
 */
export function DashboardHeader({
  onLogout,
  title = 'portal.heading',
}: {
  onLogout?: (event: React.FormEvent<HTMLFormElement>) => void;
  title?: string;
}) {
  const { t, locale } = useLocale();
  const link = useSsoLink();
  const { user } = useShell();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  return (
    <header className="border-b border-line bg-raised">
      <div className="mx-auto flex h-[86px] max-w-7xl items-center gap-4 px-4 sm:px-6 wide:max-w-[1800px]">
        <Logo />
        <span className="hidden border-l border-line pl-4 text-lg font-semibold text-muted sm:block">{t(title)}</span>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          {user ? (
            <Menu
              panelClassName="right-0"
              label={
                <summary
                  className="flex items-center gap-1 rounded-full py-1 pr-2 pl-1 hover:bg-sunken"
                  data-testid="user-menu"
                >
                  <UserBadge name={user.name} picture={user.picture} />
                  <span className="sr-only">{t('portal.userMenu')}</span>
                  <ChevronDownIcon className="h-4 w-4" />
                </summary>
              }
            >
              <p className="truncate px-3 py-2 text-sm text-muted">{user.email}</p>
              <Link data-menu-item to={link(`/${locale}/portal`)} className="menu-link py-2">
                {t('portal.heading')}
              </Link>
              {user.role === 'admin' || user.role === 'editor' ? (
                <Link data-menu-item to={`/${locale}/admin`} className="menu-link py-2" data-testid="menu-admin">
                  {t('portal.admin')}
                </Link>
              ) : null}
              <Link
                data-menu-item
                to={link(`/${locale}/portal/profile`)}
                className="menu-link py-2"
                data-testid="menu-profile"
              >
                {t('portal.profile')}
              </Link>
              <Link data-menu-item to={link(links.home)} className="menu-link py-2">
                {t('portal.toSite')}
              </Link>
              <Form method="post" action={`/${locale}/logout`} onSubmit={onLogout}>
                <button
                  data-menu-item
                  type="submit"
                  className="block w-full rounded-md px-3 py-2 text-left hover:bg-sunken"
                >
                  {t('nav.logout')}
                </button>
              </Form>
            </Menu>
          ) : null}
        </div>
      </div>
    </header>
  );
}
