import { useState } from 'react';
import { data, Form, redirect, useNavigation } from 'react-router';
import type { FeaturesPayload, Region } from '../../../domain/features';
import { CURRENCY_CODES, isCurrency } from '../../../domain/money';
import { localeOf } from '../../../domain/locales';
import { REGION_ROWS, settingsFromForm, settingsSchema } from '../../../domain/forms/settings';
import { requireStaff } from '../../auth.server';
import { FieldError, inputClass } from '../../components/forms/fields';
import { readAsSent } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import { useFieldErrors } from '../../components/forms/use-field-errors';
import { primaryButton, smallButton } from '../../components/ui/buttons';
import { serverContext, type ServerContext } from '../../context';
import { flashCookie } from '../../feedback.server';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { memberCallParams } from '../../api/call-params.server';
import type { Route } from './+types/settings';
import { useActionAnswer } from '../../action-answer';

/*
 * `/{locale}/admin/settings`: the site's settings of the features payload (issue 21): the contact
 * form and subscription switches, the markets (regions) the site sells in, the currencies it shows
 * prices in, and the defaults of each. Admins change them; every open page hears the change.
 */

export const messageGroups = ['forms'] as const;

const featuresOf = (ctx: ServerContext) => ctx.api.service('features');

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireStaff(ctx, request, params.lang);
  const settings = await featuresOf(ctx).find(memberCallParams(ctx, localeOf(params.lang)));
  return { settings, canChange: user.role === 'admin', messages: pageMessages(params.lang, messageGroups) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'admin.settings.title', index: false });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const user = requireStaff(ctx, request, params.lang);
  if (user.role !== 'admin') throw data(null, { status: 403 });
  const lang = localeOf(params.lang);
  // The features service checks the settings itself, and says what is wrong in the page's language.
  const changes = await readAsSent(request, settingsSchema, settingsFromForm);
  try {
    await featuresOf(ctx).patch(null, changes, memberCallParams(ctx, lang));
  } catch (caught) {
    const { refused, status, message, errors } = refusalOf(caught);
    if (!refused) throw caught;
    return data({ message, errors, values: changes }, { status });
  }
  return redirect(`/${lang}/admin/settings`, {
    headers: { 'set-cookie': flashCookie({ type: 'success', key: 'admin.saved' }, ctx.secureCookies) },
  });
}

/**
 * The settings' errors are said next to their controls and summed up above the form; the focus
 * stays where it is (no field is named to take it), as the page has always done.
 */
const FOCUS_ORDER: readonly string[] = [];

