import { useEffect, useMemo, useRef, useState } from 'react';
import { Form, useNavigate, useSearchParams } from 'react-router';
import {
  choiceQuery,
  parseChoice,
  PREPAID_OPTIONS,
  subscriptionQuery,
  type CalculatorChoice,
} from '../../../domain/calculator';
import type { appTemplates } from '../../../domain/entities/app-templates';
import type { industries } from '../../../domain/entities/industries';
import type { RecordOf } from '../../../domain/entities/types';
import { formatMoney } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import { isCurrency, type CurrencyCode } from '../../../domain/money';
import { quote, type Billing } from '../../../domain/pricing';
import { useLocale } from '../../i18n/messages';
import { useValuesFromBeforeHydration } from '../forms/use-values-from-before-hydration';
import { useShell } from '../../shell';
import { useAddOnPrice, type AddOn } from './add-ons';
import { DeviceCount } from './device-count';
import { PlanActionButton } from './plan-action';
import { PlanDetailsLink, type PlanSummary } from './plan-cards';

/** An industry the calculator offers. */
export type CalculatorIndustry = Pick<RecordOf<typeof industries>, '_id' | 'key' | 'name'>;

/** The industry's plan template the calculator starts from, its included modules filled in. */
export type CalculatorTemplate = Pick<
  RecordOf<typeof appTemplates>,
  '_id' | 'key' | 'name' | 'type' | 'monthPrice' | 'currency'
> & {
  modules: PlanSummary['modules'];
};

export interface CalculatorData {
  industries: CalculatorIndustry[];
  industry: CalculatorIndustry | null;
  template: CalculatorTemplate | null;
  catalogue: AddOn[];
  choice: { addOns: [string, number][]; months: number };
}

