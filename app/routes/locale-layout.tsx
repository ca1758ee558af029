import { useEffect } from 'react';
import { data, Outlet, redirect, useParams, useRouteError, type ShouldRevalidateFunctionArgs } from 'react-router';
import { parse as parseCookie } from 'cookie';
import { applyFeatures, DEFAULT_MARKET } from '../../domain/features';
import { resolveLocale } from '../../domain/locale-detect';
import { isLocale } from '../../domain/locales';
import { isCurrency } from '../../domain/money';
import { RouteAnalytics } from '../components/feedback/analytics';
import { BackToTop } from '../components/feedback/back-to-top';
import { LoadingBar } from '../components/feedback/loading-bar';
import { SnackbarProvider } from '../components/feedback/snackbars';
import { ErrorContent } from '../components/layout/error-content';
import { serverContext, type SessionUser } from '../context';
import { CLEAR_FLASH, readFlash } from '../feedback.server';
import { SHELL_GROUPS } from '../i18n/groups';
import { fallbacksOf, messagesFor } from '../i18n/messages.server';
import { LOCALE_COOKIE, useSite, type ShellData } from '../shell';
import type { Route } from './+types/locale-layout';
import { pictureUrl } from '../../domain/uploads/picture';

/** How the header names a user: their name, else first and last name, else their email. */
function displayName(user: SessionUser): string {
  const parts = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return user.name?.trim() || parts.trim() || user.email;
}

/** Paths that name a file (`/favicon.ico`) are not pages in another language: they are missing. */
const FILE_LIKE = /\/[^/]+\.[a-z0-9]{1,8}$/i;

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const cookies = parseCookie(request.headers.get('cookie') ?? '');
  if (!isLocale(params.lang)) {
    // A path without a language (`/pricing`) goes to the visitor's language, keeping the query.
    if (FILE_LIKE.test(url.pathname)) throw data(null, { status: 404 });
    const locale = resolveLocale({
      cookie: cookies[LOCALE_COOKIE],
      acceptLanguage: request.headers.get('accept-language'),
    });
    throw redirect(`/${locale}${url.pathname}${url.search}`, { headers: { Vary: 'Cookie, Accept-Language' } });
  }
  const locale = params.lang;
  const ctx = context.get(serverContext);
  const features = await ctx.api.service('features').find({ provider: 'ssr', user: ctx.user });
  const market = applyFeatures(DEFAULT_MARKET, features);
  // The visitor's own currency choice (the microsite selector), when the site offers it.
  const chosen = cookies.currency;
  if (isCurrency(chosen) && market.currencies.includes(chosen)) market.currency = chosen;
  const flash = readFlash(request.headers.get('cookie'));
  const shell: ShellData = {
    locale,
    messages: messagesFor(locale, SHELL_GROUPS),
    ...(ctx.development ? { fallbacks: fallbacksOf(locale) } : {}),
    user: ctx.user
      ? {
          name: displayName(ctx.user),
          email: ctx.user.email,
          role: ctx.user.role,
          picture: pictureUrl(ctx.user._id, ctx.user.picture),
        }
      : null,
    market,
    flash,
  };
  return data(shell, flash ? { headers: { 'Set-Cookie': CLEAR_FLASH } } : undefined);
}

/**
 * The shell depends on the language, the session, the site's features and a pending flash; a new
 * query string on the same page changes none of them (a search typed into the feature list), so
 * it does not fetch the shell again. Form submissions and other navigations do.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) return false;
  return defaultShouldRevalidate;
}

/**
 * The browser keeps the user's display data (never the token) under `login` (spec section 3),
 * so scripts that run before the page loads can greet them.
 */
function useStoredLogin(user: ShellData['user']) {
  useEffect(() => {
    try {
      if (user) localStorage.setItem('login', JSON.stringify(user));
      else localStorage.removeItem('login');
    } catch {
      // Storage may be refused (private mode); nothing depends on it.
    }
  }, [user]);
}

export default function LocaleLayout({ loaderData }: Route.ComponentProps) {
  const { site } = useSite();
  useStoredLogin(loaderData.user);
  return (
    <SnackbarProvider flash={loaderData.flash}>
      <LoadingBar />
      <Outlet />
      <BackToTop />
      {site.gtmId ? <RouteAnalytics locale={loaderData.locale} /> : null}
    </SnackbarProvider>
  );
}

/** A language's own error page, for errors its layouts could not show (no header: those may be what failed). */
export function ErrorBoundary() {
  const error = useRouteError();
  const { lang } = useParams();
  const locale = isLocale(lang) ? lang : 'en';
  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4">
      <ErrorContent error={error} homeHref={`/${locale}`} locale={locale} />
    </main>
  );
}
