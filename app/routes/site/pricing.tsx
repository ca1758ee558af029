import type { ShouldRevalidateFunctionArgs } from 'react-router';
import { parseChoice } from '../../../domain/calculator';
import { Calculator, type CalculatorData, type CalculatorTemplate } from '../../components/site/calculator';
import { serverContext } from '../../context';
import { useLocale, type MessagesRef } from '../../i18n/messages';
import { pageMeta } from '../../meta';
import type { Route } from './+types/pricing';
import { pageMessages } from '../../i18n/messages.server';
import { ADD_ON_FIELDS, addOnSummary, includedModules } from './summaries.server';
import { forLocale, localeOf } from '../../../domain/locales';

/** The pricing calculator: the industry's plan template, add-ons by toggle and slider, totals in the visitor's currency. */
/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['home', 'product', 'pricing'] as const;

export async function loader({
  context,
  request,
  params,
}: Route.LoaderArgs): Promise<CalculatorData & { messages: MessagesRef }> {
  const { api, user } = context.get(serverContext);
  const ssr = { provider: 'ssr', user };
  const choice = parseChoice(new URL(request.url).searchParams);
  const [industries, catalogue] = await Promise.all([
    api
      .service('industries')
      .find({ ...ssr, query: { $sort: { order: 1 }, $limit: 50, $select: ['_id', 'key', 'name', 'order'] } }),
    api.service('modules').find({ ...ssr, query: { $sort: { order: 1 }, $limit: 50, $select: [...ADD_ON_FIELDS] } }),
  ]);
  const industry =
    industries.data.find((candidate) => candidate.key === choice.industry || candidate._id === choice.industry) ??
    industries.data[0] ??
    null;
  let template: CalculatorTemplate | null = null;
  if (industry) {
    const found = await api.service('appTemplates').find({
      ...ssr,
      query: {
        industry: industry._id,
        $populate: 'modules.id',
        $limit: 10,
        $select: ['_id', 'key', 'name', 'type', 'monthPrice', 'currency', 'modules', 'showOnHome'],
      },
    });
    const chosen =
      found.data.find((plan) => plan.showOnHome) ?? found.data.find((plan) => plan.type === 'flexi') ?? found.data[0];
    if (chosen) {
      const modules = includedModules(chosen.modules);
      template = {
        _id: chosen._id,
        key: chosen.key,
        name: chosen.name,
        type: chosen.type,
        monthPrice: chosen.monthPrice,
        currency: chosen.currency,
        modules,
      };
    }
  }
  const known = new Set(catalogue.data.map((module) => module.key));
  const locale = localeOf(params.lang);
  return {
    industries: forLocale(industries.data, locale),
    industry: forLocale(industry, locale),
    template: forLocale(template, locale),
    catalogue: forLocale(catalogue.data.map(addOnSummary), locale),
    choice: { addOns: [...choice.addOns].filter(([key]) => known.has(key)), months: choice.months },
    messages: pageMessages(params.lang, messageGroups),
  };
}

/** Toggles only rewrite the address; the server is asked again only for another industry. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== 'GET') return defaultShouldRevalidate;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  return currentUrl.searchParams.get('industry') !== nextUrl.searchParams.get('industry');
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'pricing.title', description: 'pricing.description' });
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { t } = useLocale();
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">{t('pricing.heading')}</h1>
      <p className="mt-3 max-w-2xl text-lg text-muted">{t('pricing.lead')}</p>
      <div className="mt-10">
        {/* Keyed by industry: another industry (another plan) starts with no add-ons. */}
        <Calculator key={loaderData.industry?._id ?? 'none'} data={loaderData} />
      </div>
    </div>
  );
}
