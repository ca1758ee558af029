import { Link, redirect } from 'react-router';
import { sessionCookie } from '../../auth.server';
import { NewPasswordPage, type ResetAnswer } from '../../components/password-reset/new-password';
import { setNewPassword, tokenOf } from '../../components/password-reset/new-password.server';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import type { Route } from './+types/reset-password';

export const messageGroups = ['reset', 'forms'] as const;

/** The link is checked when the new password is sent: opening it (as mail scanners do) uses nothing. */
export function loader({ request, params }: Route.LoaderArgs) {
  return { token: tokenOf(request), messages: pageMessages(params.lang, messageGroups) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const result = await setNewPassword(request, ctx, params.lang, 'passwordResets');
  if (!result.set) return result.answer;
  const { email, password, callParams } = result;
  // Every session of the account has ended; this one starts afresh with the new password. Should
  // signing in be refused (its limits), the login page says the password was changed.
  try {
    const signedIn = await ctx.api.service('authentication').create({ strategy: 'local', email, password }, callParams);
    return redirect(`/${params.lang}/portal`, {
      headers: { 'Set-Cookie': sessionCookie(signedIn.accessToken, ctx.secureCookies) },
    });
  } catch {
    return redirect(`/${params.lang}/login?reset=done`);
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'reset.resetTitle', index: false });
}

/** `/{locale}/reset-password?token=…`: the mailed link's page, where the new password is set (decision 026). */
export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const links = (
    <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2">
      <Link
        to={`/${locale}/forgot-password`}
        className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
        data-testid="reset-ask-again"
      >
        {t('reset.askAgain')}
      </Link>
      <Link
        to={`/${locale}/login`}
        className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
      >
        {t('reset.backToLogin')}
      </Link>
    </p>
  );
  return (
    <NewPasswordPage
      token={loaderData.token}
      answer={actionData as ResetAnswer | undefined}
      lead={t('reset.resetLead')}
      footer={links}
    />
  );
}
