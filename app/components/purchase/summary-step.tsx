import { PREPAID_OPTIONS } from '../../../domain/calculator';
import { SHIPPING_COUNTRIES, type ShippingCountry } from '../../../domain/forms/shipping-fields';
import { formatMoney } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import { marketOf } from '../../../domain/orders/countries';
import type { OrderPrice } from '../../../domain/orders/pricing';
import { taxFor } from '../../../domain/tax';
import { PERIOD_MONTHS } from '../../../domain/billing/schedule';
import { BILLING_PERIODS, type BillingPeriod } from '../../../domain/orders/request';
import type { OrderPreview, PreviewLine } from './order-preview';
import { smallButton } from './ui';

const BILLING_SUFFIX = {
  monthly: 'subscription.summary.perMonth',
  yearly: 'subscription.summary.perYear',
  one_time: 'subscription.summary.once',
} as const;

/** What the buyer pays now and after: the contract of the plan type against the months prepaid (decision 018). */
export function useContractNote() {
  const { t } = useLocale();
  return (preview: OrderPreview) => {
    const months = preview.quote.prepaidMonths;
    if (preview.plan.type === 'lite') return t('subscription.summary.contractLite', { months });
    const contract = preview.plan.contractMonths || 12;
    return t('subscription.summary.contractFlexi', { months, contract, term: Math.max(contract, months) });
  };
}

/**
 * Step 4: the order. Every add-on line has its remove button (the plan line leads back to the
 * plans); the months paid ahead and the country of delivery (which sets the currency and, for
 * Singapore, the GST shown) are chosen here.
 */
