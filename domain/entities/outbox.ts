import { z } from '../zod.ts';
import { defineEntity } from './types.ts';

const body = z.string().max(200_000);

/** A text file sent with a mail: its name, its type and its text. */
export const mailAttachmentSchema = z
  .object({
    filename: z.string().max(200),
    contentType: z.string().max(200),
    content: z.string().max(200_000),
  })
  .strict();

/**
 * Mail the server would have sent if SMTP were set up (`SMTP_URL` unset): staff read it here.
 * Only the server writes it.
 */
export const outbox = defineEntity({
  service: 'outbox',
  table: 'outbox',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    to: {
      kind: 'string',
      schema: z.string().max(1000),
      column: 'recipient',
      required: true,
      searchable: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    from: { kind: 'string', column: 'sender', required: true, exported: true },
    subject: { kind: 'string', required: true, searchable: true, listed: true, exported: true, hints: { column: 1 } },
    text: { kind: 'string', schema: body, required: true, hints: { widget: 'textarea' } },
    html: { kind: 'string', schema: body, required: true, hints: { widget: 'textarea' } },
    // Files sent with the mail (an event's calendar file), their text as sent.
    attachments: {
      kind: 'list',
      item: mailAttachmentSchema,
      schema: z.array(mailAttachmentSchema).max(5),
      defaulted: true,
    },
    createdAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      sortable: true,
      filterable: true,
      listed: true,
      exported: true,
    },
  },
  defaultSort: { createdAt: -1 },
  access: { find: ['editor', 'admin'], get: ['editor', 'admin'], create: 'none', patch: 'none', remove: ['admin'] },
});
