import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Outlet, useParams, useRouteError } from 'react-router';
import { screensFor, type AdminSource } from '../../../domain/admin/screens';
import { isLocale, type Locale } from '../../../domain/locales';
import { requireStaff } from '../../auth.server';
import { AdminMenu } from '../../components/admin/admin-menu';
import { DashboardHeader } from '../../components/layout/dashboard-header';
import { ErrorContent } from '../../components/layout/error-content';
import { serverContext } from '../../context';
import { pageMessages } from '../../i18n/messages.server';
import { LiveProvider, useLiveConnection } from '../../api/use-live';
import type { Route } from './+types/layout';

/*
 * `/{locale}/admin`: the back office (issue 21, decision 034), for staff accounts only. Its pages
 * read and write through the typed services as the staff member (the entity rules apply), and keep
 * the portal's live connection so records others change show at once. Their tables keep their
 * data in TanStack Query: one client per page in the browser (and per request on the server, never
 * shared between two), here only, so none of it reaches the public pages.
 */

/**
 * The labels of every entity's fields and values travel with the back office's pages, and the
 * messages of the entities' own rules (a newsletter campaign's address), which the editor checks
 * before a save.
 */
export const messageGroups = ['admin', 'resources', 'newsletter'] as const;

export function loader({ context, request, params }: Route.LoaderArgs) {
  const user = requireStaff(context.get(serverContext), request, params.lang);
  return { screens: screensFor(user.role), role: user.role, messages: pageMessages(params.lang, messageGroups) };
}

function AdminChrome({
  screens,
  children,
  onLogout,
}: {
  screens: readonly AdminSource[];
  children: React.ReactNode;
  onLogout?: (event: React.FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <div className="flex min-h-screen flex-col bg-sunken">
      <DashboardHeader onLogout={onLogout} title="admin.title" />
      <div className="mx-auto flex w-full max-w-[1800px] flex-1 flex-col lg:flex-row">
        <AdminMenu screens={screens} />
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6">
          {children}
        </main>
      </div>
    </div>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { lang } = useParams();
  const locale: Locale = isLocale(lang) ? lang : 'en';
  const { live, onLogout } = useLiveConnection(locale);
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <LiveProvider value={live}>
        <AdminChrome screens={loaderData.screens} onLogout={onLogout}>
          <Outlet />
        </AdminChrome>
      </LiveProvider>
    </QueryClientProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { lang } = useParams();
  const locale = isLocale(lang) ? lang : 'en';
  return (
    <div className="flex min-h-screen flex-col bg-sunken">
      <DashboardHeader title="admin.title" />
      <main id="main" className="flex-1">
        <ErrorContent error={error} homeHref={`/${locale}/admin`} locale={locale} />
      </main>
    </div>
  );
}
