import { Link } from 'react-router';
import type { industries } from '../../../domain/entities/industries';
import type { RecordOf } from '../../../domain/entities/types';
import { formatMoney } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import { isCurrency } from '../../../domain/money';
import { useLocale } from '../../i18n/messages';
import { JsonLd } from '../../seo/json-ld';
import { productWithOffers } from '../../seo/structured-data';
import { siteLinks, useSite } from '../../shell';
import { TryNow } from '../layout/try-now';
import { CallToAction } from './call-to-action';
import { HERO_IMAGE, Hero } from './hero';
import { AddOnTable, type AddOn } from './add-ons';
import { PlanDetailsLink, type PlanSummary } from './plan-cards';
import { contractTermKey } from './plan-terms';
import { Section } from './section';

export interface PosProductData {
  kind: 'restaurant' | 'store';
  industry: Pick<RecordOf<typeof industries>, '_id' | 'items'>;
  plans: PlanSummary[];
  addOns: AddOn[];
}

function Plans({ plans }: { plans: PlanSummary[] }) {
  const { t, locale } = useLocale();
  const order = ['lite', 'flexi', 'enterprise'];
  const sorted = [...plans].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
  return (
    <>
      <ul className="grid gap-6 lg:grid-cols-3" data-testid="plans">
        {sorted.map((plan) => {
          const modules = (plan.modules ?? []).flatMap((item) =>
            typeof item.id === 'string' ? [] : [{ ...item, id: item.id }],
          );
          const featured = plan.type === 'flexi';
          const price =
            plan.type === 'enterprise' || !isCurrency(plan.currency)
              ? t('product.plans.negotiable')
              : t('home.plans.perMonth', {
                  price: formatMoney({ amount: plan.monthPrice, currency: plan.currency }, locale),
                });
          return (
            <li
              key={plan._id}
              data-plan={plan.type}
              className={`relative flex flex-col rounded-2xl border bg-raised p-6 ${featured ? 'border-brand-500 shadow-lg ring-1 ring-brand-500' : 'border-line'}`}
            >
              {featured ? (
                <p className="absolute -top-3 left-6 rounded-full bg-accent-400 px-3 py-0.5 text-sm font-semibold text-brand-950">
                  {t('product.plans.popular')}
                </p>
              ) : null}
              <h3 className="text-xl font-semibold">{localized(plan.name, locale)}</h3>
              <p className="mt-3 text-3xl font-bold tracking-tight text-brand-700 dark:text-brand-300">{price}</p>
              <p className="mt-1 text-sm font-medium text-muted">{t(contractTermKey(plan.type))}</p>
              {plan.description ? <p className="mt-4 text-muted">{localized(plan.description, locale)}</p> : null}
              <p className="mt-5 text-sm font-semibold">
                {modules.length ? t('product.plans.includes') : t('product.plans.posOnly')}
              </p>
              <ul className="mt-2 flex-1 space-y-1 text-sm">
                {modules.map((item) => (
                  <li key={item.id._id} className="flex gap-2">
                    <span aria-hidden="true" className="text-tick">
                      ✓
                    </span>
                    <span>
                      {localized(item.id.name, locale)}
                      {item.count && item.count > 1 ? ` × ${item.count}` : null}
                    </span>
                  </li>
                ))}
              </ul>
              <div className="mt-6 flex flex-wrap items-center gap-x-5 gap-y-3">
                {plan.type === 'enterprise' ? (
                  <TryNow testId="plan-contact" label={t('product.plans.contact')} />
                ) : null}
                <PlanDetailsLink plan={plan} />
              </div>
            </li>
          );
        })}
      </ul>
      <p className="mt-6 text-muted">{t('product.plans.twoYear')}</p>
      <p className="mt-2 text-sm text-muted" data-testid="gst-note">
        {t('product.plans.gst')}
      </p>
    </>
  );
}

/** The restaurant or store POS page: what it does, Lite and Flexi side by side, the add-ons, the calculator. */
export function PosProduct({ data }: { data: PosProductData }) {
  const { t, locale } = useLocale();
  const { site, origin } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  const calculator = `${links.pricing}?industry=${data.industry._id}`;
  const product = {
    name: `${site.brandName} ${t(`product.${data.kind}.title`)}`,
    description: t(`product.${data.kind}.description`),
    url: `${origin}${data.kind === 'restaurant' ? links.restaurant : links.store}`,
  };
  return (
    <>
      <JsonLd data={productWithOffers(data.plans, locale, product)} />
      <Hero
        kicker={t(`product.${data.kind}.kicker`)}
        heading={t(`product.${data.kind}.heading`)}
        lead={t(`product.${data.kind}.lead`)}
        secondary={{ to: calculator, label: t('product.calculator.action') }}
        image={{ ...HERO_IMAGE, alt: t('home.hero.imageAlt') }}
      />
      <Section id="highlights" heading={t(`product.${data.kind}.highlights`)}>
        <ul className="grid gap-6 sm:grid-cols-2" data-testid="highlights">
          {data.industry.items.map((item, index) => (
            <li key={item._id ?? index} className="rounded-2xl border border-line bg-raised p-6">
              <h3 className="text-lg font-semibold">{localized(item.name, locale)}</h3>
              {item.description ? <p className="mt-2 text-muted">{localized(item.description, locale)}</p> : null}
            </li>
          ))}
        </ul>
      </Section>
      <Section id="plans" heading={t('product.plans.heading')} lead={t('product.plans.lead')} tone="sunken">
        <Plans plans={data.plans} />
      </Section>
      <Section id="add-ons" heading={t('product.addOns.heading')} lead={t('product.addOns.lead')}>
        <AddOnTable addOns={data.addOns} />
        <p className="mt-4">
          <Link to={links.features} className="text-action">
            {t('product.addOns.all')} →
          </Link>
        </p>
      </Section>
      <Section
        id="calculator"
        heading={t('product.calculator.heading')}
        lead={t('product.calculator.lead')}
        tone="sunken"
      >
        <Link
          to={calculator}
          className="inline-flex rounded-full bg-brand-700 px-6 py-3 text-lg font-semibold text-white hover:bg-brand-800"
          data-testid="to-calculator"
        >
          {t('product.calculator.action')}
        </Link>
      </Section>
      <CallToAction />
    </>
  );
}
