import { Link } from 'react-router';
import { planAction } from '../../../domain/plan-action';
import { formatMoney } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import { convert } from '../../../domain/pricing';
import { isCurrency, type CurrencyCode } from '../../../domain/money';
import { useLocale } from '../../i18n/messages';
import { siteLinks, useShell, useSite } from '../../shell';
import { contractTermKey } from '../site/plan-terms';
import type { FlowIndustry, FlowPlan } from './order-preview';
import { primaryButton, secondaryButton } from './ui';

const cardClass = 'flex h-full flex-col rounded-2xl border bg-raised p-5 text-left sm:p-6';
const chosenClass = 'border-brand-500 ring-2 ring-brand-500';

/** Step 1: the buyer's business. Choosing one goes on to its plans. */
export function IndustryStep({
  industries,
  chosen,
  onChoose,
}: {
  industries: FlowIndustry[];
  chosen: string | null;
  onChoose: (id: string) => void;
}) {
  const { locale } = useLocale();
  return (
    <ul className="mt-6 grid gap-4 sm:grid-cols-2" data-testid="industry-choices">
      {industries.map((industry) => {
        const on = industry._id === chosen;
        return (
          <li key={industry._id}>
            <button
              type="button"
              aria-pressed={on}
              onClick={() => onChoose(industry._id)}
              className={`${cardClass} w-full hover:border-brand-500 ${on ? chosenClass : 'border-line'}`}
              data-testid={`industry-${industry.key ?? industry._id}`}
            >
              <span className="text-lg font-semibold">{localized(industry.name, locale)}</span>
              {industry.description ? (
                <span className="mt-1 block text-sm text-muted">{localized(industry.description, locale)}</span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Step 2: the industry's plans. Lite and Flexi are chosen here; Flexi+ is priced with the buyer,
 * so its card leads to the enquiry form with the plan preselected (domain/plan-action.ts).
 */
export function PlanStep({
  plans,
  chosen,
  currency,
  onChoose,
}: {
  plans: FlowPlan[];
  chosen: string | null;
  currency: CurrencyCode;
  onChoose: (id: string) => void;
}) {
  const { t, locale } = useLocale();
  const { market } = useShell();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  if (!plans.length)
    return (
      <p className="mt-6" data-testid="no-plans">
        {t('subscription.plan.none')}
      </p>
    );
  return (
    <ul className="mt-6 grid gap-4 lg:grid-cols-3" data-testid="plan-choices">
      {plans.map((plan) => {
        const name = localized(plan.name, locale);
        const on = plan._id === chosen;
        const enterprise = plan.type === 'enterprise';
        const action = enterprise
          ? planAction(market, plan, { subscription: links.subscription, enquiry: links.enquiry, chat: site.chatUrl })
          : null;
        const price =
          !enterprise && isCurrency(plan.currency)
            ? formatMoney({ amount: convert(plan.monthPrice, plan.currency, currency), currency }, locale)
            : null;
        return (
          <li
            key={plan._id}
            className={`${cardClass} ${on ? chosenClass : 'border-line'}`}
            data-testid={`plan-${plan.type}`}
          >
            <h2 id={`plan-name-${plan._id}`} className="text-xl font-semibold">
              {name}
            </h2>
            <p className="mt-2 text-2xl text-figure">
              {price ? t('subscription.plan.perMonth', { price }) : t('product.plans.negotiable')}
            </p>
            <p className="mt-1 text-sm font-medium">{t(contractTermKey(plan.type))}</p>
            {plan.description ? <p className="mt-3 text-sm text-muted">{localized(plan.description, locale)}</p> : null}
            <p className="mt-4 text-sm font-semibold">
              {plan.included.length ? t('subscription.plan.includes') : t('product.plans.posOnly')}
            </p>
            {plan.included.length ? (
              <ul className="mt-1 space-y-1 text-sm">
                {plan.included.map((item) => (
                  <li key={item.id} className="flex gap-2">
                    <span aria-hidden="true" className="text-tick">
                      ✓
                    </span>
                    {localized(item.name, locale)}
                    {item.count > 1 ? ` × ${item.count}` : null}
                  </li>
                ))}
              </ul>
            ) : null}
            <div className="mt-auto pt-5">
              {action ? (
                <>
                  <p className="mb-3 text-sm text-muted">{t('subscription.plan.enterpriseNote')}</p>
                  {action.external ? (
                    <a
                      href={action.href}
                      target="_blank"
                      rel="noopener"
                      className={`${secondaryButton} w-full`}
                      data-testid="plan-contact"
                    >
                      {t('subscription.plan.contact')}
                    </a>
                  ) : (
                    <Link to={action.href} className={`${secondaryButton} w-full`} data-testid="plan-contact">
                      {t('subscription.plan.contact')}
                    </Link>
                  )}
                </>
              ) : (
                <button
                  type="button"
                  aria-pressed={on}
                  id={`plan-choose-${plan._id}`}
                  // "Choose Restaurant Lite": the visible words first, then the plan's name.
                  aria-labelledby={`plan-choose-${plan._id} plan-name-${plan._id}`}
                  onClick={() => onChoose(plan._id)}
                  className={`${on ? primaryButton : secondaryButton} w-full`}
                  data-testid="plan-choose"
                >
                  {on ? <span aria-hidden="true">✓&nbsp;</span> : null}
                  {on ? t('subscription.plan.chosen') : t('subscription.plan.choose')}
                </button>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
