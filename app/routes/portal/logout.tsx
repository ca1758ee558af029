import { redirect } from 'react-router';
import { signOutSchema } from '../../../domain/forms/sign-out';
import { sessionCookie } from '../../auth.server';
import { readAsSent } from '../../components/forms/read-form';
import { serverContext } from '../../context';
import { flashCookie } from '../../feedback.server';
import type { Route } from './+types/logout';

/**
 * Signing out revokes the session token on the server, clears the cookie and says so. The portal's
 * live connection posts `reason=expired` when the session was lost rather than ended by the member:
 * the notice then asks them to log in again.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  // A body that cannot be read (none at all) signs out as plainly as an empty form.
  const form = await readAsSent(request, signOutSchema).catch(() => null);
  const expired = form?.reason === 'expired';
  if (ctx.accessToken) {
    await ctx.api
      .service('authentication')
      .remove(null, { provider: 'ssr', authentication: { strategy: 'jwt', accessToken: ctx.accessToken } })
      .catch((error: unknown) => {
        // The cookie is cleared either way; a token that could not be revoked expires on its own.
        ctx.log.error({ err: error }, 'signing out could not revoke the session token');
      });
  }
  const headers = new Headers();
  headers.append('Set-Cookie', sessionCookie(null, ctx.secureCookies));
  headers.append(
    'Set-Cookie',
    flashCookie(
      expired ? { type: 'error', key: 'feedback.signInAgain' } : { type: 'success', key: 'feedback.signedOut' },
      ctx.secureCookies,
    ),
  );
  return redirect(`/${params.lang}`, { headers });
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/${params.lang}`);
}
