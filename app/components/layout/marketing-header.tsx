import { useId, useRef } from 'react';
import { Link, NavLink } from 'react-router';
import { localized, type I18nText } from '../../../domain/locales';
import { useLocale } from '../../i18n/messages';
import { siteLinks, useShell, useSite } from '../../shell';
import { ChevronDownIcon, CloseIcon, MenuIcon } from '../ui/icons';
import { LanguageSelector } from './language-selector';
import { Logo } from './logo';
import { SITE_MAP_ID } from './marketing-footer';
import { Menu } from './menu';
import { ThemeToggle } from './theme';
import { TryNow } from './try-now';
import { useRouteChange } from './use-route-change';
import { UserBadge } from './user-badge';

export interface HeaderIndustry {
  _id: string;
  key?: string | null;
  name: I18nText;
}

/** White on the home, use-case and payment pages; the brand colour elsewhere. */
export type HeaderTone = 'white' | 'brand';

function useUseCaseLinks(industries: HeaderIndustry[]) {
  const { locale } = useLocale();
  return industries.map((industry) => ({
    to: `/${locale}/usecase/${industry.key ?? industry._id}`,
    label: localized(industry.name, locale),
    id: industry._id,
  }));
}

export function MarketingHeader({ industries, tone }: { industries: HeaderIndustry[]; tone: HeaderTone }) {
  const { t, locale } = useLocale();
  const { user, market } = useShell();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  const useCases = useUseCaseLinks(industries);
  const drawer = useRef<HTMLDialogElement>(null);
  const drawerId = useId();

  useRouteChange(() => drawer.current?.close());

  const surface =
    tone === 'white'
      ? 'bg-page/95 text-ink border-b border-line backdrop-blur'
      : 'bg-brand-900 text-white border-b border-brand-800';
  const mainLinks = [
    { to: links.payments, label: t('nav.payments') },
    { to: links.features, label: t('nav.features') },
    { to: links.pricing, label: t('nav.pricing') },
    { to: links.blog, label: t('nav.blog') },
  ];
  const navLink = 'nav-link';
  const onBrand = tone === 'brand' ? 'hover:bg-white/10' : '';
  const menuControl = 'h-10 w-10 place-items-center rounded-md hover:bg-black/5 lg:hidden dark:hover:bg-white/10';

  return (
    <header className={`sticky top-0 z-40 h-[86px] ${surface}`} data-tone={tone}>
      <div className="mx-auto flex h-full max-w-7xl items-center gap-4 px-4 sm:px-6 wide:max-w-[1800px]">
        <Logo />
        <nav aria-label={t('nav.main')} className="ml-6 hidden items-center gap-1 lg:flex">
          <Menu
            label={
              <summary className={`${navLink} ${onBrand} flex items-center gap-1`} aria-haspopup="true">
                {t('nav.useCases')}
                <ChevronDownIcon className="h-4 w-4 transition-transform group-open:rotate-180" />
              </summary>
            }
          >
            <ul>
              {useCases.map((item) => (
                <li key={item.id}>
                  <Link data-menu-item to={item.to} className="menu-link py-2">
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </Menu>
          {mainLinks.map((item) => (
            <NavLink key={item.to} to={item.to} className={`${navLink} ${onBrand}`}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          {user ? (
            <UserBadge
              name={user.name}
              picture={user.picture}
              to={links.portal}
              className="hidden rounded-full py-1 pr-3 pl-1 hover:bg-black/5 lg:flex dark:hover:bg-white/10"
            />
          ) : market.subscription ? (
            <Link to={links.login} className={`hidden lg:inline-flex ${navLink} ${onBrand}`}>
              {t('nav.login')}
            </Link>
          ) : null}
          <TryNow className="max-[379px]:hidden" />
          <button
            type="button"
            className={`grid ${menuControl} no-scripting:hidden`}
            aria-label={t('nav.openMenu')}
            aria-haspopup="dialog"
            // Opens the drawer natively, so it works before the page's script has loaded; where the
            // browser lacks Invoker Commands, the inline fallback does it (platform-fallbacks.ts).
            command="show-modal"
            commandfor={drawerId}
            data-testid="drawer-open"
          >
            <MenuIcon className="h-6 w-6" />
          </button>
          {/* With scripts off, a browser without Invoker Commands could not open the drawer: the
              menu is then a link to the footer's pages, in every browser alike. */}
          <a
            href={`#${SITE_MAP_ID}`}
            className={`hidden ${menuControl} no-scripting:max-lg:grid`}
            aria-label={t('nav.menu')}
            data-testid="site-map-link"
          >
            <MenuIcon className="h-6 w-6" />
          </a>
        </div>
      </div>

      <dialog
        ref={drawer}
        id={drawerId}
        // A click on the backdrop closes it: natively, or by the inline fallback where `closedby` is missing.
        closedby="any"
        aria-label={t('nav.menu')}
        className="m-0 ml-auto h-dvh max-h-none w-[min(22rem,88vw)] max-w-none bg-raised p-0 text-ink shadow-2xl"
      >
        <div className="flex h-full flex-col">
          <div className="flex h-[86px] items-center justify-between border-b border-line px-5">
            <Logo />
            <button
              type="button"
              autoFocus
              command="close"
              commandfor={drawerId}
              aria-label={t('nav.closeMenu')}
              className="grid h-10 w-10 place-items-center rounded-md hover:bg-sunken"
            >
              <CloseIcon className="h-6 w-6" />
            </button>
          </div>
          <nav aria-label={t('nav.main')} className="flex-1 overflow-y-auto px-3 py-4">
            <p className="px-3 pb-1 text-sm font-semibold text-muted">{t('nav.useCases')}</p>
            <ul className="mb-3">
              {useCases.map((item) => (
                <li key={item.id}>
                  <Link to={item.to} className="menu-link py-2.5">
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
            <ul className="border-t border-line pt-3">
              {mainLinks.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} className="menu-link py-2.5 font-medium aria-[current=page]:text-link">
                    {item.label}
                  </NavLink>
                </li>
              ))}
              {user ? (
                <li>
                  <Link to={links.portal} className="menu-link py-2.5 font-medium" data-testid="drawer-dashboard">
                    {t('nav.dashboard')}
                  </Link>
                </li>
              ) : market.subscription ? (
                <li>
                  <Link to={links.login} className="menu-link py-2.5 font-medium" data-testid="drawer-login">
                    {t('nav.login')}
                  </Link>
                </li>
              ) : null}
            </ul>
          </nav>
          <div className="space-y-4 border-t border-line p-5">
            <TryNow className="w-full" testId="drawer-try-now" />
            <LanguageSelector />
          </div>
        </div>
      </dialog>
    </header>
  );
}
