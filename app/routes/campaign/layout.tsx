import { parse as parseCookie } from 'cookie';
import { Link, Outlet, useParams, useRouteError } from 'react-router';
import { isLocale } from '../../../domain/locales';
import { isCurrency, type CurrencyCode } from '../../../domain/money';
import { ErrorContent } from '../../components/layout/error-content';
import { CurrencySelector } from '../../components/layout/currency-selector';
import { LanguageSelector } from '../../components/layout/language-selector';
import { Logo } from '../../components/layout/logo';
import { SocialLinks } from '../../components/layout/social-links';
import { ThemeToggle } from '../../components/layout/theme';
import { MailIcon, PhoneIcon } from '../../components/ui/icons';
import { useLocale } from '../../i18n/messages';
import { useShell, useSite } from '../../shell';
import type { Route } from './+types/layout';

/** Campaigns price in Singapore dollars unless the visitor chose another offered currency (spec section 9). */
export const MICROSITE_CURRENCY: CurrencyCode = 'SGD';

export function loader({ request }: Route.LoaderArgs) {
  const chosen = parseCookie(request.headers.get('cookie') ?? '').currency;
  return { chosenCurrency: isCurrency(chosen) ? chosen : null };
}

function MicrositeChrome({
  children,
  chosenCurrency,
}: {
  children: React.ReactNode;
  chosenCurrency: CurrencyCode | null;
}) {
  const { t } = useLocale();
  const { market } = useShell();
  const { site } = useSite();
  const fallback = market.currencies.includes(MICROSITE_CURRENCY) ? MICROSITE_CURRENCY : market.currency;
  const currency = chosenCurrency && market.currencies.includes(chosenCurrency) ? chosenCurrency : fallback;
  return (
    <div className="flex min-h-screen flex-col bg-page">
      <header className="absolute inset-x-0 top-0 z-30 bg-transparent text-white">
        <div className="mx-auto flex h-[120px] max-w-7xl items-center justify-between px-4 sm:px-6">
          <Logo className="text-white drop-shadow" />
          <ThemeToggle className="text-white hover:bg-white/10" />
        </div>
      </header>
      <main id="main" className="flex-1">
        {children}
      </main>
      <footer className="bg-brand-950 text-brand-50" data-testid="microsite-footer">
        <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-3">
          <div>
            <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{t('microsite.follow')}</h2>
            <SocialLinks className="mt-3 -ml-2" />
          </div>
          <div>
            <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{t('microsite.support')}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              <li>
                <a href={`mailto:${site.supportEmail}`} className="inline-flex items-center gap-2 hover:underline">
                  <MailIcon className="h-4 w-4" /> {site.supportEmail}
                </a>
              </li>
              <li>
                <a
                  href={`tel:${site.supportPhone.replace(/[^\d+]/g, '')}`}
                  className="inline-flex items-center gap-2 hover:underline"
                >
                  <PhoneIcon className="h-4 w-4" /> {site.supportPhone}
                </a>
              </li>
            </ul>
          </div>
          <div className="space-y-4">
            <LanguageSelector />
            <CurrencySelector currencies={market.currencies} current={currency} />
          </div>
        </div>
        <div className="border-t border-white/10 py-5 text-center text-sm text-brand-100">
          <Link to={`/${useLocale().locale}`} className="hover:underline">
            {t('microsite.mainSite', { brand: site.brandName })}
          </Link>
        </div>
      </footer>
    </div>
  );
}

export default function MicrositeLayout({ loaderData }: Route.ComponentProps) {
  return (
    <MicrositeChrome chosenCurrency={loaderData.chosenCurrency}>
      <Outlet />
    </MicrositeChrome>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { lang } = useParams();
  const locale = isLocale(lang) ? lang : 'en';
  return (
    <MicrositeChrome chosenCurrency={null}>
      <div className="bg-brand-900 pt-[120px]" />
      <ErrorContent error={error} homeHref={`/${locale}`} locale={locale} />
    </MicrositeChrome>
  );
}
