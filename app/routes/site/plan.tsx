import { data, Link, redirect } from 'react-router';
import { formatMoney } from '../../../domain/format';
import { forLocale, isLocale, localeOf, localized } from '../../../domain/locales';
import { isCurrency } from '../../../domain/money';
import { DEFAULT_PREPAID_MONTHS, quote } from '../../../domain/pricing';
import { AddOnTable } from '../../components/site/add-ons';
import { PlanActionButton } from '../../components/site/plan-action';
import { contractTermKey } from '../../components/site/plan-terms';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { JsonLd } from '../../seo/json-ld';
import { productWithOffers } from '../../seo/structured-data';
import { planPath, siteLinks, useShell, useSite } from '../../shell';
import { requireUser } from '../../auth.server';
import { addOnsFor, findPlan, ownerPlanAddress, planForPage, type PlanPage } from './plan.server';
import type { Route } from './+types/plan';

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['product', 'pricing', 'plan'] as const;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const caller = context.get(serverContext);
  // `/plan` alone: a member's own plan (their newest, with the others listed there); for anyone
  // else, the plans to choose from.
  if (params.id === undefined) throw redirect(caller.user ? `/${params.lang}/portal/plan` : `/${params.lang}/pricing`);
  // Unknown ids and plans a visitor may not see alike are missing pages.
  const plan = await findPlan(caller, params.id);
  if (!plan) {
    // A subscription's id: its owner's plan detail (decision 044), after signing in.
    const address = await ownerPlanAddress(caller, params.id, params.lang);
    if (address === 'signIn') requireUser(caller, request, params.lang);
    else if (address) throw redirect(address);
    throw data(null, { status: 404 });
  }
  const locale = localeOf(params.lang);
  return {
    plan: forLocale(planForPage(plan), locale),
    addOns: forLocale(await addOnsFor(caller, plan), locale),
    messages: pageMessages(params.lang, messageGroups),
  };
}

function industryOf(plan: PlanPage) {
  return typeof plan.industry === 'object' && plan.industry !== null ? plan.industry : null;
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  if (!loaderData) return pageMeta(matches, { title: 'errorPage.notFound', index: false });
  const locale = isLocale(params.lang) ? params.lang : 'en';
  return pageMeta(matches, {
    title: 'plan.title',
    description: 'plan.description',
    values: { plan: localized(loaderData.plan.name, locale) },
  });
}

/** The plan's price in the visitor's currency, or null when it has none to list (Flexi+ is negotiated). */
function usePlanPrices(plan: PlanPage) {
  const { market } = useShell();
  if (plan.type === 'enterprise' || !isCurrency(plan.currency)) return null;
  const prepaidMonths = plan.prepayMonth && plan.prepayMonth > 0 ? plan.prepayMonth : DEFAULT_PREPAID_MONTHS;
  return quote(
    { monthPrice: plan.monthPrice, currency: plan.currency, type: plan.type, addOns: [], prepaidMonths },
    market.currency,
  );
}

/**
 * `/plan/{id}`: one plan template, its modules, the add-ons it can take, its terms, and the
 * calculator's main button. The id of a member's subscription sends its owner to that plan's
 * detail in the portal (decision 044).
 */