export default function AdminSettings({ loaderData, actionData: answered }: Route.ComponentProps) {
  const actionData = useActionAnswer(answered);
  const { t } = useLocale();
  const navigation = useNavigation();
  const values = actionData?.values;
  const shown: FeaturesPayload = values
    ? { ...values, currency: isCurrency(values.currency) ? values.currency : undefined }
    : loaderData.settings;
  const errors = actionData?.errors ?? {};
  const { errorOf, say } = useFieldErrors(actionData, actionData?.errors, FOCUS_ORDER, 'settings-');
  const readOnly = !loaderData.canChange;
  // The markets as rows, with one empty row to add another.
  const [regions, setRegions] = useState<Region[]>(() => [
    ...(shown.regions ?? []),
    { code: '', name: '', region: '', url: '' },
  ]);
  const codes = (shown.regions ?? []).map((region) => region.code);
  const saving = navigation.state === 'submitting';
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold" data-testid="admin-heading">
        {t('admin.settings.title')}
      </h1>
      <p className="mt-1 text-muted">{t(readOnly ? 'admin.settings.readOnly' : 'admin.settings.lead')}</p>
      {actionData ? (
        <div
          role="alert"
          className="mt-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          data-testid="settings-error"
        >
          {Object.keys(errors).length > 0 ? t('admin.editor.fixErrors') : say(actionData.message)}
        </div>
      ) : null}
      <Form method="post" className="mt-6 space-y-6" data-testid="settings-form">
        <fieldset disabled={readOnly} className="min-w-0 space-y-6">
          <section className="rounded-2xl border border-line bg-raised p-5" aria-labelledby="settings-switches">
            <h2 id="settings-switches" className="font-semibold">
              {t('admin.settings.switches')}
            </h2>
            <div className="mt-3 space-y-3">
              {(['contactForm', 'subscription'] as const).map((flag) => (
                <label key={flag} className="flex items-start gap-3">
                  <input
                    type="checkbox"
                    name={flag}
                    defaultChecked={shown[flag]}
                    className="mt-1 h-4 w-4 accent-brand-700"
                    data-testid={`settings-${flag}`}
                  />
                  <span>
                    <span className="block font-medium">{t(`admin.settings.${flag}`)}</span>
                    <span className="block text-sm text-muted">{t(`admin.settings.${flag}Hint`)}</span>
                  </span>
                </label>
              ))}
            </div>
          </section>

          <section className="rounded-2xl border border-line bg-raised p-5" aria-labelledby="settings-regions">
            <h2 id="settings-regions" className="font-semibold">
              {t('admin.settings.regions')}
            </h2>
            <p className="mt-1 text-sm text-muted">{t('admin.settings.regionsHint')}</p>
            <div className="mt-3 overflow-x-auto">
              <table className="w-full text-left text-sm" data-testid="settings-regions">
                <thead className="text-xs text-muted">
                  <tr>
                    {(['code', 'name', 'region', 'url'] as const).map((part) => (
                      <th key={part} scope="col" className="py-1 pr-2 font-semibold">
                        {t(`admin.settings.region.${part}`)}
                      </th>
                    ))}
                    <th scope="col" className="py-1 font-semibold">
                      {t('admin.remove')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {regions.map((region, index) => (
                    <tr key={index}>
                      {(['code', 'name', 'region', 'url'] as const).map((part) => (
                        <td key={part} className="py-1 pr-2">
                          <input
                            name={`regions.${index}.${part}`}
                            defaultValue={region[part]}
                            aria-label={`${t(`admin.settings.region.${part}`)} ${index + 1}`}
                            aria-invalid={errorOf(`regions.${index}.${part}`) ? true : undefined}
                            className={`${inputClass} mt-0 min-w-24`}
                            data-testid={`region-${index}-${part}`}
                          />
                        </td>
                      ))}
                      <td className="py-1 text-center">
                        <input
                          type="checkbox"
                          name={`regions.${index}.remove`}
                          aria-label={`${t('admin.remove')} ${index + 1}`}
                          className="h-4 w-4 accent-red-700"
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <button
              type="button"
              className={`${smallButton} mt-3`}
              onClick={() => setRegions((rows) => [...rows, { code: '', name: '', region: '', url: '' }])}
              disabled={regions.length >= REGION_ROWS}
            >
              {t('admin.settings.addRegion')}
            </button>
            <FieldError id="regions-error" text={errorOf('regions')} />
            <label className="mt-4 block max-w-xs">
              <span className="block font-medium">{t('admin.settings.defaultRegion')}</span>
              <select name="region" defaultValue={shown.region} className={inputClass} data-testid="settings-region">
                {codes.map((code) => (
                  <option key={code} value={code}>
                    {t('currencies.withCode', { code, name: t(`currencies.names.${code}`) })}
                  </option>
                ))}
              </select>
            </label>
            <FieldError id="region-error" text={errorOf('region')} />
          </section>

          <section className="rounded-2xl border border-line bg-raised p-5" aria-labelledby="settings-currencies">
            <h2 id="settings-currencies" className="font-semibold">
              {t('admin.settings.currencies')}
            </h2>
            <div className="mt-3 flex flex-wrap gap-x-5 gap-y-2">
              {/* The offered ones first, in their order (the order pages list them in), then the others. */}
              {[
                ...(shown.currencies ?? []),
                ...CURRENCY_CODES.filter((code) => !(shown.currencies ?? []).includes(code)),
              ].map((code) => (
                <label key={code} className="inline-flex items-center gap-2">
                  <input
                    type="checkbox"
                    name="currencies"
                    value={code}
                    defaultChecked={(shown.currencies ?? []).includes(code)}
                    className="h-4 w-4 accent-brand-700"
                    data-testid={`settings-currency-${code}`}
                  />
                  {t('currencies.withCode', { code, name: t(`currencies.names.${code}`) })}
                </label>
              ))}
            </div>
            <FieldError id="currencies-error" text={errorOf('currencies')} />
            <label className="mt-4 block max-w-xs">
              <span className="block font-medium">{t('admin.settings.defaultCurrency')}</span>
              <select
                name="currency"
                defaultValue={shown.currency}
                className={inputClass}
                data-testid="settings-currency"
              >
                {CURRENCY_CODES.map((code) => (
                  <option key={code} value={code}>
                    {t('currencies.withCode', { code, name: t(`currencies.names.${code}`) })}
                  </option>
                ))}
              </select>
            </label>
            <FieldError id="currency-error" text={errorOf('currency')} />
          </section>
        </fieldset>
        {readOnly ? null : (
          <div className="flex justify-end">
            <button type="submit" className={primaryButton} disabled={saving} data-testid="settings-save">
              {t('admin.editor.save')}
            </button>
          </div>
        )}
      </Form>
    </div>
  );
}
