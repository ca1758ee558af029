import type { CallerRole } from '../../domain/entities/types.ts';

/** The params a caller is found in. */
type CallerParams = { user?: unknown; appUser?: unknown };

/**
 * Who makes a call, as access rules name them: a member's or staff member's role (`params.user`,
 * the `users` population), `appUser` for a user of the company's apps (`params.appUser`, signed in
 * through `appAuthentication`), none when signed out. The two populations are held in separate
 * params, so code that asks for `params.user` never mistakes an app user for a member (decision 053).
 */
export function callerRoleOf(params: CallerParams): CallerRole | undefined {
  const role = (params.user as { role?: unknown } | null | undefined)?.role;
  if (typeof role === 'string') return role as CallerRole;
  return params.appUser ? 'appUser' : undefined;
}

/** The caller as owner rules see them: the account of the population the rows belong to. */
export function ownerCallerOf(
  params: CallerParams,
  of: 'users' | 'appUsers' = 'users',
): { _id: unknown; role?: string } | undefined {
  if (of === 'appUsers') {
    const appUser = params.appUser as { _id?: unknown } | null | undefined;
    if (params.user) return { _id: null, role: (params.user as { role?: string }).role };
    return appUser?._id !== undefined ? { _id: appUser._id, role: 'appUser' } : undefined;
  }
  return (params.user as { _id: unknown; role?: string } | null | undefined) ?? undefined;
}
