import { Forbidden, NotAuthenticated } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Access, EntityDef } from '../../domain/entities/types.ts';
import { isAppToken } from '../auth/app-users.ts';
import { RevocableJWTStrategy } from '../auth/strategies.ts';
import { callerRoleOf } from './caller.ts';

type Method = keyof EntityDef['access'];

/**
 * Whether a caller (none when signed out) may call a method with this access. `authenticated`
 * means a member or staff member: never a user of the apps, whose population is named apart.
 */
export function allowed(access: Access, role: string | undefined): boolean {
  if (access === 'public') return true;
  if (access === 'none') return false;
  if (!role) return false;
  if (access === 'authenticated') return role !== 'appUser';
  return (access as readonly string[]).includes(role);
}

interface AuthenticationLike {
  getStrategy(name: string): unknown;
  authenticate(authentication: unknown, params: unknown, ...strategies: string[]): Promise<Record<string, unknown>>;
}

/**
 * Identifies the caller of an outside call from the token it sent, once per call: a member's or
 * staff member's token through the default authentication service (`params.user`), an app
 * user's through `appAuthentication` (`params.appUser`). Which one is read from the token's own
 * audience; each service then verifies the token with its own secret use and audience, so a
 * token of one population is refused by the other's (decision 053).
 */
export async function identifyCaller(context: HookContext): Promise<void> {
  const { authentication, connection } = context.params;
  if (!authentication || context.params.authenticated) return;
  const accessToken = (authentication as { accessToken?: unknown }).accessToken;
  const app = context.app as HookContext['app'] & { defaultAuthentication?: () => AuthenticationLike | undefined };
  const appService = isAppToken(accessToken)
    ? (app.service('appAuthentication') as unknown as AuthenticationLike | undefined)
    : undefined;
  const authService = appService ?? app.defaultAuthentication?.();
  if (!authService) return;
  // Only what identifies the caller: the strategy loads the account with these params, and the
  // call's own query (`?email=…`) would filter that lookup. Marked authenticated first because
  // the lookup passes through this same hook.
  const { provider, headers } = context.params;
  const identity = { provider, headers, authenticated: true };
  // A socket's calls carry the sign-in of their connection: its account is taken from there,
  // with the revocation list asked again (RevocableJWTStrategy.connectionSession). Other calls
  // go through the strategy, which reuses a session verified a moment ago.
  const jwt = authService.getStrategy('jwt');
  const fromConnection =
    connection && connection.authentication === authentication && jwt instanceof RevocableJWTStrategy
      ? await jwt.connectionSession(connection, identity)
      : null;
  const result = fromConnection ?? (await authService.authenticate(authentication, identity, 'jwt'));
  const { user, appUser, ...rest } = result as { user?: unknown; appUser?: unknown };
  // The account goes where its population's code looks for it, and nowhere else.
  const account = appService ? { appUser: appUser ?? user, user: undefined } : { user, appUser: undefined };
  context.params = { ...context.params, ...rest, ...account, authenticated: true };
}

/**
 * Applies an entity's access rules to outside calls. A public method still reads a token when one
 * is sent (so a signed-in caller is known); a protected one demands it. In-process calls with no
 * provider are trusted.
 */
export function authorize(def: Pick<EntityDef, 'access'>) {
  return async (context: HookContext, next: NextFunction) => {
    const method = context.method as Method;
    if (context.params.provider && method in def.access) {
      await identifyCaller(context);
      if (!allowed(def.access[method], callerRoleOf(context.params))) {
        if (!context.params.user && !context.params.appUser) throw new NotAuthenticated('auth.notAuthenticated');
        throw new Forbidden('auth.forbidden');
      }
    }
    await next();
  };
}
