import { z } from 'zod';
import { passwordSchema } from '../validation/password.ts';
import { type EntityDef, ROLES } from './types.ts';

/** A person who signs in: business owners (member) and staff (editor, admin). */
export const users: EntityDef = {
  service: 'users',
  table: 'users',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    email: { kind: 'email', required: true, searchable: true, filterable: true, sortable: true, listed: true, exported: true },
    password: { kind: 'password', schema: passwordSchema, required: true, hidden: true },
    name: { kind: 'string', schema: z.string().trim().max(120), searchable: true, sortable: true, listed: true, exported: true },
    firstName: { kind: 'string', schema: z.string().trim().max(60), searchable: true, exported: true },
    lastName: { kind: 'string', schema: z.string().trim().max(60), searchable: true, exported: true },
    role: { kind: 'enum', enum: ROLES, filterable: true, sortable: true, listed: true, exported: true },
    locale: { kind: 'enum', enum: ['en', 'zh-hk', 'zh-cn'] },
    createdAt: { kind: 'date', readonly: true, sortable: true, filterable: true, listed: true },
    updatedAt: { kind: 'date', readonly: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  // Members reach only their own record; the users service hooks narrow these further.
  access: { find: 'authenticated', get: 'authenticated', create: 'public', patch: 'authenticated', remove: ['admin'] },
};
