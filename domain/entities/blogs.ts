import { z } from '../zod.ts';
import { defineEntity, i18nTextOf, STAFF_ROLES } from './types.ts';

export const BLOG_STATUSES = ['draft', 'published'] as const;
export type BlogStatus = (typeof BLOG_STATUSES)[number];

/** Lower-case words joined by single hyphens: `qr-self-ordering`. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const blogSlugSchema = z.string().trim().max(120).regex(SLUG);
export const blogTagSchema = z.string().trim().max(32).regex(SLUG);
export const MAX_BLOG_TAGS = 10;

/**
 * A cover picture: a path on this site (`/images/blog/x.svg`) or an https URL. Nothing else
 * (`javascript:`, `data:`, protocol-relative `//host`) can reach an `<img src>`.
 */
export const coverImageSchema = z
  .string()
  .trim()
  .max(500)
  .regex(/^(?:\/(?![/\\])|https:\/\/)[^\s"'<>\\]+$/);

/**
 * A blog article in three languages. Its body is rich text, sanitised by the server on every
 * write; anyone reads published articles, staff also read drafts (the blogs service hooks).
 */
export const blogs = defineEntity({
  service: 'blogs',
  table: 'blogs',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    title: {
      kind: 'i18n',
      schema: i18nTextOf(200),
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    slug: {
      kind: 'string',
      schema: blogSlugSchema,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    summary: {
      kind: 'i18n',
      schema: i18nTextOf(600),
      required: true,
      searchable: true,
      exported: true,
      hints: { widget: 'textarea' },
    },
    body: { kind: 'i18n', schema: i18nTextOf(60_000), required: true, hints: { widget: 'richText' } },
    coverImage: { kind: 'string', schema: coverImageSchema, hints: { widget: 'image' } },
    coverAlt: { kind: 'i18n', schema: i18nTextOf(300) },
    // One of the categories the news and the blog share (decision 056); the blog's own five keep their keys as ids.
    category: {
      kind: 'ref',
      ref: 'categories',
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    // A list of plain words: `tags: 'pos'` finds articles whose tags contain it.
    tags: {
      kind: 'list',
      item: blogTagSchema,
      schema: z
        .array(blogTagSchema)
        .max(MAX_BLOG_TAGS)
        .refine((tags) => new Set(tags).size === tags.length, { message: 'validation.duplicate' }),
      defaulted: true,
      filterable: true,
      exported: true,
    },
    author: { kind: 'string', schema: z.string().trim().max(120), searchable: true, listed: true, exported: true },
    publishedAt: { kind: 'date', filterable: true, sortable: true, listed: true, exported: true },
    status: {
      kind: 'enum',
      enum: BLOG_STATUSES,
      required: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { publishedAt: -1 },
  publicWhere: { status: 'published' },
  access: { find: 'public', get: 'public', create: STAFF_ROLES, patch: STAFF_ROLES, remove: ['admin'] },
});
