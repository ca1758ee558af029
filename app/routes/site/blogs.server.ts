import { blogSlugSchema, blogTagSchema, type blogs } from '../../../domain/entities/blogs';
import { idSchema } from '../../../domain/entities/types';
import { type I18nText, type Locale, localized } from '../../../domain/locales';
import type { Page } from '../../../domain/entities/services';
import type { FilterOf } from '../../../domain/entities/types';
import type { BlogArticle, BlogSummary } from '../../components/blog/types';
import { BLOG_SUMMARY_FIELDS } from '../../components/blog/types';
import type { ServerContext } from '../../context';

export const BLOG_PAGE_SIZE = 9;
const RELATED_COUNT = 3;
const POPULAR_TAGS = 12;

type Caller = Pick<ServerContext, 'api' | 'user'>;

/** Pages always ask for published articles: staff see drafts in the back office, not on the site. */
const PUBLISHED = { status: 'published' } as const satisfies FilterOf<typeof blogs>;

function asVisitor(caller: Caller) {
  return { provider: 'ssr', user: caller.user };
}

export interface BlogFilters {
  category: string | null;
  tag: string | null;
  page: number;
}

/** The list's query string (`?category=&tag=&page=`), or null when it names no page of the list. */
export function parseBlogFilters(search: URLSearchParams): BlogFilters | null {
  const category = search.get('category') || null;
  const tag = search.get('tag') || null;
  const page = search.get('page') ?? '1';
  if (category !== null && !idSchema.safeParse(category).success) return null;
  if (tag !== null && !blogTagSchema.safeParse(tag).success) return null;
  if (!/^[1-9]\d{0,5}$/.test(page)) return null;
  return { category, tag, page: Number(page) };
}

/** A category of the blog's filter: its id (the address's `category`) and its name in the page's language. */
export interface BlogCategoryOption {
  id: string;
  name: string;
}

/**
 * The categories the blog offers, in staff's order, named in the page's language (decision 056):
 * read from the one list the news share, those marked for the blog.
 */
export async function blogCategories(caller: Caller, locale: Locale): Promise<BlogCategoryOption[]> {
  const found = await caller.api.service('categories').find({
    ...asVisitor(caller),
    query: { inBlog: true, $sort: { order: 1 }, $limit: 100, $select: ['_id', 'name'] },
  });
  return found.data.map((category) => ({ id: category._id, name: localized(category.name as I18nText, locale) }));
}

export async function listBlogs(caller: Caller, filters: BlogFilters): Promise<Page<BlogSummary>> {
  return caller.api.service('blogs').find({
    ...asVisitor(caller),
    query: {
      ...PUBLISHED,
      ...(filters.category ? { category: filters.category } : {}),
      ...(filters.tag ? { tags: filters.tag } : {}),
      $sort: { publishedAt: -1 },
      $limit: BLOG_PAGE_SIZE,
      $skip: (filters.page - 1) * BLOG_PAGE_SIZE,
      $select: [...BLOG_SUMMARY_FIELDS],
    },
  });
}

/** The tags of the latest published articles, most used first. */
export async function popularTags(caller: Caller): Promise<string[]> {
  const recent = await caller.api.service('blogs').find({
    ...asVisitor(caller),
    query: { ...PUBLISHED, $limit: 100, $select: ['tags'], $sort: { publishedAt: -1 } },
  });
  const counts = new Map<string, number>();
  for (const post of recent.data) for (const tag of post.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, POPULAR_TAGS)
    .map(([tag]) => tag);
}

/** A published article by its slug, or null. */
export async function findBlog(caller: Caller, slug: string | undefined): Promise<BlogArticle | null> {
  if (slug === undefined || !blogSlugSchema.safeParse(slug).success) return null;
  const found = await caller.api
    .service('blogs')
    .find({ ...asVisitor(caller), query: { ...PUBLISHED, slug, $limit: 1 } });
  return found.data[0] ?? null;
}

/** Up to three other articles: those sharing most tags first (newest first among equals), then the same category. */
export async function relatedBlogs(caller: Caller, article: BlogArticle): Promise<BlogSummary[]> {
  const related: BlogSummary[] = [];
  if (article.tags.length > 0) {
    const sharing = await caller.api.service('blogs').find({
      ...asVisitor(caller),
      query: {
        ...PUBLISHED,
        tags: { $in: article.tags },
        _id: { $ne: article._id },
        $sort: { publishedAt: -1 },
        $limit: 20,
        $select: [...BLOG_SUMMARY_FIELDS],
      },
    });
    const shared = (post: BlogSummary) => post.tags.filter((tag) => article.tags.includes(tag)).length;
    // A stable sort keeps the newest first among articles sharing as many tags.
    related.push(...sharing.data.sort((a, b) => shared(b) - shared(a)).slice(0, RELATED_COUNT));
  }
  if (related.length < RELATED_COUNT) {
    const exclude = [article._id, ...related.map((post) => post._id)];
    const sameCategory = await caller.api.service('blogs').find({
      ...asVisitor(caller),
      query: {
        ...PUBLISHED,
        category: article.category,
        _id: { $nin: exclude },
        $sort: { publishedAt: -1 },
        $limit: RELATED_COUNT - related.length,
        $select: [...BLOG_SUMMARY_FIELDS],
      },
    });
    related.push(...sameCategory.data);
  }
  return related;
}
