import { useCallback, useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { HONEYPOT_FIELD } from '../../../domain/forms/messages';
import {
  CAMPAIGN_FIELDS,
  type NewsletterCampaign,
  type NewsletterField,
  newsletterFromForm,
} from '../../../domain/forms/newsletter-fields';
import { useLocale } from '../../i18n/messages';
import type { FormResult } from '../forms/form-result';
import { useFieldErrors } from '../forms/use-field-errors';
import { useFormCheck } from '../forms/use-form-check';

const loadSchemas = () => import('../../../domain/forms/newsletter').then((module) => module.newsletterSchemas);

/**
 * A microsite's newsletter form: the campaign's schema checks it in the browser before it is sent,
 * and the `subscribers` service checks the same rules; without JavaScript it is a plain POST that
 * the page answers with its messages. Render it with the campaign as its `key`, so another
 * campaign's page starts with its own schema.
 */
export function NewsletterForm({
  campaign,
  action,
  result,
}: {
  campaign: NewsletterCampaign;
  action: string;
  result?: FormResult;
}) {
  const { t } = useLocale();
  const fetcher = useFetcher<FormResult>();
  const loadSchema = useCallback(() => loadSchemas().then((schemas) => schemas[campaign]), [campaign]);
  const { formRef, errors, check, prepare, showServerErrors } = useFormCheck(loadSchema, newsletterFromForm);
  const answer = fetcher.data ?? result;
  const handled = useRef<unknown>(undefined);
  const fields = CAMPAIGN_FIELDS[campaign];
  // The page's answer to a plain POST, until the browser checks or sends the form itself (whose
  // answers the check shows, `showServerErrors`).
  const server = !fetcher.data && result && !result.ok ? result : undefined;
  const { focus, say } = useFieldErrors(server, server?.errors, fields, 'newsletter-');

  useEffect(() => {
    if (!fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    if (!fetcher.data.ok) showServerErrors(fetcher.data.errors, '');
  }, [fetcher.data, showServerErrors]);

  if (answer?.ok) {
    return (
      <div
        role="status"
        className="rounded-2xl bg-brand-50 p-8 text-center text-brand-950"
        data-testid="newsletter-thanks"
      >
        <p className="text-2xl font-bold">{t('newsletter.thanks')}</p>
        <p className="mt-2">{t('newsletter.thanksLead')}</p>
      </div>
    );
  }
  const labels: Record<NewsletterField, string> = {
    name: t('newsletter.name'),
    companyName: t('newsletter.companyName'),
    phone: t('newsletter.phone'),
    email: t('newsletter.email'),
  };
  const shownErrors: Record<string, string> =
    Object.keys(errors).length || fetcher.data ? errors : (server?.errors ?? {});
  const values = server?.values ?? {};
  // A refusal no field carries (too many sign-ups), or a failure the visitor can only retry.
  const failure =
    answer && !answer.ok && Object.keys(answer.errors).length === 0
      ? say(answer.message) || t('newsletter.failed')
      : '';
  const busy = fetcher.state !== 'idle';
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action={action}
      noValidate
      onSubmit={check}
      onFocus={() => void prepare()}
      className="grid gap-4 sm:grid-cols-2"
      data-testid="newsletter-form"
    >
      {fields.map((field) => {
        const id = `newsletter-${field}`;
        const error = say(shownErrors[field]);
        const value = values[field];
        return (
          <div key={field}>
            <label htmlFor={id} className="block font-medium">
              {labels[field]}
            </label>
            <input
              id={id}
              name={field}
              type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
              autoComplete={
                field === 'email'
                  ? 'email'
                  : field === 'phone'
                    ? 'tel'
                    : field === 'companyName'
                      ? 'organization'
                      : 'name'
              }
              defaultValue={typeof value === 'string' ? value : ''}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              autoFocus={focus === field || undefined}
              className="mt-1.5 w-full rounded-lg border border-line bg-raised px-3.5 py-2.5 text-ink aria-[invalid=true]:border-red-600"
            />
            {error ? (
              <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <div className="sr-only" aria-hidden="true">
        <label htmlFor="newsletter-website">{t('newsletter.honeypot')}</label>
        <input id="newsletter-website" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      {failure ? (
        <p role="alert" className="text-red-700 sm:col-span-2 dark:text-red-300">
          {failure}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <button
          type="submit"
          disabled={busy}
          className="rounded-full bg-accent-400 px-6 py-3 font-semibold text-brand-950 hover:bg-accent-500 disabled:opacity-60"
        >
          {t('newsletter.submit')}
        </button>
      </div>
    </fetcher.Form>
  );
}
