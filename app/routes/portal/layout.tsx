import { Outlet, useLocation, useParams, useRouteError } from 'react-router';
import { isLocale, type Locale } from '../../../domain/locales';
import { requireUser } from '../../auth.server';
import { DashboardHeader } from '../../components/layout/dashboard-header';
import { ErrorContent } from '../../components/layout/error-content';
import { LanguageSelector } from '../../components/layout/language-selector';
import { serverContext } from '../../context';
import { PortalNav } from '../../components/portal/portal-nav';
import { LiveProvider, useLiveConnection } from '../../api/use-live';
import type { Route } from './+types/layout';

export function loader({ context, request, params }: Route.LoaderArgs) {
  const user = requireUser(context.get(serverContext), request, params.lang);
  return { user: { name: user.name || user.email, email: user.email, role: user.role } };
}

/** Inside another app (single sign-on, `?sso`), the dashboard shows without its header and footer. */
function useEmbedded(): boolean {
  return new URLSearchParams(useLocation().search).has('sso');
}

function DashboardChrome({
  children,
  onLogout,
}: {
  children: React.ReactNode;
  onLogout?: (event: React.FormEvent<HTMLFormElement>) => void;
}) {
  const embedded = useEmbedded();
  return (
    <div className="flex min-h-screen flex-col bg-sunken">
      {embedded ? null : <DashboardHeader onLogout={onLogout} />}
      <PortalNav />
      <main id="main" className="flex-1">
        {children}
      </main>
      {embedded ? null : (
        <footer className="border-t border-line bg-raised" data-testid="dashboard-footer">
          <div className="mx-auto flex max-w-7xl justify-end px-4 py-4 sm:px-6">
            <LanguageSelector />
          </div>
        </footer>
      )}
    </div>
  );
}

/** The portal's pages keep a live connection (decision 027): staff's changes show as they happen. */
export default function DashboardLayout() {
  const { lang } = useParams();
  const locale: Locale = isLocale(lang) ? lang : 'en';
  const { live, onLogout } = useLiveConnection(locale);
  return (
    <LiveProvider value={live}>
      <DashboardChrome onLogout={onLogout}>
        <Outlet />
      </DashboardChrome>
    </LiveProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { lang } = useParams();
  const locale = isLocale(lang) ? lang : 'en';
  return (
    <DashboardChrome>
      <ErrorContent error={error} homeHref={`/${locale}`} locale={locale} />
    </DashboardChrome>
  );
}
