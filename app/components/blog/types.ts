import type { blogs } from '../../../domain/entities/blogs';
import type { RecordOf } from '../../../domain/entities/types';

/** An article as the blogs service answers it. */
type Blog = RecordOf<typeof blogs>;

/** The fields a card shows of an article: list queries select just these. */
export const BLOG_SUMMARY_FIELDS = [
  '_id',
  'slug',
  'title',
  'summary',
  'coverImage',
  'coverAlt',
  'category',
  'tags',
  'publishedAt',
] as const;

/** What a card shows of an article. */
export type BlogSummary = Pick<Blog, (typeof BLOG_SUMMARY_FIELDS)[number]>;

/** An article as its page shows it. */
export type BlogArticle = Pick<Blog, (typeof BLOG_SUMMARY_FIELDS)[number] | 'body' | 'author'>;
