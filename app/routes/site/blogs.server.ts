import { blogSlugSchema, blogTagSchema, isBlogCategory, type BlogCategory } from '../../../domain/entities/blogs';
import type { BlogArticle, BlogSummary } from '../../components/blog/types';
import { BLOG_SUMMARY_FIELDS } from '../../components/blog/types';
import type { ServerContext } from '../../context';

export const BLOG_PAGE_SIZE = 9;
const RELATED_COUNT = 3;
const POPULAR_TAGS = 12;

type Caller = Pick<ServerContext, 'api' | 'user'>;
interface Page<T> {
  total: number;
  data: T[];
}

/** Pages always ask for published articles: staff see drafts in the back office, not on the site. */
function published(caller: Caller, query: Record<string, unknown>) {
  return { provider: 'ssr', user: caller.user, query: { status: 'published', ...query } };
}

export interface BlogFilters {
  category: BlogCategory | null;
  tag: string | null;
  page: number;
}

/** The list's query string (`?category=&tag=&page=`), or null when it names no page of the list. */
export function parseBlogFilters(search: URLSearchParams): BlogFilters | null {
  const category = search.get('category') || null;
  const tag = search.get('tag') || null;
  const page = search.get('page') ?? '1';
  if (category !== null && !isBlogCategory(category)) return null;
  if (tag !== null && !blogTagSchema.safeParse(tag).success) return null;
  if (!/^[1-9]\d{0,5}$/.test(page)) return null;
  return { category, tag, page: Number(page) };
}

export async function listBlogs(caller: Caller, filters: BlogFilters): Promise<Page<BlogSummary>> {
  const query: Record<string, unknown> = {
    $sort: { publishedAt: -1 },
    $limit: BLOG_PAGE_SIZE,
    $skip: (filters.page - 1) * BLOG_PAGE_SIZE,
    $select: [...BLOG_SUMMARY_FIELDS],
  };
  if (filters.category) query.category = filters.category;
  if (filters.tag) query.tags = filters.tag;
  return (await caller.api.service('blogs').find(published(caller, query))) as Page<BlogSummary>;
}

/** The tags of the latest published articles, most used first. */
export async function popularTags(caller: Caller): Promise<string[]> {
  const recent = (await caller.api.service('blogs').find(published(caller, { $limit: 100, $select: ['tags'], $sort: { publishedAt: -1 } }))) as Page<
    Pick<BlogSummary, 'tags'>
  >;
  const counts = new Map<string, number>();
  for (const post of recent.data) for (const tag of post.tags ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, POPULAR_TAGS)
    .map(([tag]) => tag);
}

/** A published article by its slug, or null. */
export async function findBlog(caller: Caller, slug: string | undefined): Promise<BlogArticle | null> {
  if (!blogSlugSchema.safeParse(slug).success) return null;
  const found = (await caller.api.service('blogs').find(published(caller, { slug, $limit: 1 }))) as Page<BlogArticle>;
  return found.data[0] ?? null;
}

/** Up to three other articles: those sharing most tags first (newest first among equals), then the same category. */
export async function relatedBlogs(caller: Caller, article: BlogArticle): Promise<BlogSummary[]> {
  const select = [...BLOG_SUMMARY_FIELDS];
  const related: BlogSummary[] = [];
  if (article.tags.length > 0) {
    const sharing = (await caller.api
      .service('blogs')
      .find(published(caller, { tags: { $in: article.tags }, _id: { $ne: article._id }, $sort: { publishedAt: -1 }, $limit: 20, $select: select }))) as Page<BlogSummary>;
    const shared = (post: BlogSummary) => post.tags.filter((tag) => article.tags.includes(tag)).length;
    // A stable sort keeps the newest first among articles sharing as many tags.
    related.push(...sharing.data.sort((a, b) => shared(b) - shared(a)).slice(0, RELATED_COUNT));
  }
  if (related.length < RELATED_COUNT) {
    const exclude = [article._id, ...related.map((post) => post._id)];
    const sameCategory = (await caller.api.service('blogs').find(
      published(caller, { category: article.category, _id: { $nin: exclude }, $sort: { publishedAt: -1 }, $limit: RELATED_COUNT - related.length, $select: select }),
    )) as Page<BlogSummary>;
    related.push(...sameCategory.data);
  }
  return related;
}
