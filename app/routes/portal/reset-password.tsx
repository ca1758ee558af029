import { data, Form, Link, redirect, useNavigation } from 'react-router';
import type { FormErrors } from '../../../domain/forms/messages';
import { passwordResetFromForm, passwordResetSchema, RESET_TOKEN } from '../../../domain/forms/password-reset';
import { sessionCookie } from '../../auth.server';
import { TextField } from '../../components/forms/fields';
import { checkForm } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import { useFieldErrors } from '../../components/forms/use-field-errors';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import type { Route } from './+types/reset-password';

export const messageGroups = ['reset', 'forms'] as const;

/** The link is checked when the new password is sent: opening it (as mail scanners do) uses nothing. */
export function loader({ request, params }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  return { token: RESET_TOKEN.test(token) ? token : '', messages: pageMessages(params.lang, messageGroups) };
}

interface Answer {
  errors: FormErrors;
  /** A message above the form: a message key, or the server's message in the page's language. */
  message?: string;
  /** The link itself was refused (unknown, used, expired): the page offers a new one instead of the form. */
  linkProblem?: boolean;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const form = await request.formData();
  const token = typeof form.get('token') === 'string' ? String(form.get('token')) : '';
  const answers = checkForm(passwordResetSchema, passwordResetFromForm(form));
  if (!answers.ok) return data<Answer>({ errors: answers.errors, message: 'validation.failed' }, { status: 400 });
  const { password } = answers.values;
  const callParams = { provider: 'ssr', ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': params.lang } };
  let email: string;
  try {
    const answer = await ctx.api.service('passwordResets').create({ token, password }, callParams);
    email = 'email' in answer ? answer.email : '';
  } catch (caught) {
    const { status, message, errors } = refusalOf(caught);
    if (errors.token) return data<Answer>({ errors: {}, message: errors.token, linkProblem: true }, { status });
    return data<Answer>(
      { errors, message: Object.keys(errors).length > 0 ? 'validation.failed' : message },
      { status },
    );
  }
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

const ORDER = ['password', 'passwordConfirm'] as const;

/** `/{locale}/reset-password?token=…`: the mailed link's page, where the new password is set (decision 026). */
export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const answer = actionData as Answer | undefined;
  const busy = useNavigation().state === 'submitting';
  const { focus, errorOf, say } = useFieldErrors(answer, answer?.errors, ORDER, 'reset-');
  const askAgain = (
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
  const heading = <h1 className="text-3xl font-bold tracking-tight">{t('reset.resetHeading')}</h1>;
  if (!loaderData.token || answer?.linkProblem) {
    return (
      <div data-testid="reset-password-page">
        {heading}
        <p
          role="alert"
          className="mt-4 text-lg font-medium text-red-700 dark:text-red-300"
          data-testid="reset-link-problem"
        >
          {answer?.linkProblem ? say(answer.message) : t('reset.invalidLink')}
        </p>
        {askAgain}
      </div>
    );
  }
  const problem = say(answer?.message);
  return (
    <div data-testid="reset-password-page">
      {heading}
      <p className="mt-2 text-muted">{t('reset.resetLead')}</p>
      <p className="mt-2 text-sm text-muted" id="reset-rules">
        {t('reset.rules')}
      </p>
      {/* A new form after each answer, so no password stays typed in it. */}
      <Form
        method="post"
        noValidate
        className="mt-8 space-y-5"
        key={answer ? JSON.stringify(answer) : 'first'}
        data-testid="reset-password-form"
      >
        <input type="hidden" name="token" value={loaderData.token} />
        <TextField
          name="password"
          idPrefix="reset-"
          type="password"
          label={t('reset.new')}
          error={errorOf('password')}
          describedBy="reset-rules"
          required
          autoComplete="new-password"
          focus={focus === 'password'}
        />
        <TextField
          name="passwordConfirm"
          idPrefix="reset-"
          type="password"
          label={t('reset.confirm')}
          error={errorOf('passwordConfirm')}
          required
          autoComplete="new-password"
          focus={focus === 'passwordConfirm'}
        />
        {problem ? (
          <p role="alert" className="font-medium text-red-700 dark:text-red-300" data-testid="reset-problem">
            {problem}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-full bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          data-testid="reset-submit"
        >
          {t('reset.resetSubmit')}
        </button>
      </Form>
      {askAgain}
    </div>
  );
}