export default function Plan({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site, origin } = useSite();
  const { market } = useShell();
  const { plan, addOns } = loaderData;
  const links = siteLinks(locale, site.brandSlug);
  const name = localized(plan.name, locale);
  const industry = industryOf(plan);
  const industryParam = industry?.key || industry?._id;
  const prices = usePlanPrices(plan);
  const money = (amount: number) => formatMoney({ amount, currency: market.currency }, locale);
  const included = (plan.modules ?? []).flatMap((item) =>
    typeof item.id === 'string' ? [] : [{ module: item.id, count: item.count ?? 1 }],
  );
  // What the subscription flow starts from: the plan itself, in its industry.
  const subscribeQuery = new URLSearchParams({
    ...(industryParam ? { industry: industryParam } : {}),
    ...(plan.key ? { plan: plan.key } : {}),
  }).toString();
  const calculator = industryParam
    ? `${links.pricing}?${new URLSearchParams({ industry: industryParam })}`
    : links.pricing;
  const url = `${origin}${planPath(locale, plan._id)}`;

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      {prices ? (
        <JsonLd
          data={productWithOffers([plan], locale, {
            name: `${site.brandName} ${name}`,
            ...(plan.description ? { description: localized(plan.description, locale) } : {}),
            url,
          })}
        />
      ) : null}
      <nav aria-label={t('plan.breadcrumb')} className="text-sm text-muted">
        <ol className="flex flex-wrap items-center gap-2">
          <li>
            <Link to={links.home} className="hover:underline">
              {t('plan.home')}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link to={links.pricing} className="hover:underline">
              {t('nav.pricing')}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="text-ink">
            {name}
          </li>
        </ol>
      </nav>

      {/* On a phone the price follows the plan's name; on a wide screen it stays beside everything. */}
      <div className="mt-6 grid gap-x-10 gap-y-8 lg:grid-cols-[1fr_22rem]">
        <header className="min-w-0 lg:col-start-1">
          {industry ? (
            <p className="font-semibold text-brand-700 dark:text-brand-300" data-testid="plan-industry">
              {t('plan.forIndustry', { industry: localized(industry.name, locale) })}
            </p>
          ) : null}
          <h1 className="mt-2 text-4xl font-bold tracking-tight">{name}</h1>
          {plan.description ? (
            <p className="mt-4 max-w-2xl text-lg text-muted">{localized(plan.description, locale)}</p>
          ) : null}
        </header>
        <aside
          aria-labelledby="price-heading"
          className="h-fit rounded-2xl border border-brand-500 bg-raised p-6 shadow-lg lg:sticky lg:top-28 lg:col-start-2 lg:row-span-2 lg:row-start-1"
        >
          <h2 id="price-heading" className="text-lg font-semibold">
            {t('plan.price')}
          </h2>
          {prices ? (
            <div data-testid="plan-prices">
              <p className="mt-4 text-sm text-muted">{t('plan.monthly')}</p>
              <p className="text-3xl text-figure" data-testid="plan-monthly">
                {money(prices.monthly)}
              </p>
              <p className="mt-4 text-sm text-muted">{t('pricing.prepaid', { months: prices.prepaidMonths })}</p>
              <p className="text-xl font-semibold" data-testid="plan-prepaid">
                {money(prices.prepaid)}
              </p>
            </div>
          ) : (
            <div data-testid="plan-prices">
              <p className="mt-4 text-3xl text-figure" data-testid="plan-monthly">
                {t('product.plans.negotiable')}
              </p>
              <p className="mt-2 text-sm text-muted">{t('pricing.negotiable')}</p>
            </div>
          )}
          <p className="mt-4 text-sm font-medium">{t(contractTermKey(plan.type))}</p>
          <p className="mt-1 text-xs text-muted">{t('pricing.gst')}</p>
          <PlanActionButton plan={plan} query={subscribeQuery} testId="plan-action" className="mt-5" />
          <Link to={calculator} className="mt-4 flex justify-center text-action" data-testid="plan-calculator">
            {t('plan.customise')}
          </Link>
        </aside>
        <div className="min-w-0 lg:col-start-1">
          <section aria-labelledby="included-heading">
            <h2 id="included-heading" className="text-2xl font-semibold">
              {t('plan.included')}
            </h2>
            <p className="mt-2 text-muted">{included.length ? t('plan.includedLead') : t('product.plans.posOnly')}</p>
            {included.length ? (
              <ul className="mt-4 grid gap-3 sm:grid-cols-2" data-testid="plan-modules">
                {included.map(({ module, count }) => (
                  <li key={module._id} className="flex gap-3 rounded-2xl border border-line bg-raised p-4">
                    <span aria-hidden="true" className="font-semibold text-tick">
                      ✓
                    </span>
                    <span>
                      <span className="font-semibold">
                        {localized(module.name, locale)}
                        {count > 1 ? ` × ${count}` : null}
                      </span>
                      {module.shortDesc ? (
                        <span className="block text-sm text-muted">{localized(module.shortDesc, locale)}</span>
                      ) : null}
                    </span>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>

          <section aria-labelledby="add-ons-heading" className="mt-12">
            <h2 id="add-ons-heading" className="text-2xl font-semibold">
              {t('plan.addOns')}
            </h2>
            {addOns.length ? (
              <>
                <p className="mt-2 mb-4 text-muted">{t('plan.addOnsLead')}</p>
                <AddOnTable addOns={addOns} currency={market.currency} />
              </>
            ) : (
              <p className="mt-2 text-muted">{t('plan.allIncluded')}</p>
            )}
          </section>

          <section aria-labelledby="terms-heading" className="mt-12">
            <h2 id="terms-heading" className="text-2xl font-semibold">
              {t('plan.terms')}
            </h2>
            <ul className="mt-4 list-disc space-y-2 pl-6" data-testid="plan-terms">
              <li>{t(contractTermKey(plan.type))}</li>
              <li>{t('pricing.gst')}</li>
              <li>
                <Link to={links.terms} className="text-action">
                  {t('plan.termsLink')}
                </Link>
              </li>
            </ul>
          </section>
        </div>
      </div>
    </div>
  );
}
