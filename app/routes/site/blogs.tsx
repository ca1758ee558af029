import { data, Link } from 'react-router';
import { isLocale } from '../../../domain/locales';
import { BlogCard } from '../../components/blog/blog-card';
import { blogsHref, categoryLabel, tagLabel } from '../../components/blog/labels';
import { Pagination } from '../../components/blog/pagination';
import { serverContext } from '../../context';
import { translator, useLocale } from '../../i18n/messages';
import { pageMeta } from '../../meta';
import { BLOG_PAGE_SIZE, blogCategories, listBlogs, parseBlogFilters, popularTags } from './blogs.server';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/blogs';
import { pageMessages, plainMessages } from '../../i18n/messages.server';

/** Links only: the page is sent without the framework's scripts. */
export const handle: MarketingHandle = { scripts: false };

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['blogs', 'blog'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const filters = parseBlogFilters(new URL(request.url).searchParams);
  if (!filters || !isLocale(params.lang)) throw data(null, { status: 404 });
  const caller = context.get(serverContext);
  const [categories, list, tags] = await Promise.all([
    blogCategories(caller, params.lang),
    listBlogs(caller, filters),
    popularTags(caller),
  ]);
  // A category the blog does not offer names no page of the list.
  if (filters.category && !categories.some((category) => category.id === filters.category))
    throw data(null, { status: 404 });
  const pageCount = Math.max(1, Math.ceil(list.total / BLOG_PAGE_SIZE));
  if (filters.page > pageCount) throw data(null, { status: 404 });
  // The filter's name in this language, for the page title.
  const own = plainMessages(params.lang, messageGroups);
  const t = translator(own, { locale: params.lang });
  const filterLabel = filters.category
    ? categoryLabel(categories, filters.category)
    : filters.tag
      ? tagLabel(t, own, filters.tag)
      : null;
  return {
    posts: list.data,
    total: list.total,
    pageCount,
    ...filters,
    tags,
    categories,
    filterLabel,
    messages: pageMessages(params.lang, messageGroups),
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return pageMeta(matches, { title: 'errorPage.notFound', index: false });
  const { filterLabel, page } = loaderData;
  const values = { filter: filterLabel ?? '', page: String(page) };
  if (filterLabel) {
    return pageMeta(matches, {
      title: page > 1 ? 'blogs.meta.filteredTitlePaged' : 'blogs.meta.filteredTitle',
      description: page > 1 ? 'blogs.meta.filteredDescriptionPaged' : 'blogs.meta.filteredDescription',
      values,
    });
  }
  return pageMeta(matches, {
    title: page > 1 ? 'blogs.meta.titlePaged' : 'blogs.meta.title',
    description: page > 1 ? 'blogs.meta.descriptionPaged' : 'blogs.meta.description',
    values,
  });
}

const chip =
  'inline-flex items-center rounded-full border border-line px-3.5 py-1.5 text-sm font-medium hover:bg-sunken aria-[current=page]:border-brand-700 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white';

export default function Blogs({ loaderData }: Route.ComponentProps) {
  const { t, locale, messages } = useLocale();
  const { posts, page, pageCount, category, tag, tags, categories, filterLabel } = loaderData;
  const filtered = Boolean(category || tag);
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{t('blogs.heading')}</h1>
      <p className="mt-4 max-w-2xl text-lg text-muted">{t('blogs.lead')}</p>

      <nav
        aria-label={t('blogs.filters')}
        className="mt-10 space-y-5 border-y border-line py-6"
        data-testid="blog-filters"
      >
        <div>
          <h2 className="text-sm font-semibold text-muted">{t('blogs.categoriesLabel')}</h2>
          <ul className="mt-3 flex flex-wrap gap-2" data-testid="category-filters">
            <li>
              <Link to={blogsHref(locale, {})} className={chip} aria-current={!filtered ? 'page' : undefined}>
                {t('blogs.all')}
              </Link>
            </li>
            {categories.map((option) => (
              <li key={option.id}>
                <Link
                  to={blogsHref(locale, { category: option.id })}
                  className={chip}
                  aria-current={category === option.id ? 'page' : undefined}
                >
                  {option.name}
                </Link>
              </li>
            ))}
          </ul>
        </div>
        {tags.length > 0 ? (
          <div>
            <h2 className="text-sm font-semibold text-muted">{t('blogs.tagsLabel')}</h2>
            <ul className="mt-3 flex flex-wrap gap-2" data-testid="tag-filters">
              {tags.map((name) => (
                <li key={name}>
                  <Link
                    to={blogsHref(locale, { tag: name })}
                    className={chip}
                    aria-current={tag === name ? 'page' : undefined}
                  >
                    #{tagLabel(t, messages, name)}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </nav>

      {filterLabel ? (
        <p className="mt-8 text-lg" data-testid="blog-filter-summary">
          {t('blogs.showing', { filter: filterLabel })}
        </p>
      ) : null}

      {posts.length === 0 ? (
        <div
          className="mt-12 rounded-xl border border-dashed border-line bg-sunken px-6 py-16 text-center"
          data-testid="blog-empty"
        >
          <h2 className="text-2xl font-semibold">{t('blogs.emptyHeading')}</h2>
          <p className="mt-3 text-muted">{filtered ? t('blogs.emptyFiltered') : t('blogs.empty')}</p>
          <Link
            to={filtered ? blogsHref(locale, {}) : `/${locale}`}
            className="mt-8 inline-flex rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
          >
            {filtered ? t('blogs.backToAll') : t('blogs.toHome')}
          </Link>
        </div>
      ) : (
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="blog-list">
          {posts.map((post, index) => (
            <li key={post._id}>
              <BlogCard post={post} category={categoryLabel(categories, post.category)} eager={index === 0} />
            </li>
          ))}
        </ul>
      )}

      <Pagination
        page={page}
        pageCount={pageCount}
        href={(number) => blogsHref(locale, { category, tag, page: number })}
      />
    </div>
  );
}
