import { isRouteErrorResponse, useRouteLoaderData } from 'react-router';
import type { SiteSettings } from '../../../domain/site';
import type { Locale } from '../../../domain/locales';
import { errorPage as en } from '../../../locales/en.json';
import { errorPage as zhCn } from '../../../locales/zh-cn.json';
import { errorPage as zhHk } from '../../../locales/zh-hk.json';

/**
 * The error page's own messages, in the bundle for every language (a few lines): an error page
 * must speak even when the loader that brings a language's messages is what failed.
 */
const MESSAGES: Record<Locale, typeof en> = { en, 'zh-hk': zhHk, 'zh-cn': zhCn };

export function errorStatus(error: unknown): number {
  return isRouteErrorResponse(error) ? error.status : 500;
}

/**
 * The error page's content: the status code (default 500) and its message; a 404 says 'This page
 * could not be found' with a Homepage button (spec "Layouts"). Never a stack trace.
 */
export function ErrorContent({
  error,
  homeHref,
  locale,
  title = true,
}: {
  error: unknown;
  homeHref: string;
  locale: Locale;
  title?: boolean;
}) {
  const text = MESSAGES[locale];
  const status = errorStatus(error);
  // 503: the database is away for a moment (decision 032); the visitor is asked to try again.
  const message =
    status === 404 ? text.notFound : status === 403 ? text.forbidden : status === 503 ? text.unavailable : text.generic;
  // The same form as every page's title (`Title | Brand`); the brand is missing only when the
  // root loader itself failed.
  const brand = (useRouteLoaderData('root') as { site?: SiteSettings } | undefined)?.site?.brandName;
  return (
    <div className="mx-auto max-w-xl py-24 text-center" data-testid="error-page">
      {/* An error boundary has no meta of its own: the page still needs a title (React puts it in <head>). */}
      {title ? <title>{brand ? `${message} | ${brand}` : message}</title> : null}
      <p className="text-7xl font-bold tracking-tight text-brand-700 dark:text-brand-300">{status}</p>
      <h1 className="mt-6 text-2xl font-semibold">{message}</h1>
      {status !== 404 ? <p className="mt-3 text-muted">{text.tryAgain}</p> : null}
      <a
        className="mt-10 inline-flex rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
        href={homeHref}
      >
        {text.homepage}
      </a>
    </div>
  );
}
