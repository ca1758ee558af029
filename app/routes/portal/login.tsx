import { useMemo } from 'react';
import { data, Form, Link, redirect, redirectDocument, useNavigation } from 'react-router';
import { STAFF_ROLES } from '../../../domain/entities/types';
import { signInSchema } from '../../../domain/forms/sign-in';
import { isBackOfficePath, isPurchasePath } from '../../../domain/public-pages';
import { safeReturnPath, sessionCookie } from '../../auth.server';
import { useActionErrorSnackbar } from '../../components/feedback/snackbars';
import { readAsSent } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import { useSay } from '../../components/forms/say';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMeta } from '../../meta';
import { siteLinks, useSite } from '../../shell';
import type { Route } from './+types/login';

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { user } = context.get(serverContext);
  const query = new URL(request.url).searchParams;
  const from = query.get('from');
  const target = safeReturnPath(from, params.lang, request.url);
  // A member sent here from the back office signs in again as staff (going back would loop).
  const staffOnly = isBackOfficePath(new URL(target, request.url).pathname);
  if (user && !(staffOnly && !STAFF_ROLES.includes(user.role))) throw redirect(target);
  // After a new password was set with a mailed link, when signing in there was refused.
  return { from: from ?? '', reset: query.get('reset') === 'done', staffOnly: staffOnly && user !== null };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  // The sign-in checks the answers itself (an unknown account and a wrong password alike).
  const { email, password, from } = await readAsSent(request, signInSchema);
  try {
    const result = await ctx.api
      .service('authentication')
      .create(
        { strategy: 'local', email, password },
        { provider: 'ssr', ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': params.lang } },
      );
    const target = safeReturnPath(from, params.lang, request.url);
    // A purchase page loads as a document of its own: its policy allows the card fields' frame.
    return (isPurchasePath(new URL(target, request.url).pathname) ? redirectDocument : redirect)(target, {
      headers: { 'Set-Cookie': sessionCookie(result.accessToken, ctx.secureCookies) },
    });
  } catch (caught) {
    const { status, message, errors } = refusalOf(caught);
    return data({ error: message, fieldErrors: errors, email }, { status });
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'login.title', index: false });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const say = useSay();
  const error = say(actionData?.error);
  useActionErrorSnackbar(useMemo(() => (actionData ? { error } : undefined), [actionData, error]));
  const failed = Boolean(error);
  const input = 'field-input';
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">{t('login.heading')}</h1>
      <p className="mt-2 text-muted">{t('login.lead')}</p>
      {loaderData.staffOnly ? (
        <p role="status" className="mt-4 font-medium text-amber-800 dark:text-amber-200" data-testid="login-staff-only">
          {t('login.staffOnly')}
        </p>
      ) : null}
      {loaderData.reset && !failed ? (
        <p role="status" className="mt-4 font-medium text-brand-700 dark:text-brand-300" data-testid="login-reset-done">
          {t('login.resetDone')}
        </p>
      ) : null}
      <Form method="post" className="mt-8 space-y-5" noValidate>
        <input type="hidden" name="from" value={loaderData.from} />
        <div>
          <label htmlFor="email" className="block font-medium">
            {t('login.email')}
          </label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={actionData?.email}
            aria-invalid={failed || undefined}
            aria-describedby={failed ? 'login-error' : undefined}
            className={input}
          />
        </div>
        <div>
          <label htmlFor="password" className="block font-medium">
            {t('login.password')}
          </label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={failed || undefined}
            aria-describedby={failed ? 'login-error' : undefined}
            className={input}
          />
        </div>
        <p className="text-sm">
          <Link
            to={`/${locale}/forgot-password`}
            className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
            data-testid="login-forgot"
          >
            {t('login.forgot')}
          </Link>
        </p>
        {failed ? (
          <p id="login-error" className="text-sm font-medium text-red-700 dark:text-red-300" data-testid="login-error">
            {error}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-full bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {t('login.submit')}
        </button>
      </Form>
      <p className="mt-8 border-t border-line pt-6 text-muted">
        {t('login.noAccount')}{' '}
        <Link
          to={`/${locale}/register${loaderData.from ? `?from=${encodeURIComponent(loaderData.from)}` : ''}`}
          className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300"
          data-testid="login-register"
        >
          {t('login.createAccount')}
        </Link>
      </p>
      <p className="mt-2 text-muted">
        {/* The purchase flow loads as a document of its own (its policy allows the card fields' frame). */}
        <Link
          to={siteLinks(locale, site.brandSlug).subscription}
          reloadDocument
          className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300"
          data-testid="login-buy"
        >
          {t('login.buyPlan')}
        </Link>
      </p>
    </>
  );
}
