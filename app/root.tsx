import { useLayoutEffect, useState } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useParams,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';
import { HTML_LANG, isLocale, LOCALES } from '../domain/locales';
import { tagManagerScript } from './components/feedback/analytics';
import { DIALOG_FALLBACK, SCRIPTING_MARK } from './components/layout/platform-fallbacks';
import {
  BEFORE_HYDRATION_SCRIPT,
  HYDRATED_ATTRIBUTE,
  STATIC_PAGE_SCRIPT,
  useScriptsOnInteraction,
  useStaticPage,
} from './components/layout/static-page';
import { THEME_SCRIPT, useSystemTheme } from './components/layout/theme';
import { serverContext } from './context';
import { loadMessagesOf, messageHrefs } from './i18n/messages';
import { useNonce } from './nonce';
import { SCRIPTS_AFTER_LOAD, SCRIPTS_ON_INTERACTION } from './scripts-after-load';
import { canonicalUrl, unprefixed, type RootData } from './shell';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';

/**
 * The one stylesheet. With a precedence, React places it in the head before the module preloads
 * of the page's scripts; those start only once the page has loaded (`scripts-after-load.ts`).
 */
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet, precedence: 'default' }];

export function loader({ context, request }: Route.LoaderArgs): RootData {
  const { site } = context.get(serverContext);
  return { site, origin: site.publicUrl ?? new URL(request.url).origin };
}

/**
 * A navigation shows its page once the page's files of messages are in (each is fetched once, then
 * kept), so it never renders with keys in place of text; until then the old page stays.
 */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async (_args, next) => {
    const results = await next();
    await loadMessagesOf(
      Object.values(results ?? {}).map((result) => (result.type === 'data' ? result.result : undefined)),
    ).catch(() => undefined);
    return results;
  },
];

/**
 * The files of messages the page was rendered with, for the entry to load before it hydrates; the
 * inline script that starts the scripts preloads them beside the modules (`scripts-after-load.ts`).
 * A meta tag rather than preload links: React would find those changed when it hydrates. The first
 * ones only: later pages load theirs as they navigate (`clientMiddleware`).
 */
function MessageFiles() {
  const current = messageHrefs(useMatches().map((match) => match.loaderData));
  const [hrefs] = useState(current);
  return hrefs.length > 0 ? <meta name="messages" content={hrefs.join(' ')} /> : null;
}

/** The configuration never changes while the page is open. */
export function shouldRevalidate() {
  return false;
}

/** hreflang alternates for the three languages plus x-default (the language-detecting path), and the canonical URL. */
function AlternateLinks({ origin }: { origin: string }) {
  const { lang } = useParams();
  const location = useLocation();
  if (!isLocale(lang)) return null;
  const rest = unprefixed(location.pathname);
  return (
    <>
      <link rel="canonical" href={canonicalUrl(origin, location.pathname)} />
      {LOCALES.map((locale) => (
        <link key={locale} rel="alternate" hrefLang={HTML_LANG[locale]} href={`${origin}/${locale}${rest}`} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={`${origin}${rest || '/'}`} />
    </>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const { lang } = useParams();
  const root = useRouteLoaderData('root') as RootData | undefined;
  const error = useRouteError();
  const htmlLang = HTML_LANG[isLocale(lang) ? lang : 'en'];
  const gtmId = root?.site.gtmId;
  const nonce = useNonce();
  // A page that asked for no scripts (and is not an error page) is plain HTML and CSS: no module
  // preloads, no entry script, no hydration; a small inline script keeps its shell working.
  const staticPage = useStaticPage() && !error;
  // A page mostly read starts them at the visitor's first interaction (an error page never waits).
  const onInteraction = useScriptsOnInteraction() && !error;
  // Hydrated: the inline script's theme toggle gives way to React's (in the same commit, so no
  // click between the two is handled twice).
  useLayoutEffect(() => document.documentElement.setAttribute(HYDRATED_ATTRIBUTE, ''), []);
  // The inline scripts run once, from the server's HTML, before the page's own scripts: the
  // browser's build leaves their text out (`import.meta.env.SSR`), and hydration keeps the elements
  // as the server sent them.
  return (
    <html lang={htmlLang} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Before any paint: the theme class, so the wrong theme never flashes, and the mark that scripts run. */}
        <script
          nonce={nonce}
          dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? SCRIPTING_MARK + THEME_SCRIPT : '' }}
          suppressHydrationWarning
        />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#12423f" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        {root && !error ? <AlternateLinks origin={root.origin} /> : null}
        {error ? <meta name="robots" content="noindex" /> : null}
        <Links />
        {staticPage ? null : <MessageFiles />}
        {gtmId ? (
          <script
            nonce={nonce}
            dangerouslySetInnerHTML={{ __html: tagManagerScript(gtmId) }}
            suppressHydrationWarning
          />
        ) : null}
      </head>
      <body className="min-h-screen antialiased">
        <div id="top" tabIndex={-1} className="outline-none" />
        {children}
        {staticPage ? (
          <script
            nonce={nonce}
            dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? STATIC_PAGE_SCRIPT + DIALOG_FALLBACK : '' }}
          />
        ) : (
          <>
            {/* The page's scripts start once it has loaded, or at the first interaction (the server holds them back); the theme toggle works before, the dialog fallback throughout. */}
            <script
              nonce={nonce}
              dangerouslySetInnerHTML={{
                __html: import.meta.env.SSR
                  ? BEFORE_HYDRATION_SCRIPT +
                    DIALOG_FALLBACK +
                    (onInteraction ? SCRIPTS_ON_INTERACTION : SCRIPTS_AFTER_LOAD)
                  : '',
              }}
              suppressHydrationWarning
            />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  useSystemTheme();
  return <Outlet />;
}

/**
 * The last resort, when even a language's error page failed: no messages may be loaded, so it
 * speaks all three languages, and links home.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-6xl font-bold">{status}</h1>
      <p className="mt-6 text-lg">An error occurred while showing the error page</p>
      <p className="mt-2 text-lg" lang="zh-Hant-HK">
        顯示錯誤頁面時發生錯誤
      </p>
      <p className="mt-2 text-lg" lang="zh-Hans-CN">
        显示错误页面时发生错误
      </p>
      <a className="mt-8 inline-block rounded-full bg-brand-700 px-6 py-2.5 font-semibold text-white" href="/">
        Homepage · 主頁 · 主页
      </a>
    </main>
  );
}
