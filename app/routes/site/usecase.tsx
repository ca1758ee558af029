import { data, Link } from 'react-router';
import { CASE_STUDIES, caseStudy, productPageFor } from '../../../domain/case-studies';
import { forLocale, localeOf, localized } from '../../../domain/locales';
import { CallToAction } from '../../components/site/call-to-action';
import { CaseStudyStory } from '../../components/site/case-study';
import { CaseStudyCards } from '../../components/site/case-study-cards';
import { Hero } from '../../components/site/hero';
import { IndustryCards } from '../../components/site/industry-cards';
import { Section } from '../../components/site/section';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMeta } from '../../meta';
import { useSite } from '../../shell';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/usecase';
import { pageMessages } from '../../i18n/messages.server';

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['home', 'cases', 'usecase'] as const;

/** Links only: the page is sent without the framework's scripts. */
export const handle: MarketingHandle = { headerTone: 'white', scripts: false };

/** `/usecase` lists the industries; `/usecase/{industry}` presents one; `/usecase/{industry}/{id}` is a case study. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { api, user } = context.get(serverContext);
  const found = await api.service('industries').find({
    provider: 'ssr',
    user,
    query: { $sort: { order: 1 }, $limit: 50, $select: ['_id', 'key', 'name', 'description', 'items', 'order'] },
  });
  const industries = forLocale(found.data, localeOf(params.lang));
  const messages = pageMessages(params.lang, messageGroups);
  if (!params.industry) return { view: 'all', industries, messages } as const;
  const industry = industries.find(
    (candidate) => candidate.key === params.industry || candidate._id === params.industry,
  );
  if (!industry) throw data(null, { status: 404 });
  if (!params.id) return { view: 'industry', industry, messages } as const;
  const study = caseStudy(params.id);
  if (!study || study.industryKey !== industry.key) throw data(null, { status: 404 });
  return { view: 'case', industry, study, messages } as const;
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  if (loaderData.view === 'all')
    return pageMeta(matches, { title: 'usecase.title', description: 'usecase.description' });
  if (loaderData.view === 'case')
    return pageMeta(matches, {
      title: `cases.${loaderData.study.id}.title`,
      description: `cases.${loaderData.study.id}.summary`,
    });
  const shell = matches.find((match) => match?.id === 'routes/locale-layout')?.loaderData as
    { locale?: 'en' | 'zh-hk' | 'zh-cn' } | undefined;
  const locale = shell?.locale ?? 'en';
  const name = localized(loaderData.industry.name, locale);
  return pageMeta(matches, {
    title: 'usecase.industryTitle',
    description: 'usecase.industryDescription',
    values: { industry: name, text: localized(loaderData.industry.description, locale) },
  });
}

function Breadcrumb({ items }: { items: { label: string; to?: string }[] }) {
  const { t } = useLocale();
  return (
    <nav aria-label={t('usecase.breadcrumb')} className="mx-auto max-w-7xl px-4 pt-6 text-sm sm:px-6">
      <ol className="flex flex-wrap gap-2 text-muted">
        {items.map((item, index) => (
          <li key={item.label} className="flex gap-2">
            {index > 0 ? <span aria-hidden="true">/</span> : null}
            {item.to ? (
              <Link to={item.to} className="text-link hover:underline">
                {item.label}
              </Link>
            ) : (
              <span aria-current="page">{item.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

export default function UseCase({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const crumbs = [
    { label: t('usecase.home'), to: `/${locale}` },
    { label: t('usecase.kicker'), to: `/${locale}/usecase` },
  ];
  if (loaderData.view === 'all') {
    return (
      <>
        <Hero kicker={t('usecase.kicker')} heading={t('usecase.heading')} lead={t('usecase.lead')} />
        <Section id="industries" heading={t('usecase.industries')}>
          <IndustryCards industries={loaderData.industries} />
        </Section>
        <Section id="stories" heading={t('usecase.stories')} tone="sunken">
          <CaseStudyCards studies={CASE_STUDIES} />
        </Section>
        <CallToAction />
      </>
    );
  }
  const industry = loaderData.industry;
  const name = localized(industry.name, locale);
  const productHref = `/${locale}/${site.brandSlug}${productPageFor(industry.order)}`;
  if (loaderData.view === 'case') {
    return (
      <>
        <Breadcrumb
          items={[
            ...crumbs,
            { label: name, to: `/${locale}/usecase/${industry.key ?? industry._id}` },
            { label: t(`cases.${loaderData.study.id}.label`) },
          ]}
        />
        <CaseStudyStory study={loaderData.study} industryName={name} productHref={productHref} />
      </>
    );
  }
  const stories = CASE_STUDIES.filter((study) => study.industryKey === industry.key);
  return (
    <>
      <Breadcrumb items={[...crumbs, { label: name }]} />
      <Hero
        kicker={t('usecase.industryKicker')}
        heading={t('usecase.industryTitle', { industry: name })}
        lead={localized(industry.description, locale)}
        secondary={{ to: productHref, label: t('usecase.toProduct') }}
      />
      <Section id="features" heading={t('usecase.features')}>
        <ul className="grid gap-6 sm:grid-cols-2" data-testid="industry-items">
          {industry.items.map((item, index) => (
            <li key={item._id ?? index} className="rounded-2xl border border-line bg-raised p-6">
              <h3 className="text-lg font-semibold">{localized(item.name, locale)}</h3>
              {item.description ? <p className="mt-2 text-muted">{localized(item.description, locale)}</p> : null}
            </li>
          ))}
        </ul>
      </Section>
      {stories.length ? (
        <Section id="stories" heading={t('usecase.stories')} tone="sunken">
          <CaseStudyCards studies={stories} />
        </Section>
      ) : null}
      <CallToAction />
    </>
  );
}
