import { z } from '../zod.ts';
import { ATTACHMENT_FOLDERS } from '../uploads/limits.ts';
import { defineEntity, i18nTextOf, STAFF_ROLES } from './types.ts';

/**
 * A file uploaded through `POST /api/attachments/upload` (decision 022): the record of what was
 * stored. The bytes live in the storage (a folder under DATA_DIR, or S3) under the record's id,
 * never under the name the uploader gave. Written by the upload routes only; staff list and remove
 * every file, a member reads and renames only their own.
 */
export const attachments = defineEntity({
  service: 'attachments',
  table: 'attachments',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    /** The name the file was uploaded with, shown and given back on download only. */
    name: {
      kind: 'string',
      schema: z.string().trim().min(1).max(255),
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    /** The image's description on the site, in each language: staff write it. */
    alt: { kind: 'i18n', schema: i18nTextOf(300), writable: STAFF_ROLES },
    mime: { kind: 'string', readonly: true, filterable: true, listed: true, exported: true },
    size: { kind: 'integer', readonly: true, filterable: true, sortable: true, listed: true, exported: true },
    width: { kind: 'integer', readonly: true, filterable: true, exported: true },
    height: { kind: 'integer', readonly: true, filterable: true, exported: true },
    folder: {
      kind: 'enum',
      enum: ATTACHMENT_FOLDERS,
      readonly: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    uploadedBy: {
      kind: 'ref',
      ref: 'users',
      column: 'uploaded_by',
      readonly: true,
      filterable: true,
      listed: true,
      exported: true,
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
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  // A member reaches only their own uploads; staff read and change every one.
  owner: { field: 'uploadedBy', allRows: { read: STAFF_ROLES, write: STAFF_ROLES } },
  access: { find: 'authenticated', get: 'authenticated', create: 'none', patch: 'authenticated', remove: STAFF_ROLES },
});
