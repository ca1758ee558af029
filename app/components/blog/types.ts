import type { BlogCategory } from '../../../domain/entities/blogs';
import type { I18nText } from '../../../domain/locales';

/** What a card shows of an article. */
export interface BlogSummary {
  _id: string;
  slug: string;
  title: I18nText;
  summary: I18nText;
  coverImage: string | null;
  coverAlt: I18nText | null;
  category: BlogCategory;
  tags: string[];
  publishedAt: Date | string;
}

/** An article as its page shows it. */
export interface BlogArticle extends BlogSummary {
  body: I18nText;
  author: string | null;
}

export const BLOG_SUMMARY_FIELDS = ['_id', 'slug', 'title', 'summary', 'coverImage', 'coverAlt', 'category', 'tags', 'publishedAt'] as const;
