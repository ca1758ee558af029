import { ROLES, type Access, type Role } from '../entities/types.ts';

/*
 * The access rules as both the permission matrix (permissions.ts) and the back office's actions
 * (screens.ts) read them.
 */

export type Caller = Role | 'anonymous';
export const CALLERS: readonly Caller[] = ['anonymous', ...ROLES];

/** Whether an entity's access rule lets a caller call the method (the back office's actions ask it too). */
export function allows(access: Access, caller: Caller): boolean {
  if (access === 'public') return true;
  if (caller === 'anonymous' || access === 'none') return false;
  return access === 'authenticated' || access.includes(caller);
}

/**
 * Who exports records that hold personal data (`personalData` in the definition), decision 052:
 * admins alone. Editors keep reading them where their access says, and export the rest.
 */
export const PERSONAL_DATA_EXPORTERS: readonly Role[] = ['admin'];