export function SummaryStep({
  preview,
  confirmed,
  country,
  onRemove,
  onChangePlan,
  onMonths,
  period,
  onPeriod,
  onCountry,
}: {
  preview: OrderPreview;
  /** The server's price of this choice once it answered (the `quotes` service); the preview until then. */
  confirmed: OrderPrice | null;
  country: ShippingCountry | '';
  onRemove: (id: string) => void;
  onChangePlan: () => void;
  onMonths: (months: number) => void;
  /** How the plan bills once the prepaid months are over. */
  period: BillingPeriod;
  onPeriod: (period: BillingPeriod) => void;
  onCountry: (country: ShippingCountry) => void;
}) {
  const { t, locale } = useLocale();
  const contractNote = useContractNote();
  const { quote } = preview;
  const money = (amount: number) => formatMoney({ amount, currency: quote.currency }, locale);
  // The server's figures when they are in; until then the preview, with the tax rule the server uses.
  const due = confirmed?.total ?? quote.prepaid;
  const tax = confirmed
    ? { taxRate: confirmed.taxRate, tax: confirmed.tax }
    : country
      ? taxFor(marketOf(country).seller, quote.prepaid)
      : null;
  const gst = tax && tax.taxRate ? { rate: tax.taxRate, tax: tax.tax } : null;
  const lineName = (line: PreviewLine) => `${localized(line.name, locale)}${line.counter ? ` × ${line.count}` : ''}`;
  return (
    <div className="mt-6 space-y-6">
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="summary-country" className="block font-medium">
            {t('subscription.summary.country')}
          </label>
          <select
            id="summary-country"
            value={country}
            onChange={(event) => onCountry(event.target.value as ShippingCountry)}
            aria-describedby="summary-country-hint"
            className={inputClass}
          >
            {country ? null : <option value="">{t('subscription.shipping.choose')}</option>}
            {SHIPPING_COUNTRIES.map((code) => (
              <option key={code} value={code}>
                {t(`subscription.countries.${code}`)}
              </option>
            ))}
          </select>
          <p id="summary-country-hint" className="mt-1 text-sm text-muted">
            {t('subscription.summary.countryHint', { currency: quote.currency })}
          </p>
        </div>
        <div>
          <label htmlFor="summary-months" className="block font-medium">
            {t('pricing.months')}
          </label>
          <select
            id="summary-months"
            value={quote.prepaidMonths}
            onChange={(event) => onMonths(Number(event.target.value))}
            className={inputClass}
          >
            {PREPAID_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {t('pricing.monthsOption', { count: option })}
              </option>
            ))}
          </select>
        </div>
        <div className="sm:col-span-2">
          <label htmlFor="summary-period" className="block font-medium">
            {t('subscription.summary.period')}
          </label>
          <select
            id="summary-period"
            value={period}
            onChange={(event) => onPeriod(event.target.value === 'annual' ? 'annual' : 'monthly')}
            aria-describedby="summary-period-hint"
            className={`${inputClass} sm:max-w-md`}
            data-testid="summary-period"
          >
            {BILLING_PERIODS.map((option) => (
              <option key={option} value={option}>
                {t(`subscription.summary.periods.${option}`)}
              </option>
            ))}
          </select>
          <p id="summary-period-hint" className="mt-1 text-sm text-muted" data-testid="summary-period-hint">
            {t(`subscription.summary.periodHints.${period}`, {
              months: quote.prepaidMonths,
              price: money((confirmed?.monthly ?? quote.monthly) * PERIOD_MONTHS[period]),
            })}
          </p>
        </div>
      </div>

      <section aria-labelledby="items-heading" className="rounded-2xl border border-line bg-raised">
        <h2 id="items-heading" className="border-b border-line px-4 py-3 font-semibold sm:px-5">
          {t('subscription.summary.items')}
        </h2>
        <ul className="divide-y divide-line" data-testid="summary-lines">
          {preview.lines.map((line) => (
            <li
              key={line.key}
              className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4 sm:px-5"
              data-testid="summary-line"
              data-kind={line.kind}
            >
              <div className="min-w-0 sm:flex-1">
                <p className="font-medium">{lineName(line)}</p>
                <p className="text-sm text-muted">
                  {line.kind === 'plan'
                    ? t('subscription.summary.planLine')
                    : t(BILLING_SUFFIX[line.billing], { price: money(line.unitPrice) })}
                  {line.counter ? ` × ${line.count}` : ''}
                </p>
              </div>
              <div className="flex items-center justify-between gap-4">
                <p className="font-semibold whitespace-nowrap" data-testid="line-amount">
                  {t(BILLING_SUFFIX[line.billing], { price: money(line.amount) })}
                </p>
                {line.kind === 'plan' ? (
                  <button type="button" onClick={onChangePlan} className={smallButton} data-testid="change-plan">
                    {t('subscription.summary.changePlan')}
                  </button>
                ) : (
                  <button
                    type="button"
                    onClick={() => onRemove(line.id)}
                    aria-label={t('subscription.summary.removeLabel', { item: lineName(line) })}
                    className={smallButton}
                    data-testid="remove-line"
                  >
                    {t('subscription.summary.remove')}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="totals-heading"
        className="rounded-2xl border border-brand-500 bg-raised p-4 sm:p-5"
        data-testid="summary-totals"
      >
        <h2 id="totals-heading" className="font-semibold">
          {t('subscription.summary.totals')}
        </h2>
        <dl className="mt-3 space-y-2" aria-live="polite">
          <TotalRow
            label={t('pricing.monthly')}
            value={money(confirmed?.monthly ?? quote.monthly)}
            testId="summary-monthly"
          />
          {quote.yearly ? (
            <TotalRow
              label={t('pricing.yearly')}
              value={t(BILLING_SUFFIX.yearly, { price: money(quote.yearly) })}
              testId="summary-yearly"
            />
          ) : null}
          {quote.oneTime ? (
            <TotalRow label={t('pricing.oneTime')} value={money(quote.oneTime)} testId="summary-one-time" />
          ) : null}
          <TotalRow
            label={t('pricing.prepaid', { months: quote.prepaidMonths })}
            value={money(confirmed?.subtotal ?? quote.prepaid)}
            testId="summary-prepaid"
          />
          {gst ? (
            <TotalRow
              label={t('subscription.summary.gstIncluded', { rate: gst.rate / 100 })}
              value={money(gst.tax)}
              testId="summary-gst"
              muted
            />
          ) : null}
          <div className="flex items-baseline justify-between gap-4 border-t border-line pt-3">
            <dt className="text-lg font-semibold">{t('subscription.summary.dueNow')}</dt>
            <dd
              className="text-2xl text-figure"
              data-testid="summary-due"
              data-confirmed={confirmed ? 'true' : 'false'}
            >
              {money(due)}
            </dd>
          </div>
        </dl>
        <p className="mt-4 text-sm" data-testid="contract-note">
          {contractNote(preview)}
        </p>
        <p className="mt-2 text-xs text-muted">{t('pricing.gst')}</p>
        <p className="mt-1 text-xs text-muted">{t('subscription.summary.pricedAgain')}</p>
      </section>
    </div>
  );
}

function TotalRow({
  label,
  value,
  testId,
  muted = false,
}: {
  label: string;
  value: string;
  testId: string;
  muted?: boolean;
}) {
  return (
    <div className={`flex items-baseline justify-between gap-4 ${muted ? 'text-sm text-muted' : ''}`}>
      <dt>{label}</dt>
      <dd className="font-semibold whitespace-nowrap" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
