import {
  Outlet,
  useMatches,
  useParams,
  useRouteError,
  type ShouldRevalidateFunctionArgs,
  type UIMatch,
} from 'react-router';
import { forLocale, isLocale, localeOf } from '../../../domain/locales';
import { ChatButton } from '../../components/layout/chat-button';
import { ErrorContent } from '../../components/layout/error-content';
import { MarketingFooter } from '../../components/layout/marketing-footer';
import { MarketingHeader, type HeaderIndustry, type HeaderTone } from '../../components/layout/marketing-header';
import type { ScriptsHandle } from '../../components/layout/static-page';
import { serverContext } from '../../context';
import type { Route } from './+types/layout';

/** What a marketing page may ask of its layout, through its route `handle`; and of the root, to be sent without scripts. */
export interface MarketingHandle extends ScriptsHandle {
  /** A tone, or a function of the page's match when it depends on the page's data. */
  headerTone?: HeaderTone | ((match: UIMatch) => HeaderTone);
  hideFooter?: boolean;
  /** The page brings its own `<main>` landmarks (the API reference's renderer draws one): no `<main>` around it. */
  ownMain?: boolean;
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const { api, user } = context.get(serverContext);
  const found = await api.service('industries').find({
    provider: 'ssr',
    user,
    query: { major: true, $sort: { order: 1 }, $limit: 20, $select: ['_id', 'key', 'name', 'order'] },
  });
  return { industries: forLocale(found.data, localeOf(params.lang)) };
}

/** The major industries change only when staff edit them. */
export function shouldRevalidate({ currentParams, nextParams, formMethod }: ShouldRevalidateFunctionArgs) {
  return Boolean(formMethod && formMethod !== 'GET') || currentParams.lang !== nextParams.lang;
}

interface ResolvedHandle {
  headerTone?: HeaderTone;
  hideFooter?: boolean;
  ownMain?: boolean;
}

function useHandle(): ResolvedHandle {
  const resolved: ResolvedHandle = {};
  for (const match of useMatches()) {
    const handle = match.handle as MarketingHandle | undefined;
    if (!handle) continue;
    if (handle.headerTone)
      resolved.headerTone = typeof handle.headerTone === 'function' ? handle.headerTone(match) : handle.headerTone;
    if (handle.hideFooter !== undefined) resolved.hideFooter = handle.hideFooter;
    if (handle.ownMain !== undefined) resolved.ownMain = handle.ownMain;
  }
  return resolved;
}

function Chrome({
  industries,
  children,
  handle,
}: {
  industries: HeaderIndustry[];
  children: React.ReactNode;
  handle: ResolvedHandle;
}) {
  return (
    <div className="flex min-h-screen flex-col">
      <MarketingHeader industries={industries} tone={handle.headerTone ?? 'brand'} />
      {handle.ownMain ? (
        <div id="main" className="flex-1">
          {children}
        </div>
      ) : (
        <main id="main" className="flex-1">
          {children}
        </main>
      )}
      {handle.hideFooter ? null : <MarketingFooter />}
      <ChatButton />
    </div>
  );
}

export default function MarketingLayout({ loaderData }: Route.ComponentProps) {
  const handle = useHandle();
  return (
    <Chrome industries={loaderData.industries} handle={handle}>
      <Outlet />
    </Chrome>
  );
}

/** A marketing page's error keeps the site's header and footer around it. */
export function ErrorBoundary({ loaderData }: Route.ErrorBoundaryProps) {
  const error = useRouteError();
  const { lang } = useParams();
  const locale = isLocale(lang) ? lang : 'en';
  return (
    <Chrome industries={(loaderData as { industries?: HeaderIndustry[] } | undefined)?.industries ?? []} handle={{}}>
      <div className="px-4">
        <ErrorContent error={error} homeHref={`/${locale}`} locale={locale} />
      </div>
    </Chrome>
  );
}
