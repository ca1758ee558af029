import { useEffect, useRef, useState } from 'react';
import { useLocale } from '../../i18n/messages';
import { FieldError, inputClass } from '../forms/fields';
import { useFieldErrors } from '../forms/use-field-errors';
import { useContinueOnceTrue, useFlowCall } from './flow-api';
import { primaryButton, smallButton, StepActions } from './ui';

/** Seconds until a new code may be asked for (decision 020: 60 s after the last one). */
export const RESEND_SECONDS = 60;

const CODE_FIELDS = ['code'] as const;

/** Seconds left until `until` (an ISO time), never below 0. */
function secondsUntil(until: number): number {
  return Math.max(0, Math.ceil((until - Date.now()) / 1000));
}

/**
 * Step 7: the 6-digit code mailed at registration. One field with a numeric keyboard (a pasted
 * code with spaces or a dash is read as its digits); a new code after a 60-second countdown. A
 * buyer who already verified (through the mailed link, say) continues.
 */
export function VerifyStep({
  email,
  verified,
  onBack,
  onContinue,
  refused,
  resent,
}: {
  email: string | null;
  verified: boolean;
  /** None where there is nowhere to go back to (the register page). */
  onBack?: () => void;
  onContinue: () => void;
  /** The server's answer to a code posted without JavaScript (the register page), in the page's language. */
  refused?: string;
  /** A new code was mailed, asked for without JavaScript (the register page). */
  resent?: boolean;
}) {
  const { t } = useLocale();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  // The code's check (in the browser, then the server's): a new one each attempt moves the focus to the field.
  const [checked, setChecked] = useState<{ errors: { code: string } } | undefined>(() =>
    refused ? { errors: { code: refused } } : undefined,
  );
  // Asking for a new code was refused (too soon): said under the field, the focus left where it is.
  const [resendRefused, setResendRefused] = useState('');
  const { errorOf } = useFieldErrors(checked, checked?.errors, CODE_FIELDS, 'verify-');
  const error = errorOf('code') || resendRefused;
  const [notice, setNotice] = useState(() => (resent ? t('subscription.verify.sent') : ''));
  // Before scripts run (and without them) the new code is a form POST the server times; once they
  // run, the button counts down the minute itself.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // The first code went with the registration: count down from the page's first view.
  const [resendAt, setResendAt] = useState(() => Date.now() + RESEND_SECONDS * 1000);
  const [left, setLeft] = useState(RESEND_SECONDS);

  useEffect(() => {
    setLeft(secondsUntil(resendAt));
    const timer = setInterval(() => setLeft(secondsUntil(resendAt)), 1000);
    return () => clearInterval(timer);
  }, [resendAt]);

  // Verified here: once the page has read the buyer again, the flow goes on to payment.
  useContinueOnceTrue(verified, onContinue);

  const verify = useFlowCall((answer) => {
    if (answer.ok) return;
    setResendRefused('');
    setChecked({ errors: { code: answer.message } });
  });
  const resend = useFlowCall((answer) => {
    if (answer.ok) {
      setChecked(undefined);
      setResendRefused('');
      setNotice(t('subscription.verify.sent'));
      if (answer.intent === 'resend' && answer.resendAfter) setResendAt(Date.parse(answer.resendAfter));
      input.current?.focus();
      return;
    }
    setNotice('');
    setChecked(undefined);
    setResendRefused(answer.message);
    const retry = Number(answer.data.retryAfter);
    if (answer.status === 429 && Number.isFinite(retry) && retry > 0) setResendAt(Date.now() + retry * 1000);
  });

  if (verified) {
    return (
      <div className="mt-6 space-y-4" data-testid="verify-done">
        <p className="rounded-2xl border border-line bg-sunken p-5">{t('subscription.verify.verified')}</p>
        <StepActions onBack={onBack}>
          <button type="button" onClick={onContinue} className={primaryButton} data-testid="step-continue">
            {t('subscription.continue')} →
          </button>
        </StepActions>
      </div>
    );
  }

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNotice('');
    setResendRefused('');
    if (!/^\d{6}$/.test(code)) {
      setChecked({ errors: { code: 'subscription.verify.codeFormat' } });
      return;
    }
    setChecked(undefined);
    void verify.call('verify', { code });
  };

  const codeForm = (
    // Without JavaScript the code is a plain form POST to the page's action (the register page's).
    <form method="post" noValidate onSubmit={submit} className="mt-6 space-y-6" data-testid="verify-form">
      <section className="max-w-md space-y-4 rounded-2xl border border-line p-4 sm:p-6">
        <p>{email ? t('subscription.verify.sentTo', { email }) : t('subscription.verify.sentToYou')}</p>
        <div>
          <label htmlFor="verify-code" className="block font-medium">
            {t('subscription.verify.code')}
          </label>
          <input
            ref={input}
            id="verify-code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={12}
            value={code}
            // A pasted "123 456" or "123-456" is the same code.
            onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
            className={`${inputClass} max-w-48 text-center font-mono text-2xl tracking-[0.4em]`}
            aria-invalid={error ? true : undefined}
            aria-describedby={['verify-code-hint', error ? 'verify-code-error' : ''].filter(Boolean).join(' ')}
            data-testid="verify-code"
          />
          <p id="verify-code-hint" className="mt-1 text-sm text-muted">
            {t('subscription.verify.codeHint')}
          </p>
          <FieldError id="verify-code-error" text={error} />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {hydrated ? (
            <button
              type="button"
              disabled={left > 0 || resend.busy}
              onClick={() => void resend.call('resend')}
              className={`${smallButton} disabled:cursor-not-allowed disabled:opacity-60`}
              data-testid="verify-resend"
            >
              {left > 0 ? t('subscription.verify.resendIn', { seconds: left }) : t('subscription.verify.resend')}
            </button>
          ) : (
            // In a form of its own (below), so that Enter in the code's field still submits the code.
            <button
              type="submit"
              form="verify-resend-form"
              name="intent"
              value="resend"
              className={smallButton}
              data-testid="verify-resend"
            >
              {t('subscription.verify.resend')}
            </button>
          )}
          <p role="status" className="text-sm text-muted" data-testid="verify-notice">
            {notice}
          </p>
        </div>
      </section>
      <StepActions onBack={onBack}>
        <button
          type="submit"
          name="intent"
          value="verify"
          disabled={verify.busy}
          className={primaryButton}
          data-testid="verify-submit"
        >
          {t('subscription.verify.submit')} →
        </button>
      </StepActions>
    </form>
  );
  return hydrated ? (
    codeForm
  ) : (
    <>
      {codeForm}
      {/* A form of its own (forms do not nest) for the new code's button, which names it. */}
      <form id="verify-resend-form" method="post" hidden />
    </>
  );
}
