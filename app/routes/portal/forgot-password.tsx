import { data, Form, Link, useNavigation } from 'react-router';
import { type FormErrors } from '../../../domain/forms/messages';
import { passwordResetRequestSchema } from '../../../domain/forms/password-reset';
import { TextField } from '../../components/forms/fields';
import { readForm } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import { useFieldErrors } from '../../components/forms/use-field-errors';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import type { Route } from './+types/forgot-password';

export const messageGroups = ['reset', 'forms'] as const;

export function loader({ params }: Route.LoaderArgs) {
  return { messages: pageMessages(params.lang, messageGroups) };
}

interface Answer {
  /** The address a link was asked for: the page says the same whether or not an account uses it. */
  requested?: string;
  errors: FormErrors;
  /** A message above the form: a message key, or the server's message in the page's language. */
  message?: string;
  email?: string;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const form = await readForm(request, passwordResetRequestSchema, (sent) => ({
    email: typeof sent.get('email') === 'string' ? String(sent.get('email')) : '',
  }));
  if (!form.ok)
    return data<Answer>(
      { errors: form.errors, message: 'validation.failed', email: String(form.input.email) },
      { status: 400 },
    );
  const { email } = form.values;
  try {
    await ctx.api
      .service('passwordResets')
      .create({ email }, { provider: 'ssr', ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': params.lang } });
  } catch (caught) {
    const { status, message, errors } = refusalOf(caught);
    return data<Answer>({ errors, message, email: String(form.input.email) }, { status });
  }
  return data<Answer>({ requested: email, errors: {} });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'reset.requestTitle', index: false });
}

const EMAIL_FIELD = ['email'] as const;

/** `/{locale}/forgot-password`: asks for a link that sets a new password (decision 026). */
export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const answer = actionData as Answer | undefined;
  const busy = useNavigation().state === 'submitting';
  const { focus, errorOf, say } = useFieldErrors(answer, answer?.errors, EMAIL_FIELD, 'reset-');
  const back = (
    <p className="mt-6">
      <Link
        to={`/${locale}/login`}
        className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
        data-testid="reset-back-to-login"
      >
        {t('reset.backToLogin')}
      </Link>
    </p>
  );
  if (answer?.requested) {
    return (
      <div data-testid="forgot-password-page">
        <h1 className="text-3xl font-bold tracking-tight">{t('reset.requestHeading')}</h1>
        <p role="status" className="mt-4 text-lg" data-testid="reset-requested">
          {t('reset.requested', { email: answer.requested })}
        </p>
        {back}
      </div>
    );
  }
  const problem = say(answer?.message);
  return (
    <div data-testid="forgot-password-page">
      <h1 className="text-3xl font-bold tracking-tight">{t('reset.requestHeading')}</h1>
      <p className="mt-2 text-muted">{t('reset.requestLead')}</p>
      <Form method="post" noValidate className="mt-8 space-y-5" data-testid="forgot-password-form">
        <TextField
          name="email"
          idPrefix="reset-"
          type="email"
          label={t('reset.email')}
          value={answer?.email}
          error={errorOf('email')}
          required
          autoComplete="email"
          focus={focus === 'email'}
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
          data-testid="reset-request-submit"
        >
          {t('reset.requestSubmit')}
        </button>
      </Form>
      {back}
    </div>
  );
}
