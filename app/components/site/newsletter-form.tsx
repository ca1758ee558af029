import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { errorsFor, type NewsletterCampaign, type NewsletterErrors, type NewsletterValues } from '../../../domain/validation/newsletter';
import { useLocale } from '../../i18n/messages';

export interface NewsletterResult {
  ok?: boolean;
  errors?: NewsletterErrors;
  values?: Partial<NewsletterValues>;
  error?: string;
}

const HONEYPOT = 'website_url';

/**
 * The microsite's newsletter form. The same rules run here before sending and on the server;
 * without JavaScript it is a plain POST that the page answers with its messages.
 */
export function NewsletterForm({ campaign, action, result }: { campaign: NewsletterCampaign; action: string; result?: NewsletterResult }) {
  const { t } = useLocale();
  const fetcher = useFetcher<NewsletterResult>();
  const answer = fetcher.data ?? result;
  const [errors, setErrors] = useState<NewsletterErrors>(answer?.errors ?? {});
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => setErrors(answer?.errors ?? {}), [answer]);
  useEffect(() => {
    const first = Object.keys(errors)[0];
    if (first) form.current?.querySelector<HTMLInputElement>(`[name=${first}]`)?.focus();
  }, [errors]);

  if (answer?.ok) {
    return (
      <div role="status" className="rounded-2xl bg-brand-50 p-8 text-center text-brand-950" data-testid="newsletter-thanks">
        <p className="text-2xl font-bold">{t('newsletter.thanks')}</p>
        <p className="mt-2">{t('newsletter.thanksLead')}</p>
      </div>
    );
  }
  const fields: (keyof NewsletterValues)[] = campaign === 'sg23' ? ['name', 'companyName', 'phone', 'email'] : ['name', 'email'];
  const labels: Record<keyof NewsletterValues, string> = {
    name: t('newsletter.name'),
    companyName: t('newsletter.companyName'),
    phone: t('newsletter.phone'),
    email: t('newsletter.email'),
  };
  const busy = fetcher.state !== 'idle';
  return (
    <fetcher.Form
      ref={form}
      method="post"
      action={action}
      noValidate
      className="grid gap-4 sm:grid-cols-2"
      data-testid="newsletter-form"
      onSubmit={(event) => {
        const data = new FormData(event.currentTarget);
        const value = (field: keyof NewsletterValues) => String(data.get(field) ?? '');
        const found = errorsFor(campaign, { name: value('name'), companyName: value('companyName'), phone: value('phone'), email: value('email') });
        if (Object.keys(found).length > 0) {
          event.preventDefault();
          setErrors(found);
        }
      }}
    >
      {fields.map((field) => (
        <div key={field}>
          <label htmlFor={`newsletter-${field}`} className="block font-medium">{labels[field]}</label>
          <input
            id={`newsletter-${field}`}
            name={field}
            type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
            autoComplete={field === 'email' ? 'email' : field === 'phone' ? 'tel' : field === 'companyName' ? 'organization' : 'name'}
            defaultValue={answer?.values?.[field] ?? ''}
            aria-invalid={errors[field] ? true : undefined}
            aria-describedby={errors[field] ? `newsletter-${field}-error` : undefined}
            className="mt-1.5 w-full rounded-lg border border-line bg-raised px-3.5 py-2.5 text-ink aria-[invalid=true]:border-red-600"
          />
          {errors[field] ? (
            <p id={`newsletter-${field}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">{t(errors[field]!)}</p>
          ) : null}
        </div>
      ))}
      <div className="sr-only" aria-hidden="true">
        <label htmlFor="newsletter-website">{t('newsletter.honeypot')}</label>
        <input id="newsletter-website" name={HONEYPOT} tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      {answer?.error ? <p role="alert" className="text-red-700 sm:col-span-2 dark:text-red-300">{answer.error}</p> : null}
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy} className="rounded-full bg-accent-400 px-6 py-3 font-semibold text-brand-950 hover:bg-accent-500 disabled:opacity-60">
          {t('newsletter.submit')}
        </button>
      </div>
    </fetcher.Form>
  );
}
