import type { ServerContext } from '../context';
import { lastmodOf, type SitemapPage } from './sitemap';

type Api = ServerContext['api'];
type Row = Record<string, unknown>;

/** A sitemap has room for 50 000 addresses; three languages each. */
const MAX_ROWS = 10_000;

/** Every record a public find returns, page after page (the API caps a page at 100). */
async function findAll(api: Api, service: string, query: Record<string, unknown>): Promise<Row[]> {
  const rows: Row[] = [];
  for (;;) {
    const page = (await api.service(service).find({ provider: 'ssr', user: null, query: { ...query, $limit: 100, $skip: rows.length } })) as {
      data?: Row[];
      total?: number;
    };
    const data = page.data ?? [];
    rows.push(...data);
    if (data.length === 0 || rows.length >= (page.total ?? 0) || rows.length >= MAX_ROWS) return rows;
  }
}

/** One use-case page per industry, by its key. */
export async function industryPages(api: Api): Promise<SitemapPage[]> {
  const industries = await findAll(api, 'industries', { $sort: { order: 1 } });
  return industries.flatMap((industry) =>
    typeof industry.key === 'string' && industry.key ? [{ path: `/usecase/${industry.key}`, lastmod: lastmodOf(industry.updatedAt) }] : [],
  );
}

/** One page per plan template (`/plan/{id}`), the ones a visitor may see. */
export async function planPages(api: Api): Promise<SitemapPage[]> {
  const plans = await findAll(api, 'appTemplates', { $sort: { createdAt: 1, _id: 1 }, $select: ['_id', 'updatedAt'] });
  return plans.flatMap((plan) =>
    typeof plan._id === 'string' && plan._id ? [{ path: `/plan/${encodeURIComponent(plan._id)}`, lastmod: lastmodOf(plan.updatedAt) }] : [],
  );
}

/**
 * One page per published article. The blogs service may not exist (it comes with the blog), and
 * its fields are its own: anything that fails lists no article rather than failing the sitemap.
 */
export async function articlePages(api: Api, onError: (error: unknown) => void): Promise<SitemapPage[]> {
  try {
    // Visitors (provider `ssr`, no user) see only what is published; a status is checked anyway.
    const articles = await findAll(api, 'blogs', {});
    return articles.flatMap((article) => {
      const slug = article.slug ?? article.name;
      if (typeof slug !== 'string' || !slug || (article.status !== undefined && article.status !== 'published')) return [];
      return [{ path: `/blogs/${encodeURIComponent(slug)}`, lastmod: lastmodOf(article.updatedAt ?? article.publishedAt) }];
    });
  } catch (error) {
    onError(error);
    return [];
  }
}
