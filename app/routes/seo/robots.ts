import { serverContext } from '../../context';
import { robotsTxt } from '../../seo/robots';
import type { Route } from './+types/robots';

/** `/robots.txt`, with the sitemap's absolute address (so it cannot be a static file). */
export function loader({ context, request }: Route.LoaderArgs) {
  const { site } = context.get(serverContext);
  const origin = (site.publicUrl ?? new URL(request.url).origin).replace(/\/+$/, '');
  return new Response(robotsTxt(origin), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
