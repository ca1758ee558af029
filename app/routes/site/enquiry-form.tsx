import { useEffect, useRef } from 'react';
import { data, Link, useFetcher } from 'react-router';
import {
  BUSINESS_TYPES,
  CONSULTATION_TYPES,
  CONTACT_METHODS,
  COUNTRY_CODES,
  CUSTOMER_TYPES,
  ENQUIRY_FIELDS,
  enquiryFromForm,
  SALUTATIONS,
} from '../../../domain/forms/enquiry-fields';
import { HONEYPOT_FIELD, textOf } from '../../../domain/forms/messages';
import { localeOf, localized, type I18nText } from '../../../domain/locales';
import { ChoiceGroup, FieldError, Honeypot, inputClass, invalidProps, TextField } from '../../components/forms/fields';
import type { FormResult } from '../../components/forms/form-result';
import { useFieldErrors } from '../../components/forms/use-field-errors';
import { useFormCheck } from '../../components/forms/use-form-check';
import { serverContext } from '../../context';
import { submitForm } from '../../forms.server';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { siteLinks, useSite } from '../../shell';
import type { Route } from './+types/enquiry-form';

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['forms'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { api, user } = context.get(serverContext);
  const call = { provider: 'ssr', user };
  const [plans, modules] = await Promise.all([
    api
      .service('appTemplates')
      .find({ ...call, query: { $select: ['key', 'name'], $sort: { monthPrice: 1 }, $limit: 100 } }),
    api.service('modules').find({ ...call, query: { $select: ['key', 'name'], $limit: 100 } }),
  ]);
  // Only what has a key can be chosen: the form sends the key.
  const options = (items: { key: string | null; name: I18nText }[]) =>
    items.flatMap((item) =>
      item.key ? [{ value: item.key, label: localized(item.name, localeOf(params.lang)) || item.key }] : [],
    );
  const planOptions = options(plans.data);
  const wanted = new URL(request.url).searchParams.get('plan');
  return {
    plans: planOptions,
    modules: options(modules.data),
    plan: planOptions.some((plan) => plan.value === wanted) ? wanted : null,
    messages: pageMessages(params.lang, messageGroups),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const answers = { ...enquiryFromForm(form), [HONEYPOT_FIELD]: textOf(form, HONEYPOT_FIELD) };
  const { result, status } = await submitForm(context.get(serverContext), 'enquiries', answers, params.lang);
  return data(result, { status });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'forms.enquiry.title', description: 'forms.enquiry.description' });
}

const loadSchema = () => import('../../../domain/forms/enquiry').then((module) => module.enquirySchema);

