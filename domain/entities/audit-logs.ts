import { z } from '../zod.ts';
import { defineEntity } from './types.ts';

/** Writes, and staff's exports of a table (decision 036: `recordId` is the export's id). */
export const AUDITED_METHODS = ['create', 'patch', 'remove', 'export'] as const;

/** A field's value before and after a write: `before` absent on a create, `after` on a remove. */
export const auditChangesSchema = z.record(
  z.string(),
  z.object({ before: z.unknown().optional(), after: z.unknown().optional() }).strict(),
);

const shown = { readonly: true, required: true, filterable: true, listed: true, exported: true } as const;

/**
 * One record written by staff (an admin or an editor) through any outside path: who, when, which
 * service, method and record, and the fields it changed (decision 033). The server writes it in
 * the write's own transaction (server/services/audit-logs/); nobody writes it from outside. Hidden
 * and secret-like fields are never in `changes`. `user` is a plain id, not a reference: the log
 * outlives the accounts it names, and keeps their email as it was.
 */
export const auditLogs = defineEntity({
  service: 'auditLogs',
  table: 'audit_logs',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    createdAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      sortable: true,
      filterable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    user: { kind: 'string', column: 'user_id', ...shown },
    userEmail: { kind: 'email', ...shown, searchable: true, sortable: true },
    service: { kind: 'string', ...shown, sortable: true },
    method: { kind: 'enum', enum: AUDITED_METHODS, ...shown },
    recordId: { kind: 'string', ...shown },
    changes: { kind: 'object', schema: auditChangesSchema, readonly: true, required: true, exported: true },
    requestId: { kind: 'string', readonly: true, filterable: true, exported: true },
  },
  defaultSort: { createdAt: -1 },
  access: { find: ['admin'], get: ['admin'], create: 'none', patch: 'none', remove: 'none' },
});
