import { useEffect } from 'react';
import { Form } from 'react-router';
import type { FormErrors } from '../../../domain/forms/messages';
import {
  REGISTRATION_FIELDS,
  registrationFromForm,
  REGISTRATION_MESSAGES,
} from '../../../domain/forms/registration-fields';
import { useLocale } from '../../i18n/messages';
import { FieldError, inputClass, TextField } from './fields';
import { useFieldErrors } from './use-field-errors';
import { useFormCheck } from './use-form-check';

/** Loaded on the first focus in the form, or at the latest on submit (decision 012). */
const loadSchema = () => import('../../../domain/forms/registration').then((module) => module.registrationSchema);

/** The server's refusal of a registration: its message, the field messages and what was sent. */
export interface RegistrationRefusal {
  /** A message key, or the server's message already in the page's language. */
  message: string;
  errors: FormErrors;
  /** The address that already has an account (a 409): the form offers to sign in with it. */
  exists?: string | null;
  /** The answers sent, shown again (never the passwords). */
  values?: Record<string, string | undefined>;
}

type TextName = 'email' | 'name' | 'companyName' | 'companyAddress' | 'phone' | 'phoneConfirm';

/**
 * The registration form (decision 020): every field, checked in the browser by the server's own
 * schema before it is sent, and the server's refusal shown at its fields. It posts to its route's
 * action (a plain form POST, which works without JavaScript) unless `onSend` takes the answers
 * (the purchase flow's fetcher). Used by the purchase flow's account step and the register page.
 */
export function RegistrationForm({
  refusal,
  onSend,
  signInInstead,
  actions,
  wide = true,
}: {
  refusal?: RegistrationRefusal;
  onSend?: (answers: Record<string, string | undefined>) => void;
  /** What is offered beside 'Account already exist', for that address. */
  signInInstead: (email: string) => React.ReactNode;
  /** The form's buttons (its submit among them). */
  actions: React.ReactNode;
  /** Two columns of fields from the small breakpoint (false: one column, in a narrow layout). */
  wide?: boolean;
}) {
  const { t, locale } = useLocale();
  const { formRef, errors, summary, check, prepare, reset } = useFormCheck(
    loadSchema,
    registrationFromForm,
    REGISTRATION_MESSAGES.incomplete,
  );
  // A new refusal from the server replaces what the browser's check found.
  useEffect(() => {
    if (refusal) reset();
  }, [refusal, reset]);
  const checkedHere = Boolean(summary);
  const { focus, say } = useFieldErrors(refusal, refusal?.errors, REGISTRATION_FIELDS, 'reg-');
  const shownErrors: FormErrors = checkedHere ? errors : (refusal?.errors ?? {});
  const shownSummary = checkedHere ? summary : say(refusal?.message);
  const exists = checkedHere ? null : (refusal?.exists ?? null);
  const values = refusal?.values ?? {};

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    check(event);
    if (event.defaultPrevented || !onSend) return;
    event.preventDefault();
    onSend(registrationFromForm(new FormData(event.currentTarget)));
  };

  const field = (name: TextName, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      name={name}
      idPrefix="reg-"
      label={t(`subscription.account.fields.${name}`)}
      required
      value={values[name]}
      error={say(shownErrors[name])}
      focus={focus === name}
      {...extra}
    />
  );

  return (
    <Form
      ref={formRef}
      method="post"
      aria-label={t('subscription.account.newCustomer')}
      noValidate
      onSubmit={submit}
      onFocus={() => void prepare()}
      className="space-y-6"
      data-testid="register-form"
    >
      {/* The account's mail is written in the page's language. */}
      <input type="hidden" name="locale" value={locale} />
      <p className="text-sm text-muted">{t('subscription.shipping.requiredHint')}</p>
      {shownSummary ? (
        <div role="alert" className="font-medium text-red-700 dark:text-red-300" data-testid="register-summary">
          <p>{shownSummary}</p>
          {exists !== null ? signInInstead(exists) : null}
        </div>
      ) : null}
      <section className={wide ? 'space-y-5 rounded-2xl border border-line p-4 sm:p-6' : 'space-y-5'}>
        <div className={wide ? 'grid gap-5 sm:grid-cols-2' : 'grid gap-5'}>
          {field('email', { type: 'email', autoComplete: 'email' })}
          {field('name', { autoComplete: 'name' })}
          {field('companyName', { autoComplete: 'organization' })}
          {field('companyAddress', { autoComplete: 'street-address' })}
          {field('phone', { type: 'tel', autoComplete: 'tel' })}
          {field('phoneConfirm', { type: 'tel', autoComplete: 'tel' })}
          <PasswordField
            name="password"
            label={t('subscription.account.fields.password')}
            error={say(shownErrors.password)}
            focus={focus === 'password'}
            hint={t('subscription.account.passwordHint')}
          />
          <PasswordField
            name="passwordConfirm"
            label={t('subscription.account.fields.passwordConfirm')}
            error={say(shownErrors.passwordConfirm)}
            focus={focus === 'passwordConfirm'}
          />
        </div>
      </section>
      {actions}
    </Form>
  );
}

function PasswordField({
  name,
  label,
  error,
  hint,
  focus,
}: {
  name: string;
  label: string;
  error?: string;
  hint?: string;
  focus: boolean;
}) {
  const id = `reg-${name}`;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="block font-medium">
        {label}
        <span aria-hidden="true"> *</span>
      </label>
      <input
        id={id}
        name={name}
        type="password"
        autoComplete="new-password"
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        autoFocus={focus || undefined}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}
