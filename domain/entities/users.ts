import { z } from '../zod.ts';
import { optionalPhone } from '../forms/profile.ts';
import { passwordSchema } from '../validation/password.ts';
import { defineEntity, ROLES, STAFF_ROLES } from './types.ts';

/** A person who signs in: business owners (member) and staff (editor, admin). */
export const users = defineEntity({
  service: 'users',
  table: 'users',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    email: {
      kind: 'email',
      required: true,
      searchable: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    password: { kind: 'password', schema: passwordSchema, required: true, hidden: true },
    name: {
      kind: 'string',
      schema: z.string().trim().max(120),
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    firstName: { kind: 'string', schema: z.string().trim().max(60), searchable: true, exported: true },
    lastName: { kind: 'string', schema: z.string().trim().max(60), searchable: true, exported: true },
    role: {
      kind: 'enum',
      enum: ROLES,
      writable: ['admin'],
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    locale: { kind: 'enum', enum: ['en', 'zh-hk', 'zh-cn'] },
    companyName: {
      kind: 'string',
      schema: z.string().trim().max(200),
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    companyAddress: {
      kind: 'string',
      schema: z.string().trim().max(500),
      exported: true,
      hints: { widget: 'textarea' },
    },
    // Empty, or a number in the registration's format, whoever writes it (the profile page, the API).
    phone: { kind: 'string', schema: z.string().trim().max(32).pipe(optionalPhone), searchable: true, exported: true },
    /** Set by the server when the owner proves the address (a code or the mailed link); unverified accounts cannot pay. */
    emailVerifiedAt: { kind: 'date', readonly: true, filterable: true, sortable: true, exported: true },
    /**
     * Set by the server whenever the account's sessions end (a password change, "sign out
     * everywhere", staff ending them): a token signed for another version no longer works, except
     * the one session kept (the caller's own, when they changed their own password).
     */
    /** The account's picture (`GET /api/users/pic/{id}`): set by uploading to the `profile` folder, never written directly. */
    picture: { kind: 'ref', ref: 'attachments', column: 'picture_id', readonly: true },
    sessionVersion: { kind: 'string', readonly: true },
    sessionKept: { kind: 'string', readonly: true },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true, listed: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  // Members reach only their own record; staff read every account; only admins change other accounts.
  owner: { field: '_id', allRows: { read: STAFF_ROLES, write: ['admin'] } },
  access: { find: 'authenticated', get: 'authenticated', create: 'public', patch: 'authenticated', remove: ['admin'] },
});