export default function EnquiryFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  const fetcher = useFetcher<FormResult>();
  const { formRef, errors, summary, check, prepare, showServerErrors } = useFormCheck(loadSchema, enquiryFromForm);
  const answer: FormResult | undefined = fetcher.data ?? actionData;
  const handled = useRef<unknown>(undefined);
  const thanks = useRef<HTMLHeadingElement>(null);
  // The page's answer to a plain POST, until the browser checks or sends the form itself (whose
  // answers the check shows, `showServerErrors`).
  const server = !fetcher.data && actionData && !actionData.ok ? actionData : undefined;
  const { focus, say } = useFieldErrors(server, server?.errors, ENQUIRY_FIELDS, '');

  useEffect(() => {
    if (!fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    if (!fetcher.data.ok) showServerErrors(fetcher.data.errors, fetcher.data.message);
  }, [fetcher.data, showServerErrors]);
  useEffect(() => {
    if (answer?.ok) thanks.current?.focus();
  }, [answer?.ok]);

  if (answer?.ok) {
    return (
      <section className="mx-auto max-w-2xl px-4 py-20 text-center" data-testid="enquiry-thanks">
        <h1 ref={thanks} tabIndex={-1} className="text-3xl font-bold tracking-tight">
          {t('forms.enquiry.thanksHeading')}
        </h1>
        <p role="status" className="mt-4 text-lg" data-testid="enquiry-success">
          {t('forms.enquiry.success')}
        </p>
        <Link
          to={links.home}
          className="mt-8 inline-block rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
        >
          {t('forms.enquiry.home')}
        </Link>
      </section>
    );
  }

  const shown = Object.keys(errors).length || fetcher.data ? errors : (server?.errors ?? {});
  const shownErrors = Object.fromEntries(Object.entries(shown).map(([name, error]) => [name, say(error)]));
  const shownSummary = summary || say(server?.message);
  const values = server?.values ?? {};
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const list = (name: string) => (Array.isArray(values[name]) ? (values[name] as string[]) : []);
  const options = (name: string, keys: readonly string[]) =>
    keys.map((value) => ({ value, label: t(`forms.options.${name}.${value}`) }));
  const field = (name: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      name={name}
      label={t(`forms.fields.${name}`)}
      required
      value={text(name)}
      error={shownErrors[name]}
      focus={focus === name}
      {...extra}
    />
  );
  const select = (name: string, choices: { value: string; label: string }[], chosen?: string | null) => (
    <div>
      <label htmlFor={name} className="block font-medium">
        {t(`forms.fields.${name}`)}
        <span aria-hidden="true"> *</span>
      </label>
      <select
        id={name}
        name={name}
        defaultValue={text(name) ?? chosen ?? ''}
        className={inputClass}
        {...invalidProps(name, shownErrors[name], focus === name)}
      >
        <option value="">{t('forms.choose')}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      <FieldError id={`${name}-error`} text={shownErrors[name]} />
    </div>
  );
  const group = (legend: string, children: React.ReactNode) => (
    <section className="space-y-5 rounded-2xl border border-line p-5 sm:p-6">
      <h2 className="text-xl font-semibold">{legend}</h2>
      {children}
    </section>
  );
  const busy = fetcher.state !== 'idle';

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{t('forms.enquiry.heading')}</h1>
      <p className="mt-3 text-lg text-muted">{t('forms.enquiry.lead')}</p>
      <fetcher.Form
        ref={formRef}
        method="post"
        noValidate
        onSubmit={check}
        onFocus={() => void prepare()}
        className="mt-8 space-y-6"
        data-testid="enquiry-form"
      >
        <p className="text-sm text-muted">{t('forms.requiredHint')}</p>
        {shownSummary ? (
          <p role="alert" className="font-medium text-red-700 dark:text-red-300" data-testid="enquiry-summary">
            {shownSummary}
          </p>
        ) : null}
        {group(
          t('forms.enquiry.aboutYou'),
          <>
            <ChoiceGroup
              name="salutation"
              type="radio"
              legend={t('forms.fields.salutation')}
              options={options('salutation', SALUTATIONS)}
              checked={[text('salutation') ?? '']}
              error={shownErrors.salutation}
              focus={focus === 'salutation'}
            />
            <div className="grid gap-5 sm:grid-cols-2">
              {field('firstName', { autoComplete: 'given-name' })}
              {field('lastName', { autoComplete: 'family-name' })}
            </div>
          </>,
        )}
        {group(
          t('forms.enquiry.business'),
          <>
            {field('companyName', { autoComplete: 'organization' })}
            <ChoiceGroup
              name="customerType"
              type="radio"
              legend={t('forms.fields.customerType')}
              options={options('customerType', CUSTOMER_TYPES)}
              checked={[text('customerType') ?? '']}
              error={shownErrors.customerType}
              focus={focus === 'customerType'}
            />
            <ChoiceGroup
              name="businessType"
              type="radio"
              legend={t('forms.fields.businessType')}
              options={options('businessType', BUSINESS_TYPES)}
              checked={[text('businessType') ?? '']}
              error={shownErrors.businessType}
              focus={focus === 'businessType'}
            />
            {field('companyWebsite', { required: false, type: 'url', autoComplete: 'url' })}
          </>,
        )}
        {group(
          t('forms.enquiry.needs'),
          <>
            {select('planNeeded', loaderData.plans, loaderData.plan)}
            {field('needDescription', { required: false, multiline: true })}
            {field('customFeatures', { required: false, multiline: true })}
            <fieldset>
              <legend className="font-medium">
                {t('forms.fields.advancedFeatures')}{' '}
                <span className="font-normal text-muted">({t('forms.optional')})</span>
              </legend>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                {loaderData.modules.map((module) => (
                  <label key={module.value} className="inline-flex items-center gap-2">
                    <input
                      type="checkbox"
                      name="advancedFeatures"
                      value={module.value}
                      defaultChecked={list('advancedFeatures').includes(module.value)}
                      className="h-4 w-4 accent-brand-700"
                    />
                    {module.label}
                  </label>
                ))}
              </div>
            </fieldset>
            <ChoiceGroup
              name="consultationType"
              type="radio"
              legend={t('forms.fields.consultationType')}
              options={options('consultationType', CONSULTATION_TYPES)}
              checked={[text('consultationType') ?? '']}
              error={shownErrors.consultationType}
              focus={focus === 'consultationType'}
            />
          </>,
        )}
        {group(
          t('forms.enquiry.reach'),
          <>
            <ChoiceGroup
              name="contactMethods"
              type="checkbox"
              legend={t('forms.fields.contactMethods')}
              options={options('contactMethods', CONTACT_METHODS)}
              checked={list('contactMethods')}
              error={shownErrors.contactMethods}
              focus={focus === 'contactMethods'}
            />
            {field('email', { type: 'email', autoComplete: 'email' })}
            <div className="grid gap-5 sm:grid-cols-[10rem_1fr]">
              {select(
                'countryCode',
                COUNTRY_CODES.map((code) => ({ value: code, label: code })),
                '+852',
              )}
              {field('phone', { type: 'tel', autoComplete: 'tel-national' })}
            </div>
          </>,
        )}
        <div>
          <label className="inline-flex items-start gap-2">
            <input
              type="checkbox"
              name="personalDataConsent"
              value="true"
              defaultChecked={values.personalDataConsent === true}
              className="mt-1 h-4 w-4 accent-brand-700"
              {...invalidProps('personalDataConsent', shownErrors.personalDataConsent, focus === 'personalDataConsent')}
            />
            <span>{t('forms.fields.personalDataConsent')}</span>
          </label>
          <p className="mt-1 text-sm">
            <Link to={links.terms} className="text-brand-700 underline dark:text-brand-300">
              {t('forms.enquiry.statement')}
            </Link>
          </p>
          <FieldError id="personalDataConsent-error" text={shownErrors.personalDataConsent} />
        </div>
        <Honeypot />
        <button
          type="submit"
          disabled={busy}
          className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {busy ? t('forms.sending') : t('forms.submit')}
        </button>
      </fetcher.Form>
    </div>
  );
}