export function Calculator({ data }: { data: CalculatorData }) {
  const { t, locale } = useLocale();
  const { market } = useShell();
  const navigate = useNavigate();
  const [, setSearchParams] = useSearchParams();
  const [addOns, setAddOns] = useState(() => new Map(data.choice.addOns));
  const [months, setMonths] = useState(data.choice.months);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);

  const included = new Map(
    (data.template?.modules ?? []).flatMap((item) =>
      typeof item.id === 'string' ? [] : [[item.id._id, item.count ?? 1] as const],
    ),
  );
  const optional = data.catalogue.filter((module) => module.released && !included.has(module._id) && module.key);
  const choice: CalculatorChoice = { industry: data.industry?.key ?? data.industry?._id ?? null, addOns, months };
  // The main button carries the whole choice, with the plan it was made on.
  const query = subscriptionQuery(choice, data.template?.key);
  const currency: CurrencyCode = market.currency;
  const price = useAddOnPrice(currency);
  const totals = useMemo(() => {
    if (!data.template || !isCurrency(data.template.currency)) return null;
    const chosen = optional.filter((module) => addOns.has(module.key!));
    return quote(
      {
        monthPrice: data.template.monthPrice,
        currency: data.template.currency,
        type: data.template.type,
        prepaidMonths: months,
        addOns: chosen.map((module) => ({
          price: module.monthPrice,
          billing: module.billing as Billing,
          counter: module.counter,
          count: addOns.get(module.key!) ?? 1,
        })),
      },
      currency,
    );
  }, [data.template, optional, addOns, months, currency]);

  const update = (next: Map<string, number>, nextMonths = months) => {
    setAddOns(next);
    setMonths(nextMonths);
    setSearchParams(choiceQuery({ ...choice, addOns: next, months: nextMonths }), {
      replace: true,
      preventScrollReset: true,
    });
  };
  const money = (amount: number) => formatMoney({ amount, currency }, locale);
  // An industry, add-on or term chosen before the page hydrated is kept, and priced.
  const form = useRef<HTMLFormElement>(null);
  useValuesFromBeforeHydration(form, (values) => {
    const chosen = parseChoice(values);
    if (chosen.industry && chosen.industry !== choice.industry) {
      navigate(`?industry=${encodeURIComponent(chosen.industry)}`, { replace: true, preventScrollReset: true });
    } else if (
      chosen.months !== months ||
      chosen.addOns.size !== addOns.size ||
      [...chosen.addOns].some(([key, count]) => addOns.get(key) !== count)
    ) {
      // The same add-ons in another order are the same choice: rewriting the address for them
      // would cancel a change the visitor has just made.
      update(chosen.addOns, chosen.months);
    }
  });

  return (
    <Form ref={form} method="get" className="grid gap-8 lg:grid-cols-[1fr_22rem]" data-testid="calculator">
      <div className="space-y-8">
        <div>
          <label htmlFor="industry" className="block text-lg font-semibold">
            {t('pricing.industry')}
          </label>
          <select
            id="industry"
            name="industry"
            value={choice.industry ?? ''}
            onChange={(event) =>
              navigate(`?industry=${encodeURIComponent(event.target.value)}`, {
                replace: true,
                preventScrollReset: true,
              })
            }
            className="mt-2 w-full max-w-md rounded-lg border border-line bg-raised px-3 py-2.5"
          >
            {data.industries.map((industry) => (
              <option key={industry._id} value={industry.key ?? industry._id}>
                {localized(industry.name, locale)}
              </option>
            ))}
          </select>
        </div>
        {data.template ? (
          <>
            <section aria-labelledby="included-heading">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <h2 id="included-heading" className="text-lg font-semibold">
                  {t('pricing.plan')}: {localized(data.template.name, locale)}
                </h2>
                <PlanDetailsLink plan={data.template} className="text-sm" />
              </div>
              {included.size ? (
                <>
                  <p className="mt-2 text-sm text-muted">{t('pricing.included')}</p>
                  <ul className="mt-2 flex flex-wrap gap-2" data-testid="included">
                    {(data.template.modules ?? []).map((item) =>
                      typeof item.id === 'string' ? null : (
                        <li key={item.id._id} className="rounded-full bg-sunken px-3 py-1 text-sm">
                          {localized(item.id.name, locale)}
                          {(item.count ?? 1) > 1 ? ` × ${item.count}` : ''}
                        </li>
                      ),
                    )}
                  </ul>
                </>
              ) : null}
            </section>
            <fieldset>
              <legend className="text-lg font-semibold">{t('pricing.addOns')}</legend>
              <ul
                className="mt-3 divide-y divide-line rounded-2xl border border-line bg-raised"
                data-testid="add-on-choices"
              >
                {optional.map((module) => {
                  const key = module.key!;
                  const on = addOns.has(key);
                  const count = addOns.get(key) ?? 1;
                  const name = localized(module.name, locale);
                  return (
                    <li key={module._id} className="p-4">
                      <div className="flex items-start justify-between gap-4">
                        <label className="flex items-start gap-3">
                          <input
                            type="checkbox"
                            name="addon"
                            value={key}
                            checked={on}
                            onChange={() => {
                              const next = new Map(addOns);
                              if (on) next.delete(key);
                              else next.set(key, 1);
                              update(next);
                            }}
                            className="mt-1 h-5 w-5 accent-brand-600"
                          />
                          <span>
                            <span className="font-semibold">{name}</span>
                            {module.shortDesc ? (
                              <span className="block text-sm text-muted">{localized(module.shortDesc, locale)}</span>
                            ) : null}
                          </span>
                        </label>
                        <span className="text-sm whitespace-nowrap">{price(module)}</span>
                      </div>
                      {module.counter && on ? (
                        <DeviceCount
                          id={`count-${key}`}
                          name={`count-${key}`}
                          moduleName={name}
                          count={count}
                          onChange={(value) => update(new Map(addOns).set(key, value))}
                          className="mt-3 pl-8"
                        />
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </fieldset>
            <div>
              <label htmlFor="months" className="block font-semibold">
                {t('pricing.months')}
              </label>
              <select
                id="months"
                name="months"
                value={months}
                onChange={(event) => update(addOns, Number(event.target.value))}
                className="mt-2 rounded-lg border border-line bg-raised px-3 py-2"
              >
                {PREPAID_OPTIONS.map((option) => (
                  <option key={option} value={option}>
                    {t('pricing.monthsOption', { count: option })}
                  </option>
                ))}
              </select>
            </div>
            {enhanced ? null : (
              <button type="submit" className="rounded-full border border-line bg-raised px-5 py-2.5 font-semibold">
                {t('pricing.update')}
              </button>
            )}
          </>
        ) : (
          <p>{t('pricing.noPlan')}</p>
        )}
      </div>
      <aside
        aria-labelledby="summary-heading"
        className="h-fit rounded-2xl border border-brand-500 bg-raised p-6 shadow-lg lg:sticky lg:top-28"
      >
        <h2 id="summary-heading" className="text-lg font-semibold">
          {t('pricing.summary')}
        </h2>
        {totals ? (
          <div aria-live="polite" data-testid="totals">
            <p className="mt-4 text-sm text-muted">{t('pricing.monthly')}</p>
            <p className="text-3xl text-figure" data-testid="monthly-total">
              {money(totals.monthly)}
            </p>
            <p className="mt-4 text-sm text-muted">{t('pricing.prepaid', { months: totals.prepaidMonths })}</p>
            <p className="text-xl font-semibold" data-testid="prepaid-total">
              {money(totals.prepaid)}
            </p>
            {totals.yearly ? (
              <p className="mt-3 text-sm">
                {t('pricing.yearly')}: {money(totals.yearly)}
              </p>
            ) : null}
            {totals.oneTime ? (
              <p className="mt-1 text-sm">
                {t('pricing.oneTime')}: {money(totals.oneTime)}
              </p>
            ) : null}
            {totals.negotiable ? <p className="mt-3 text-sm text-muted">{t('pricing.negotiable')}</p> : null}
          </div>
        ) : null}
        <p className="mt-4 text-xs text-muted">{t('pricing.gst')}</p>
        <PlanActionButton plan={data.template} query={query} testId="calculator-action" className="mt-5" />
      </aside>
    </Form>
  );
}
