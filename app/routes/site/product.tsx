import { data, type UIMatch } from 'react-router';
import { PaymentsProduct } from '../../components/site/payments-product';
import { PosProduct, type PosProductData } from '../../components/site/pos-product';
import { serverContext } from '../../context';
import { pageMeta } from '../../meta';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/product';
import { pageMessages } from '../../i18n/messages.server';
import { ADD_ON_FIELDS, addOnSummary, PLAN_SUMMARY_FIELDS, planSummary } from './summaries.server';
import { forLocale, localeOf } from '../../../domain/locales';

/** The industry each POS page presents (by key in the catalogue). */
const POS_INDUSTRY = { restaurant: 'restaurant', store: 'retail' } as const;

type Page = 'restaurant' | 'store' | 'pay';

/** `/{brand}Restaurant`, `/{brand}Store`, `/{brand}Pay`; any other single segment is not a page. */
function pageOf(segment: string, brandSlug: string): Page | null {
  const suffix = segment.startsWith(brandSlug) ? segment.slice(brandSlug.length) : '';
  return suffix === 'Restaurant' ? 'restaurant' : suffix === 'Store' ? 'store' : suffix === 'Pay' ? 'pay' : null;
}

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['home', 'product', 'pay'] as const;

export const handle: MarketingHandle = {
  // Plans, add-ons and the way to the calculator are all links: the pages are sent without scripts.
  scripts: false,
  // The payment page has the white header, like home and the use cases.
  headerTone: (match: UIMatch) =>
    (match.loaderData as { page?: Page } | undefined)?.page === 'pay' ? 'white' : 'brand',
};

export async function loader({ params, context }: Route.LoaderArgs) {
  const { api, user, site } = context.get(serverContext);
  const page = pageOf(params.productPage, site.brandSlug);
  if (!page) throw data(null, { status: 404 });
  const messages = pageMessages(params.lang, messageGroups);
  if (page === 'pay') return { page, messages } as const;
  const ssr = { provider: 'ssr', user };
  const industries = await api
    .service('industries')
    .find({ ...ssr, query: { key: POS_INDUSTRY[page], $limit: 1, $select: ['_id', 'items'] } });
  const industry = industries.data[0];
  if (!industry) throw data(null, { status: 404 });
  const [plans, addOns] = await Promise.all([
    api.service('appTemplates').find({
      ...ssr,
      query: { industry: industry._id, $populate: 'modules.id', $limit: 10, $select: [...PLAN_SUMMARY_FIELDS] },
    }),
    api.service('modules').find({ ...ssr, query: { $sort: { order: 1 }, $limit: 50, $select: [...ADD_ON_FIELDS] } }),
  ]);
  const pos: PosProductData = {
    kind: page,
    industry,
    plans: plans.data.map(planSummary),
    addOns: addOns.data.map(addOnSummary),
  };
  return { page, pos: forLocale(pos, localeOf(params.lang)), messages } as const;
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  if (loaderData.page === 'pay') return pageMeta(matches, { title: 'pay.title', description: 'pay.description' });
  return pageMeta(matches, {
    title: `product.${loaderData.page}.title`,
    description: `product.${loaderData.page}.description`,
  });
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  return loaderData.page === 'pay' ? <PaymentsProduct /> : <PosProduct data={loaderData.pos} />;
}
