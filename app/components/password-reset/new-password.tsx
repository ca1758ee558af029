import type { ReactNode } from 'react';
import { Form, useNavigation } from 'react-router';
import type { FormErrors } from '../../../domain/forms/messages';
import { TextField } from '../forms/fields';
import { useFieldErrors } from '../forms/use-field-errors';
import { useLocale } from '../../i18n/messages';

/** What a reset page's action answers when the new password is not set. */
export interface ResetAnswer {
  errors: FormErrors;
  /** A message above the form: a message key, or the server's message in the page's language. */
  message?: string;
  /** The link itself was refused (unknown, used, expired): the page offers a new one instead of the form. */
  linkProblem?: boolean;
}

const ORDER = ['password', 'passwordConfirm'] as const;

/**
 * The page a mailed reset link opens (decision 026): the new password twice, or, when the link is
 * not one or was refused, why and how to get another. The members' page and the apps' users' page
 * differ only in the lead, what follows a refused link, and the links below.
 */
export function NewPasswordPage({
  token,
  answer,
  lead,
  askAgain,
  footer,
}: {
  /** The link's token, or `''` when the address holds none that could be one. */
  token: string;
  answer: ResetAnswer | undefined;
  lead: string;
  /** Where a new link comes from, after a refused link. */
  askAgain?: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useLocale();
  const busy = useNavigation().state === 'submitting';
  const { focus, errorOf, say } = useFieldErrors(answer, answer?.errors, ORDER, 'reset-');
  const heading = <h1 className="text-3xl font-bold tracking-tight">{t('reset.resetHeading')}</h1>;
  if (!token || answer?.linkProblem) {
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
        {footer}
      </div>
    );
  }
  const problem = say(answer?.message);
  return (
    <div data-testid="reset-password-page">
      {heading}
      <p className="mt-2 text-muted">{lead}</p>
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
        <input type="hidden" name="token" value={token} />
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
      {footer}
    </div>
  );
}
