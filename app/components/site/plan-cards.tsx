import { Link } from 'react-router';
import type { appTemplates } from '../../../domain/entities/app-templates';
import type { RecordOf } from '../../../domain/entities/types';
import { formatMoney } from '../../../domain/format';
import { localized, type I18nText } from '../../../domain/locales';
import { isCurrency } from '../../../domain/money';
import { useLocale } from '../../i18n/messages';
import { planPath } from '../../shell';

/**
 * A plan template as cards show it: its included modules filled in (`$populate: 'modules.id'`) to
 * their names only (`planSummary` in `routes/site/summaries.server.ts`); one the visitor may not
 * read stays an id, and is left out.
 */
export type PlanSummary = Pick<
  RecordOf<typeof appTemplates>,
  '_id' | 'name' | 'description' | 'type' | 'monthPrice' | 'currency'
> & {
  modules: { id: string | { _id: string; name: I18nText }; count?: number }[];
};

/** A plan's monthly price, or "price on request" for enterprise plans (Flexi+). */
export function usePlanPrice() {
  const { t, locale } = useLocale();
  return (plan: PlanSummary) =>
    plan.type === 'enterprise' || !isCurrency(plan.currency)
      ? t('home.plans.negotiable')
      : t('home.plans.perMonth', { price: formatMoney({ amount: plan.monthPrice, currency: plan.currency }, locale) });
}

/**
 * "Plan details", to the plan's own page. Cards side by side each have one, so its accessible
 * name adds the plan's (a list of links all named "Plan details" says nothing); it starts with
 * the visible words, so voice control finds it by them.
 */
export function PlanDetailsLink({
  plan,
  className = '',
}: {
  plan: Pick<PlanSummary, '_id' | 'name'>;
  className?: string;
}) {
  const { t, locale } = useLocale();
  return (
    <Link
      to={planPath(locale, plan._id)}
      aria-label={t('home.plans.detailsOf', { plan: localized(plan.name, locale) })}
      className={`text-action ${className}`}
      data-testid="plan-details"
    >
      {t('home.plans.details')} →
    </Link>
  );
}

/** Plan templates side by side: name, price, description and the modules they include. */
export function PlanCards({ plans, highlight }: { plans: PlanSummary[]; highlight?: string }) {
  const { t, locale } = useLocale();
  const price = usePlanPrice();
  return (
    <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="plans">
      {plans.map((plan) => {
        const modules = (plan.modules ?? [])
          .map((item) => (typeof item.id === 'string' ? null : item))
          .filter((item) => item !== null);
        const featured = plan.type === highlight;
        return (
          <li
            key={plan._id}
            className={`flex flex-col rounded-2xl border bg-raised p-6 ${featured ? 'border-brand-500 shadow-lg ring-1 ring-brand-500' : 'border-line'}`}
          >
            <h3 className="text-xl font-semibold">{localized(plan.name, locale)}</h3>
            <p className="mt-3 text-2xl text-figure">{price(plan)}</p>
            {plan.description ? <p className="mt-3 text-muted">{localized(plan.description, locale)}</p> : null}
            {modules.length ? (
              <>
                <p className="mt-5 text-sm font-semibold">{t('home.plans.included')}</p>
                <ul className="mt-2 space-y-1 text-sm">
                  {modules.map((item) => (
                    <li key={typeof item.id === 'string' ? item.id : item.id._id} className="flex gap-2">
                      <span aria-hidden="true" className="text-tick">
                        ✓
                      </span>
                      {typeof item.id === 'string' ? null : localized(item.id.name, locale)}
                      {item.count && item.count > 1 ? ` × ${item.count}` : null}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            <PlanDetailsLink plan={plan} className="mt-auto self-start pt-5" />
          </li>
        );
      })}
    </ul>
  );
}
