import { useState } from 'react';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import { type RegistrationRefusal, RegistrationForm } from '../forms/registration-form';
import { useFieldErrors } from '../forms/use-field-errors';
import { useContinueOnceTrue, useFlowCall } from './flow-api';
import { primaryButton, StepActions } from './ui';

type Mode = 'register' | 'signIn';

const SIGN_IN_FIELDS = ['email', 'password'] as const;

/**
 * Step 6: a new buyer registers (every field of the registration form, checked in the browser and
 * again by the server), a returning one signs in, both in place; the flow then goes on. A buyer
 * who is already signed in sees who they are and continues.
 */
export function AccountStep({
  signedInAs,
  onBack,
  onContinue,
}: {
  signedInAs: string | null;
  onBack: () => void;
  onContinue: () => void;
}) {
  const { t } = useLocale();
  const [mode, setMode] = useState<Mode>('register');
  const [email, setEmail] = useState('');
  // Signed in here (registered, or with a password): once the page has read the buyer again, the flow goes on.
  useContinueOnceTrue(Boolean(signedInAs), onContinue);

  if (signedInAs) {
    return (
      <div className="mt-6 space-y-4" data-testid="account-signed-in">
        <p className="rounded-2xl border border-line bg-sunken p-5" data-testid="signed-in-as">
          {t('subscription.account.signedIn', { name: signedInAs })}
        </p>
        <StepActions onBack={onBack}>
          <button type="button" onClick={onContinue} className={primaryButton} data-testid="step-continue">
            {t('subscription.continue')} →
          </button>
        </StepActions>
      </div>
    );
  }

  const tab = (value: Mode, label: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => setMode(value)}
      className={`min-h-11 flex-1 rounded-full px-4 py-2 font-semibold ${mode === value ? 'bg-raised shadow-sm ring-1 ring-line' : 'text-muted hover:text-ink'}`}
      data-testid={`account-tab-${value}`}
    >
      {label}
    </button>
  );

  return (
    <div className="mt-6 space-y-6">
      <div
        role="group"
        aria-label={t('subscription.account.choose')}
        className="flex max-w-md gap-1 rounded-full bg-sunken p-1"
      >
        {tab('register', t('subscription.account.newCustomer'))}
        {tab('signIn', t('subscription.account.haveAccount'))}
      </div>
      {mode === 'register' ? (
        <RegisterForm
          onBack={onBack}
          onSignIn={(address) => {
            setEmail(address);
            setMode('signIn');
          }}
        />
      ) : (
        <SignInForm email={email} onBack={onBack} />
      )}
    </div>
  );
}

function RegisterForm({ onBack, onSignIn }: { onBack: () => void; onSignIn: (email: string) => void }) {
  const { t } = useLocale();
  const [refusal, setRefusal] = useState<RegistrationRefusal>();
  const [sent, setSent] = useState('');
  const { call, busy } = useFlowCall((answer) => {
    if (answer.ok) return;
    if (answer.status === 409) {
      setRefusal({ message: answer.message, errors: { email: answer.message }, exists: sent });
      return;
    }
    setRefusal({
      message: Object.values(answer.errors).length ? t('validation.failed') : answer.message,
      errors: answer.errors,
    });
  });

  return (
    <RegistrationForm
      refusal={refusal}
      onSend={(answers) => {
        setSent(answers.email ?? '');
        void call('register', { answers });
      }}
      signInInstead={(email) => (
        <button
          type="button"
          onClick={() => onSignIn(email)}
          className="mt-1 underline"
          data-testid="account-exists-sign-in"
        >
          {t('subscription.account.signInInstead')}
        </button>
      )}
      actions={
        <StepActions onBack={onBack}>
          <button type="submit" disabled={busy} className={primaryButton} data-testid="register-submit">
            {t('subscription.account.register')} →
          </button>
        </StepActions>
      }
    />
  );
}

function SignInForm({ email, onBack }: { email: string; onBack: () => void }) {
  const { t } = useLocale();
  // The sign-in answers one message for both fields (an unknown account and a wrong password alike).
  const [refusal, setRefusal] = useState<{ message: string }>();
  const { say } = useFieldErrors(
    refusal,
    refusal ? { email: refusal.message, password: refusal.message } : undefined,
    SIGN_IN_FIELDS,
    'signin-',
  );
  const error = say(refusal?.message);
  const { call, busy } = useFlowCall((answer) => {
    if (answer.ok) return;
    setRefusal({ message: answer.message });
  });

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const answers = new FormData(event.currentTarget);
    const address = String(answers.get('email') ?? '').trim();
    const password = String(answers.get('password') ?? '');
    if (!address || !password) {
      setRefusal({ message: 'registration.incomplete' });
      return;
    }
    setRefusal(undefined);
    void call('signIn', { email: address, password });
  };
  const invalid = error ? { 'aria-invalid': true as const, 'aria-describedby': 'signin-error' } : {};
  return (
    <form
      aria-label={t('subscription.account.haveAccount')}
      noValidate
      onSubmit={submit}
      className="space-y-6"
      data-testid="signin-form"
    >
      <section className="max-w-md space-y-5 rounded-2xl border border-line p-4 sm:p-6">
        <div>
          <label htmlFor="signin-email" className="block font-medium">
            {t('login.email')}
          </label>
          <input
            id="signin-email"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={email}
            className={inputClass}
            {...invalid}
          />
        </div>
        <div>
          <label htmlFor="signin-password" className="block font-medium">
            {t('login.password')}
          </label>
          <input
            id="signin-password"
            name="password"
            type="password"
            autoComplete="current-password"
            className={inputClass}
            {...invalid}
          />
        </div>
        {error ? (
          <p
            id="signin-error"
            role="alert"
            className="text-sm font-medium text-red-700 dark:text-red-300"
            data-testid="signin-error"
          >
            {error}
          </p>
        ) : null}
        <p className="text-sm text-muted">{t('subscription.pending.saved')}</p>
      </section>
      <StepActions onBack={onBack}>
        <button type="submit" disabled={busy} className={primaryButton} data-testid="signin-submit">
          {t('login.submit')} →
        </button>
      </StepActions>
    </form>
  );
}
