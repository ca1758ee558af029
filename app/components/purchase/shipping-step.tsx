import { useRef, useState } from 'react';
import type { FormErrors } from '../../../domain/forms/messages';
import {
  SHIPPING_COUNTRIES,
  SHIPPING_FIELDS,
  shippingFromForm,
  type ShippingField,
  type ShippingInfo,
} from '../../../domain/forms/shipping-fields';
import { formatDate } from '../../../domain/format';
import { useLocale } from '../../i18n/messages';
import { FieldError, inputClass, invalidProps, TextField } from '../forms/fields';
import { useFieldErrors } from '../forms/use-field-errors';
import { primaryButton, StepActions } from './ui';

/** The days a delivery can be booked on, from the `deliveryDates` service for the country chosen. */
export interface DeliveryDates {
  kind: 'list';
  dates: string[];
}

/** Loaded when the buyer first touches the form, or at the latest on continue (decision 012). */
const loadSchema = () => import('../../../domain/forms/shipping');

/** The fields in the form's order: the first in error takes the focus. */
const FORM_ORDER = [...SHIPPING_FIELDS.filter((field) => field !== 'note'), 'note'] as const;

/**
 * Step 5: where and when to deliver. Every keystroke is saved with the flow's state; on continue
 * the answers are checked with the schema the orders service uses, each error tied to its field
 * and the focus moved to the first.
 */
export function ShippingStep({
  info,
  dates,
  onChange,
  onDone,
  onBack,
}: {
  info: ShippingInfo;
  /** Null while the country's days are on their way (or no country is chosen yet). */
  dates: DeliveryDates | null;
  onChange: (info: ShippingInfo) => void;
  onDone: () => void;
  onBack: () => void;
}) {
  const { t, locale } = useLocale();
  const form = useRef<HTMLFormElement>(null);
  // The last check's answer: its errors and summary as message keys (a new one each attempt).
  const [checked, setChecked] = useState<{ errors: FormErrors; summary: string }>();
  const { errorOf, say } = useFieldErrors(checked, checked?.errors, FORM_ORDER, 'ship-');
  const summary = say(checked?.summary);

  const read = (): ShippingInfo => {
    const answers = new FormData(form.current ?? undefined);
    return Object.fromEntries(
      SHIPPING_FIELDS.map((field) => [field, String(answers.get(field) ?? '')]),
    ) as ShippingInfo;
  };

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const answers = shippingFromForm(new FormData(event.currentTarget));
    const { shippingErrors, FILL_IN_BLANKS, DATE_OUT_OF_RANGE } = await loadSchema();
    const keys = shippingErrors(answers);
    const date = typeof answers.shippingDate === 'string' ? answers.shippingDate : '';
    // The server checks the day again when the order is placed; here only once the days are known.
    if (!keys.shippingDate && date && dates && !dates.dates.includes(date)) keys.shippingDate = DATE_OUT_OF_RANGE;
    const messages = Object.values(keys);
    if (!messages.length) {
      setChecked(undefined);
      onDone();
      return;
    }
    setChecked({
      errors: keys,
      summary: messages.includes('validation.required') ? FILL_IN_BLANKS : 'validation.failed',
    });
  };

  const text = (name: ShippingField, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      name={name}
      idPrefix="ship-"
      label={t(`subscription.shipping.fields.${name}`)}
      required
      value={info[name]}
      error={errorOf(name)}
      {...extra}
    />
  );
  const dateHint = !info.country
    ? t('subscription.shipping.dateCountryFirst')
    : dates
      ? t('subscription.shipping.dateList')
      : t('subscription.shipping.dateLoading');

  return (
    <form
      ref={form}
      noValidate
      onSubmit={(event) => void submit(event)}
      onChange={() => onChange(read())}
      onFocus={() => void loadSchema()}
      className="mt-6 space-y-6"
      data-testid="shipping-form"
    >
      <p className="text-sm text-muted">{t('subscription.shipping.requiredHint')}</p>
      {summary ? (
        <p role="alert" className="font-medium text-red-700 dark:text-red-300" data-testid="shipping-summary">
          {summary}
        </p>
      ) : null}
      <section className="space-y-5 rounded-2xl border border-line p-4 sm:p-6">
        <h2 className="text-xl font-semibold">{t('subscription.shipping.contact')}</h2>
        <div className="grid gap-5 sm:grid-cols-2">
          {text('contactPerson', { autoComplete: 'name' })}
          {text('contactNumber', { type: 'tel', autoComplete: 'tel' })}
        </div>
      </section>
      <section className="space-y-5 rounded-2xl border border-line p-4 sm:p-6">
        <h2 className="text-xl font-semibold">{t('subscription.shipping.address')}</h2>
        <div className="grid gap-5 sm:grid-cols-2">
          {text('room', { required: false, autoComplete: 'address-line2' })}
          {text('street', { autoComplete: 'address-line1' })}
          {text('district', { required: false, autoComplete: 'address-level3' })}
          {text('city', { autoComplete: 'address-level2' })}
          {text('zipcode', { required: info.country !== 'HK', autoComplete: 'postal-code' })}
          <div>
            <label htmlFor="ship-country" className="block font-medium">
              {t('subscription.shipping.fields.country')}
              <span aria-hidden="true"> *</span>
            </label>
            <select
              id="ship-country"
              name="country"
              defaultValue={info.country}
              autoComplete="country"
              className={inputClass}
              {...invalidProps('ship-country', errorOf('country'), false)}
            >
              <option value="">{t('subscription.shipping.choose')}</option>
              {SHIPPING_COUNTRIES.map((code) => (
                <option key={code} value={code}>
                  {t(`subscription.countries.${code}`)}
                </option>
              ))}
            </select>
            <FieldError id="ship-country-error" text={errorOf('country')} />
          </div>
        </div>
      </section>
      <section className="space-y-5 rounded-2xl border border-line p-4 sm:p-6">
        <h2 className="text-xl font-semibold">{t('subscription.shipping.delivery')}</h2>
        <div>
          <label htmlFor="ship-shippingDate" className="block font-medium">
            {t('subscription.shipping.fields.shippingDate')}
            <span aria-hidden="true"> *</span>
          </label>
          <select
            // A new country brings its own days: the list (and a day chosen for another country) starts again.
            key={dates ? info.country : 'none'}
            id="ship-shippingDate"
            name="shippingDate"
            defaultValue={dates?.dates.includes(info.shippingDate) ? info.shippingDate : ''}
            disabled={!dates}
            className={`${inputClass} sm:max-w-xs`}
            {...invalidProps('ship-shippingDate', errorOf('shippingDate'), false)}
            aria-describedby={['ship-date-hint', errorOf('shippingDate') ? 'ship-shippingDate-error' : '']
              .filter(Boolean)
              .join(' ')}
            data-testid="shipping-date"
          >
            <option value="">{t('subscription.shipping.choose')}</option>
            {(dates?.dates ?? []).map((date) => (
              <option key={date} value={date}>
                {formatDate(`${date}T12:00:00+08:00`, locale)}
              </option>
            ))}
          </select>
          <p id="ship-date-hint" className="mt-1 text-sm text-muted">
            {dateHint}
          </p>
          <FieldError id="ship-shippingDate-error" text={errorOf('shippingDate')} />
        </div>
        {text('note', { required: false, multiline: true })}
      </section>
      <StepActions onBack={onBack}>
        <button type="submit" className={primaryButton} data-testid="step-continue">
          {t('subscription.continue')} →
        </button>
      </StepActions>
    </form>
  );
}
