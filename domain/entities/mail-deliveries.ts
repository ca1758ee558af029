import { z } from '../zod.ts';
import { LOCALES } from '../locales.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

/** The mails the server sends, each a job queue of its own (server/mail/mail-jobs.ts). */
export const MAIL_KINDS = [
  'staff-mail',
  'invoice-mail',
  'order-staff-mail',
  'verification-mail',
  'password-reset-mail',
  'app-password-reset-mail',
  'renewal-mail',
  'event-registration-mail',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/**
 * Where a mail is: waiting for a worker, handed to the transport now, delivered, waiting for its
 * next attempt, given up after its last one, or finished without a mail (what it was about was gone:
 * a removed record, a code no longer open, an address without an account).
 */
export const MAIL_DELIVERY_STATES = ['queued', 'sending', 'sent', 'retrying', 'failed', 'skipped'] as const;
export type MailDeliveryState = (typeof MAIL_DELIVERY_STATES)[number];

const shown = { readonly: true, listed: true } as const;

/**
 * One mail job and how it went (decision 035): the server writes it as the job is sent, started,
 * delivered or failed; staff read it, and an admin sends a failed one again (`mailRetries`).
 * Recipient, subject and language are known once the job has written its mail. The job's own data,
 * which a retry sends again, is kept in a column no field describes: it never leaves the server.
 */
export const mailDeliveries = defineEntity({
  service: 'mailDeliveries',
  table: 'mail_deliveries',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    createdAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      sortable: true,
      filterable: true,
      listed: true,
      hints: { column: 1 },
    },
    kind: { kind: 'enum', enum: MAIL_KINDS, ...shown, required: true, filterable: true, sortable: true },
    recipient: { kind: 'string', schema: z.string().max(1000), ...shown, searchable: true, hints: { column: 2 } },
    subject: { kind: 'string', ...shown, searchable: true },
    locale: { kind: 'enum', enum: LOCALES, readonly: true, filterable: true },
    state: { kind: 'enum', enum: MAIL_DELIVERY_STATES, ...shown, required: true, filterable: true, sortable: true },
    attempts: { kind: 'integer', ...shown, defaulted: true, sortable: true },
    lastError: { kind: 'string', ...shown },
    jobId: { kind: 'string', readonly: true, required: true, filterable: true },
    sentAt: { kind: 'date', ...shown, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  access: { find: STAFF_ROLES, get: STAFF_ROLES, create: 'none', patch: 'none', remove: 'none' },
});
