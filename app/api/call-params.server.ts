import type { ServerContext } from '../context';

/**
 * A portal page's call to a service for the signed-in member: as the member (provider `ssr`, so
 * the entity rules apply), from their address, with errors in the page's language.
 */
export function memberCallParams(ctx: ServerContext, lang: string, user: ServerContext['user'] = ctx.user) {
  return { provider: 'ssr', user, ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': lang } };
}
