import type { Messages, Translate } from '../../i18n/messages';

/** A category's name from the list the page brought (decision 056); its id when the list has it not. */
export function categoryLabel(categories: readonly { id: string; name: string }[], category: string): string {
  return categories.find((option) => option.id === category)?.name ?? category;
}

/** A tag's name in the page's language when the site knows it; else the tag itself (editors may coin new ones). */
export function tagLabel(t: Translate, messages: Messages, tag: string): string {
  const known = (messages.blogs as Messages | undefined)?.tags;
  return typeof known === 'object' && typeof known[tag] === 'string' ? t(`blogs.tags.${tag}`) : tag;
}

/** The list's address with the given filters (`/en/blogs?category=payments&page=2`). */
export function blogsHref(
  locale: string,
  filters: { category?: string | null; tag?: string | null; page?: number },
): string {
  const search = new URLSearchParams();
  if (filters.category) search.set('category', filters.category);
  if (filters.tag) search.set('tag', filters.tag);
  if (filters.page && filters.page > 1) search.set('page', String(filters.page));
  const query = search.toString();
  return `/${locale}/blogs${query ? `?${query}` : ''}`;
}
