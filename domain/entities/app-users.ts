import { z } from '../zod.ts';
import { LOCALES } from '../locales.ts';
import { birthDaySchema } from '../validation/day.ts';
import { passwordSchema } from '../validation/password.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

/** A market the apps serve, by its code (`hk`, `sg`: the site's regions). */
export const regionCodeSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,8}$/, 'validation.invalid');

export const APP_USER_GENDERS = ['male', 'female'] as const;

/**
 * A person who uses the company's consumer apps (spec section 3): a population apart from the
 * members who buy plans and the staff, with an authentication service of its own (`appAuthentication`),
 * whose tokens open nothing of theirs (decision 053). `date` is the date of birth, a day as written.
 *
 * An app user reads and changes their own record (their email and password with the current
 * password, as members do); staff find, filter and export them and disable one; only an admin
 * changes an app user's credentials (an editor never does).
 */
export const appUsers = defineEntity({
  service: 'appUsers',
  table: 'app_users',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    name: {
      kind: 'string',
      schema: z.string().trim().min(1).max(120),
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    email: {
      kind: 'email',
      required: true,
      searchable: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      patchable: ['admin', 'appUser'],
      hints: { column: 2 },
    },
    password: {
      kind: 'password',
      schema: passwordSchema,
      required: true,
      hidden: true,
      patchable: ['admin', 'appUser'],
    },
    /** The date of birth. */
    date: {
      kind: 'day',
      schema: birthDaySchema,
      column: 'birth_date',
      filterable: true,
      sortable: true,
      exported: true,
    },
    gender: { kind: 'enum', enum: APP_USER_GENDERS, filterable: true, sortable: true, listed: true, exported: true },
    /** The language the apps speak to them in, and their push messages' language. */
    locale: { kind: 'enum', enum: LOCALES, defaulted: true, filterable: true, listed: true, exported: true },
    region: {
      kind: 'string',
      schema: regionCodeSchema,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { filter: 'exact' },
    },
    /** Set by staff to stop the account: its sessions end at once and it cannot sign in until cleared. */
    disabledAt: {
      kind: 'date',
      writable: STAFF_ROLES,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      // Staff switch an account off and on; the time it was switched off is kept and shown.
      hints: { widget: 'timestampSwitch' },
    },
    lastSignInAt: { kind: 'date', readonly: true, filterable: true, sortable: true, listed: true, exported: true },
    /** Changed by the server whenever the account's sessions end (a new password, disabling). */
    sessionVersion: { kind: 'string', readonly: true },
    createdAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      sortable: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  // An app user reaches their own record; staff read and change every one (credentials: admins).
  owner: { field: '_id', of: 'appUsers', allRows: { read: STAFF_ROLES, write: STAFF_ROLES } },
  access: {
    find: [...STAFF_ROLES, 'appUser'],
    get: [...STAFF_ROLES, 'appUser'],
    // Signing up: anyone, limited per address.
    create: 'public',
    patch: [...STAFF_ROLES, 'appUser'],
    // An app user may delete their own account (the app stores ask for it); staff: admins.
    remove: ['admin', 'appUser'],
  },
});
