import type { Page } from '../../domain/entities/services';
import type { ServerContext } from '../context';
import { lastmodOf, type SitemapPage } from './sitemap';

type Api = ServerContext['api'];

/** A sitemap has room for 50 000 addresses; three languages each. */
const MAX_ROWS = 10_000;
/** The API caps a page at 100. */
const PAGE_SIZE = 100;
/** What the sitemap lists, a visitor may see. */
const VISITOR = { provider: 'ssr', user: null };

/** Every record a public find returns, page after page; `findPage` asks for the page from `skip`. */
async function findAll<R>(findPage: (skip: number) => Promise<Page<R>>): Promise<R[]> {
  const rows: R[] = [];
  for (;;) {
    const page = await findPage(rows.length);
    rows.push(...page.data);
    if (page.data.length === 0 || rows.length >= page.total || rows.length >= MAX_ROWS) return rows;
  }
}

/** One use-case page per industry, by its key. */
export async function industryPages(api: Api): Promise<SitemapPage[]> {
  const industries = await findAll((skip) =>
    api.service('industries').find({ ...VISITOR, query: { $sort: { order: 1 }, $limit: PAGE_SIZE, $skip: skip } }),
  );
  return industries.flatMap((industry) =>
    industry.key ? [{ path: `/usecase/${industry.key}`, lastmod: lastmodOf(industry.updatedAt) }] : [],
  );
}

/** One page per plan template (`/plan/{id}`), the ones a visitor may see. */
export async function planPages(api: Api): Promise<SitemapPage[]> {
  const plans = await findAll((skip) =>
    api.service('appTemplates').find({
      ...VISITOR,
      query: { $sort: { createdAt: 1, _id: 1 }, $select: ['_id', 'updatedAt'], $limit: PAGE_SIZE, $skip: skip },
    }),
  );
  return plans.flatMap((plan) =>
    plan._id ? [{ path: `/plan/${encodeURIComponent(plan._id)}`, lastmod: lastmodOf(plan.updatedAt) }] : [],
  );
}

/** One page per published article; anything that fails lists no article rather than failing the sitemap. */
export async function articlePages(api: Api, onError: (error: unknown) => void): Promise<SitemapPage[]> {
  try {
    // Visitors (provider `ssr`, no user) see only what is published; the status is checked anyway.
    const articles = await findAll((skip) =>
      api.service('blogs').find({ ...VISITOR, query: { $limit: PAGE_SIZE, $skip: skip } }),
    );
    return articles.flatMap((article) =>
      article.slug && article.status === 'published'
        ? [
            {
              path: `/blogs/${encodeURIComponent(article.slug)}`,
              lastmod: lastmodOf(article.updatedAt ?? article.publishedAt),
            },
          ]
        : [],
    );
  } catch (error) {
    onError(error);
    return [];
  }
}
