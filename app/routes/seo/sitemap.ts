import { publicPagePaths } from '../../../domain/public-pages';
import { serverContext } from '../../context';
import { articlePages, industryPages, planPages } from '../../seo/catalogue.server';
import { sitemapXml, type SitemapPage } from '../../seo/sitemap';
import { NEWSLETTER_CAMPAIGNS as CAMPAIGNS } from '../../../domain/forms/newsletter-fields';
import type { Route } from './+types/sitemap';

/** `/sitemap.xml`: every public page in every language, with its translations. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { api, site } = context.get(serverContext);
  const origin = site.publicUrl ?? new URL(request.url).origin;
  const [industries, plans, articles] = await Promise.all([
    industryPages(api),
    planPages(api),
    articlePages(api, (error) => {
      if (!/can ?not find service/i.test(String(error))) console.error('sitemap: articles left out:', error);
    }),
  ]);
  const pages: SitemapPage[] = [
    ...publicPagePaths(site.brandSlug).map((path) => ({ path })),
    ...industries,
    ...plans,
    ...articles,
    ...CAMPAIGNS.map((name) => ({ path: `/campaign/${name}` })),
  ];
  return new Response(sitemapXml(origin.replace(/\/+$/, ''), pages), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
}
