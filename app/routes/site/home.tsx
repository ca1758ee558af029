import { CASE_STUDIES } from '../../../domain/case-studies';
import { CallToAction } from '../../components/site/call-to-action';
import { ContactSection } from '../../components/forms/contact-section';
import { CaseStudyCards } from '../../components/site/case-study-cards';
import { Claims, Stats } from '../../components/site/claims';
import { HERO_IMAGE, Hero } from '../../components/site/hero';
import { IndustryCards } from '../../components/site/industry-cards';
import { PlanCards } from '../../components/site/plan-cards';
import { Products } from '../../components/site/products';
import { Section } from '../../components/site/section';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMeta } from '../../meta';
import { siteLinks, useSite } from '../../shell';
import { OrganizationJsonLd } from '../../seo/json-ld';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/home';
import { pageMessages } from '../../i18n/messages.server';
import { forLocale, localeOf } from '../../../domain/locales';
import { PLAN_SUMMARY_FIELDS, planSummary } from './summaries.server';

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['home', 'cases', 'forms'] as const;

/** Mostly read: its scripts (the contact form's in-place answer, client-side navigation) wait for an interaction. */
export const handle: MarketingHandle = { headerTone: 'white', scripts: 'on-interaction' };

export async function loader({ context, params }: Route.LoaderArgs) {
  const { api, user } = context.get(serverContext);
  const ssr = { provider: 'ssr', user };
  const [industries, plans] = await Promise.all([
    api
      .service('industries')
      .find({ ...ssr, query: { $sort: { order: 1 }, $limit: 50, $select: ['_id', 'key', 'name', 'description'] } }),
    api.service('appTemplates').find({
      ...ssr,
      query: { showOnHome: true, $populate: 'modules.id', $limit: 50, $select: [...PLAN_SUMMARY_FIELDS, 'industry'] },
    }),
  ]);
  // One plan per industry, in the industries' order (an industry the visitor may not read goes last).
  const rank = (plan: (typeof plans.data)[number]) => {
    const index = industries.data.findIndex((industry) => industry._id === plan.industry);
    return index < 0 ? industries.data.length : index;
  };
  const homePlans = [...plans.data].sort((a, b) => rank(a) - rank(b));
  const locale = localeOf(params.lang);
  return {
    industries: forLocale(industries.data, locale),
    plans: forLocale(homePlans.map(planSummary), locale),
    messages: pageMessages(params.lang, messageGroups),
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'home.title', description: 'home.description' });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  return (
    <>
      <OrganizationJsonLd />
      <Hero
        kicker={t('home.hero.kicker')}
        heading={t('home.hero.heading')}
        lead={t('home.hero.lead')}
        secondary={{ to: links.pricing, label: t('home.hero.pricing') }}
        image={{ ...HERO_IMAGE, alt: t('home.hero.imageAlt') }}
      />
      <Stats />
      <Section id="claims" heading={t('home.claims.heading')} lead={t('home.claims.lead')}>
        <Claims graphHref={links.results} />
      </Section>
      <Section id="products" heading={t('home.products.heading')} lead={t('home.products.lead')} tone="sunken">
        <Products />
      </Section>
      <Section id="industries" heading={t('home.industries.heading')} lead={t('home.industries.lead')}>
        <IndustryCards industries={loaderData.industries} />
      </Section>
      <Section id="cases" heading={t('home.cases.heading')} tone="sunken">
        <CaseStudyCards studies={CASE_STUDIES} />
      </Section>
      <Section id="plans" heading={t('home.plans.heading')} lead={t('home.plans.lead')}>
        <PlanCards plans={loaderData.plans} />
      </Section>
      <ContactSection tone="sunken" />
      <CallToAction />
    </>
  );
}
