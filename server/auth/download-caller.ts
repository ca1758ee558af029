import type { AuthenticationParams, AuthenticationRequest } from '@feathersjs/authentication';
import { NotAuthenticated } from '@feathersjs/errors';
import type { Request } from 'express';
import { sessionToken } from '../../domain/session-cookie.ts';

/** What a download route needs of the app: its authentication service. */
export interface DownloadAuthApp {
  defaultAuthentication?: () => {
    authenticate(
      data: AuthenticationRequest,
      params: AuthenticationParams,
      ...strategies: string[]
    ): Promise<{ user?: unknown }>;
  } | null;
}

/** The signed-in account a download is for, as its session names it. */
export type DownloadCaller = { _id: string; role: string } & Record<string, unknown>;

/**
 * The caller of a file download (an invoice's PDF, an export), from a bearer token (the apps) or
 * the session cookie (a link on a page). A download only reads, so the cookie is taken from any
 * page that sends it, as the pages themselves take it: a link followed from a bookmark or another
 * tab still works, and another site that links here can only start a download of the visitor's
 * own file, which it never sees. The token is checked as any REST call's is (signature, expiry,
 * revocation, the account's session version).
 */
export async function downloadCaller(
  app: DownloadAuthApp,
  req: Request,
  secureCookies: boolean,
): Promise<DownloadCaller> {
  const header = req.headers.authorization;
  const bearer =
    typeof header === 'string' && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : undefined;
  const accessToken = bearer || sessionToken(req.headers.cookie, secureCookies);
  const authentication = app.defaultAuthentication?.();
  if (!accessToken || !authentication) throw new NotAuthenticated('auth.notAuthenticated');
  const { user } = await authentication.authenticate(
    { strategy: 'jwt', accessToken },
    { provider: 'rest', headers: req.headers },
    'jwt',
  );
  const signedIn = user as Partial<DownloadCaller> | undefined;
  if (typeof signedIn?._id !== 'string' || typeof signedIn.role !== 'string')
    throw new NotAuthenticated('auth.notAuthenticated');
  return signedIn as DownloadCaller;
}
