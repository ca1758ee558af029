import { z } from '../zod.ts';
import { passwordSchema } from '../validation/password.ts';
import { defineEntity } from './types.ts';

/** The staff types (the spec's admin types): `role` in the users table, where members are `member`. */
export const STAFF_TYPES = ['admin', 'editor'] as const;

/**
 * The staff accounts (spec §3 "admins": name, email, password, type), a scoped view of the users
 * table (decision 052): it reads and writes only the rows whose role is a staff type, and cannot
 * make a member or turn an account into one. Admins alone reach it; the users service's rules
 * (hashing, breached passwords, ending sessions, the current password for one's own credentials)
 * apply to it too (server/services/admins/admins.ts).
 */
export const admins = defineEntity({
  service: 'admins',
  table: 'users',
  scope: { type: STAFF_TYPES },
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    name: {
      kind: 'string',
      schema: z.string().trim().max(120),
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
      hints: { column: 2 },
    },
    // Typed twice in the editor; on edit, an optional new one (decision 052).
    password: { kind: 'password', schema: passwordSchema, required: true, hidden: true, confirmed: true },
    type: {
      kind: 'enum',
      enum: STAFF_TYPES,
      column: 'role',
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 3 },
    },
    locale: { kind: 'enum', enum: ['en', 'zh-hk', 'zh-cn'] },
    // Set by the server when the account's sessions end (a new password, a new type): users.ts.
    sessionVersion: { kind: 'string', readonly: true, hidden: true },
    sessionKept: { kind: 'string', readonly: true, hidden: true },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true, listed: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  access: { find: ['admin'], get: ['admin'], create: ['admin'], patch: ['admin'], remove: ['admin'] },
});
