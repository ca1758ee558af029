import { ROLES, type Access, type Role } from '../entities/types.ts';

/*
 * The access rules as both the permission matrix (permissions.ts) and the back office's actions
 * (screens.ts) read them.
 */

/** Who calls, as the matrix's columns name them: signed out, a member's or staff role, or a user of the apps. */
export type Caller = Role | 'anonymous' | 'appUser';
export const CALLERS: readonly Caller[] = ['anonymous', ...ROLES, 'appUser'];

/** Whether an entity's access rule lets a caller call the method (the back office's actions ask it too). */
export function allows(access: Access, caller: Caller): boolean {
  if (access === 'public') return true;
  if (caller === 'anonymous' || access === 'none') return false;
  // `authenticated` is a member or staff member: an app user is of another population (decision 053).
  if (access === 'authenticated') return caller !== 'appUser';
  return access.includes(caller);
}

/**
 * Who exports records that hold personal data (`personalData` in the definition), decision 052:
 * admins alone. Editors keep reading them where their access says, and export the rest.
 */
export const PERSONAL_DATA_EXPORTERS: readonly Role[] = ['admin'];
