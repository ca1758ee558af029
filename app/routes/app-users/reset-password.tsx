import { redirect } from 'react-router';
import { NewPasswordPage, type ResetAnswer } from '../../components/password-reset/new-password';
import { setNewPassword, tokenOf } from '../../components/password-reset/new-password.server';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { useSite } from '../../shell';
import type { Route } from './+types/reset-password';

export const messageGroups = ['reset', 'appReset', 'forms'] as const;

/**
 * The link is checked when the new password is sent: opening it (as mail scanners do) uses nothing.
 * `?done` is where the page lands once the password is set.
 */
export function loader({ request, params }: Route.LoaderArgs) {
  const done = new URL(request.url).searchParams.has('done');
  return { token: tokenOf(request), done, messages: pageMessages(params.lang, messageGroups) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const result = await setNewPassword(request, ctx, params.lang, 'appPasswordResets');
  if (!result.set) return result.answer;
  // An app user signs in in the app, not on the site: the page says so, and holds no token any more.
  return redirect(`/${params.lang}/app/reset-password?done`);
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'appReset.title', index: false });
}

/**
 * `/{locale}/app/reset-password?token=…`: where a user of the company's apps sets a new password
 * with the mailed link (decision 026, addendum), then goes back to the app to sign in.
 */
export default function AppResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLocale();
  const { site } = useSite();
  if (loaderData.done) {
    return (
      <div data-testid="app-reset-done-page">
        <h1 className="text-3xl font-bold tracking-tight">{t('appReset.doneHeading')}</h1>
        <p role="status" className="mt-4 text-lg" data-testid="app-reset-done">
          {t('appReset.done')}
        </p>
      </div>
    );
  }
  return (
    <NewPasswordPage
      token={loaderData.token}
      answer={actionData as ResetAnswer | undefined}
      lead={t('appReset.lead', { brand: site.brandName })}
      askAgain={
        <p className="mt-4 text-muted" data-testid="app-reset-ask-in-app">
          {t('appReset.askInApp')}
        </p>
      }
    />
  );
}
