import { z } from '../zod.ts';
import { NEWS_REGIONS } from '../news/constants.ts';
import { LOCALES } from '../locales.ts';
import { defineEntity, STAFF_ROLES } from './types.ts';

/** Where an import's posts come from: an export's file uploaded by staff, or the Graph API. */
export const FACEBOOK_SOURCES = ['export', 'graph'] as const;
export type FacebookSource = (typeof FACEBOOK_SOURCES)[number];

/** An import's life: queued, worked by its job, then done or failed (its file refused, the Graph API away). */
export const FACEBOOK_IMPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type FacebookImportState = (typeof FACEBOOK_IMPORT_STATES)[number];

/** A post the import could not add, and why (a message key). */
export const facebookFailureSchema = z.object({
  post: z.string().max(120),
  title: z.string().max(200),
  reason: z.string().max(200),
});
export type FacebookFailure = z.infer<typeof facebookFailureSchema>;

/** The failures an import keeps (the count goes on past them). */
export const FACEBOOK_FAILURES_KEPT = 100;

/** Figures the job keeps: read by staff, written by no one from outside. */
const counter = {
  kind: 'integer',
  readonly: true,
  defaulted: true,
  sortable: true,
  listed: true,
  exported: true,
} as const;

/**
 * An import of the company's Facebook page's posts as draft news (issue 34, decision 060). Staff
 * create one by uploading the page's export (`POST /api/facebook/upload`) or by asking for the
 * Graph API (`create { source: 'graph' }`); a job adds each post once and writes its progress
 * here, announced as `patched` events to staff. Nothing of it is edited or removed.
 */
export const facebook = defineEntity({
  service: 'facebook',
  table: 'facebook_imports',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    source: {
      kind: 'enum',
      enum: FACEBOOK_SOURCES,
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    // The uploaded file's name (none for the Graph API).
    fileName: {
      kind: 'string',
      schema: z.string().max(255),
      readonly: true,
      searchable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    // Where the uploaded file is kept until the job is done with it.
    fileKey: { kind: 'string', readonly: true, hidden: true },
    // The region the added news are for (the apps ask for theirs).
    region: { kind: 'enum', enum: NEWS_REGIONS, required: true, filterable: true, listed: true, exported: true },
    // The language of the import's messages (its failures' reasons).
    locale: { kind: 'enum', enum: LOCALES, readonly: true, defaulted: true },
    state: {
      kind: 'enum',
      enum: FACEBOOK_IMPORT_STATES,
      readonly: true,
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    // Posts to import, known once the job has read them all; none until then.
    total: { kind: 'integer', readonly: true, sortable: true, listed: true, exported: true },
    done: counter,
    added: counter,
    skipped: counter,
    failed: counter,
    failures: {
      kind: 'list',
      item: facebookFailureSchema,
      schema: z.array(facebookFailureSchema).max(FACEBOOK_FAILURES_KEPT),
      readonly: true,
      defaulted: true,
    },
    // The message key of a failed import.
    error: { kind: 'string', readonly: true, exported: true },
    user: { kind: 'ref', ref: 'users', column: 'user_id', readonly: true, filterable: true, listed: true },
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
    finishedAt: { kind: 'date', readonly: true, sortable: true, filterable: true, exported: true },
  },
  defaultSort: { createdAt: -1 },
  access: { find: STAFF_ROLES, get: STAFF_ROLES, create: STAFF_ROLES, patch: 'none', remove: 'none' },
});
