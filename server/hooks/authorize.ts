import { Forbidden, NotAuthenticated } from '@feathersjs/errors';
import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Access, EntityDef } from '../../domain/entities/types.ts';
import { RevocableJWTStrategy } from '../auth/strategies.ts';

type Method = keyof EntityDef['access'];

/** Whether a role (none when signed out) may call a method with this access. */
export function allowed(access: Access, role: string | undefined): boolean {
  if (access === 'public') return true;
  if (access === 'none') return false;
  if (!role) return false;
  if (access === 'authenticated') return true;
  return (access as readonly string[]).includes(role);
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
      const access = def.access[method];
      const authService = context.app.defaultAuthentication?.();
      const { authentication, connection } = context.params;
      if (authentication && authService && !context.params.authenticated) {
        // Only what identifies the caller: the strategy loads the user with these params, and the
        // call's own query (`?email=…`) would filter that lookup. Marked authenticated first because
        // the lookup passes through this same hook.
        const { provider, headers } = context.params;
        const identity = { provider, headers, authenticated: true };
        // A socket's calls carry the sign-in of their connection: its user is taken from there,
        // with the revocation list asked again (RevocableJWTStrategy.connectionSession). Other
        // calls go through the strategy, which reuses a session verified a moment ago.
        const jwt = authService.getStrategy('jwt');
        const fromConnection =
          connection && connection.authentication === authentication && jwt instanceof RevocableJWTStrategy
            ? await jwt.connectionSession(connection, identity)
            : null;
        const result = fromConnection ?? (await authService.authenticate(authentication, identity, 'jwt'));
        context.params = { ...context.params, ...result, authenticated: true };
      }
      const role = (context.params.user as { role?: string } | undefined)?.role;
      if (!allowed(access, role)) {
        if (!context.params.user) throw new NotAuthenticated('auth.notAuthenticated');
        throw new Forbidden('auth.forbidden');
      }
    }
    await next();
  };
}
