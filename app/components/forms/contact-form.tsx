import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { CONTACT_FORM_FIELDS, contactFormFromForm } from '../../../domain/forms/contact-form-fields';
import { FORM_MESSAGES } from '../../../domain/forms/messages';
import { useLocale } from '../../i18n/messages';
import { Honeypot, TextField } from './fields';
import type { FormResult } from './form-result';
import { useFieldErrors } from './use-field-errors';
import { useFormCheck } from './use-form-check';

/** The confirmation stays this long (spec section 9). */
export const CONFIRMATION_MS = 5000;
const loadSchema = () => import('../../../domain/forms/contact-form').then((module) => module.contactFormSchema);

/**
 * The contact form (name, phone, email, company name). Without JavaScript it posts to the
 * contact-form page, which answers with the form, its errors or its confirmation; with it, the
 * same action is called in place, a confirmation shows for 5 s and the fields clear.
 */
export function ContactForm({ result }: { result?: FormResult }) {
  const { t, locale } = useLocale();
  const fetcher = useFetcher<FormResult>();
  const { formRef, errors, summary, check, prepare, showServerErrors, reset } = useFormCheck(
    loadSchema,
    contactFormFromForm,
    FORM_MESSAGES.failed,
  );
  const [confirmed, setConfirmed] = useState(Boolean(result?.ok));
  const [generation, setGeneration] = useState(0);
  const handled = useRef<unknown>(undefined);

  useEffect(() => {
    const answer = fetcher.data;
    if (fetcher.state !== 'idle' || !answer || handled.current === answer) return;
    handled.current = answer;
    if (answer.ok) {
      reset();
      setGeneration((n) => n + 1);
      setConfirmed(true);
      window.dataLayer?.push({ event: 'contactForm' });
    } else if (Object.keys(answer.errors).length > 0) {
      showServerErrors(answer.errors, answer.message);
    }
  }, [fetcher.state, fetcher.data, reset, showServerErrors]);

  useEffect(() => {
    if (!confirmed) return;
    const timer = setTimeout(() => setConfirmed(false), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [confirmed]);

  // The page's answer to a plain POST, until the browser checks or sends the form itself (whose
  // answers the check shows, `showServerErrors`).
  const server = !fetcher.data && result && !result.ok ? result : undefined;
  const { focus, say } = useFieldErrors(server, server?.errors, CONTACT_FORM_FIELDS, 'contact-');
  const shownErrors = fetcher.data || Object.keys(errors).length ? errors : (server?.errors ?? {});
  const shownSummary = summary || say(server?.message);
  const values = server ? server.values : {};
  const busy = fetcher.state !== 'idle';

  return (
    <div className="relative mx-auto max-w-2xl">
      <fetcher.Form
        ref={formRef}
        method="post"
        action={`/${locale}/contactForm`}
        noValidate
        onSubmit={check}
        onFocus={() => void prepare()}
        key={generation}
        className="grid gap-5 sm:grid-cols-2"
        data-testid="contact-form"
      >
        <p className="text-sm text-muted sm:col-span-2">{t('forms.requiredHint')}</p>
        {shownSummary ? (
          <p
            role="alert"
            className="text-sm font-medium text-red-700 dark:text-red-300 sm:col-span-2"
            data-testid="contact-form-summary"
          >
            {shownSummary}
          </p>
        ) : null}
        {CONTACT_FORM_FIELDS.map((name) => (
          <TextField
            key={name}
            idPrefix="contact-"
            name={name}
            label={t(`forms.fields.${name}`)}
            required
            type={name === 'email' ? 'email' : name === 'phone' ? 'tel' : 'text'}
            autoComplete={{ name: 'name', phone: 'tel', email: 'email', companyName: 'organization' }[name]}
            value={typeof values[name] === 'string' ? values[name] : undefined}
            error={say(shownErrors[name])}
            focus={focus === name}
          />
        ))}
        <Honeypot />
        <div className="sm:col-span-2">
          <button
            type="submit"
            disabled={busy}
            className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {busy ? t('forms.sending') : t('forms.submit')}
          </button>
        </div>
      </fetcher.Form>
      <div role="status" aria-live="polite">
        {confirmed ? (
          <p
            className="mt-4 rounded-lg bg-brand-800 px-4 py-3 text-white shadow-lg"
            data-testid="contact-form-confirmation"
          >
            {t('forms.contact.success')}
          </p>
        ) : null}
      </div>
    </div>
  );
}
