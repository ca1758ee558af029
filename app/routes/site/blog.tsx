import { data, Link } from 'react-router';
import { formatDate } from '../../../domain/format';
import { isLocale, localized } from '../../../domain/locales';
import { ArticleJsonLd } from '../../components/blog/article-json-ld';
import { BlogCard, COVER_HEIGHT, COVER_WIDTH } from '../../components/blog/blog-card';
import { blogsHref, categoryLabel, tagLabel } from '../../components/blog/labels';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMeta } from '../../meta';
import { useSite } from '../../shell';
import { blogCategories, findBlog, relatedBlogs } from './blogs.server';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/blog';
import { pageMessages } from '../../i18n/messages.server';

/** Links only: the page is sent without the framework's scripts. */
export const handle: MarketingHandle = { scripts: false };

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['blogs', 'blog'] as const;

export async function loader({ context, params }: Route.LoaderArgs) {
  const caller = context.get(serverContext);
  // Unknown slugs and drafts alike are missing pages.
  const post = await findBlog(caller, params.name);
  if (!post) throw data(null, { status: 404 });
  const locale = isLocale(params.lang) ? params.lang : 'en';
  const [related, categories] = await Promise.all([relatedBlogs(caller, post), blogCategories(caller, locale)]);
  return { post, related, categories, messages: pageMessages(params.lang, messageGroups) };
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  if (!loaderData) return pageMeta(matches, { title: 'errorPage.notFound', index: false });
  const locale = isLocale(params.lang) ? params.lang : 'en';
  const { post } = loaderData;
  // The article's own summary describes it (pageMeta takes message keys, so it is added here).
  return [
    ...pageMeta(matches, { title: 'blog.metaTitle', values: { title: localized(post.title, locale) } }),
    { name: 'description', content: localized(post.summary, locale) },
  ];
}

/** Rich text of an article: its HTML elements styled here, since the markup comes from the editor. */
const BODY_STYLE = [
  'text-lg leading-relaxed',
  '[&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-semibold [&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-semibold [&_h4]:mt-6 [&_h4]:font-semibold',
  '[&_p]:mt-5 [&_ul]:mt-5 [&_ul]:list-disc [&_ol]:mt-5 [&_ol]:list-decimal [&_ul]:pl-6 [&_ol]:pl-6 [&_li]:mt-2',
  '[&_a]:text-link [&_a]:underline [&_strong]:font-semibold',
  '[&_blockquote]:mt-8 [&_blockquote]:border-l-4 [&_blockquote]:border-accent-500 [&_blockquote]:bg-sunken [&_blockquote]:px-5 [&_blockquote]:py-4 [&_blockquote]:italic',
  '[&_img]:mt-6 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg',
].join(' ');

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { t, locale, messages } = useLocale();
  const { site, origin } = useSite();
  const { post, related, categories } = loaderData;
  const title = localized(post.title, locale);
  const date = post.publishedAt;
  const url = `${origin}/${locale}/blogs/${post.slug}`;
  const absolute = (path: string) => (path.startsWith('/') ? `${origin}${path}` : path);
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <ArticleJsonLd
        url={url}
        headline={title}
        description={localized(post.summary, locale)}
        image={post.coverImage ? absolute(post.coverImage) : null}
        datePublished={date?.toISOString()}
        author={post.author}
        publisher={{ name: site.brandName, logo: `${origin}/favicon.svg` }}
        locale={locale}
        breadcrumb={[
          { name: t('blog.home'), url: `${origin}/${locale}` },
          { name: t('nav.blog'), url: `${origin}${blogsHref(locale, {})}` },
          { name: title, url },
        ]}
      />
      <nav aria-label={t('blog.breadcrumb')} className="text-sm text-muted">
        <ol className="flex flex-wrap items-center gap-2">
          <li>
            <Link to={`/${locale}`} className="hover:underline">
              {t('blog.home')}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link to={blogsHref(locale, {})} className="hover:underline">
              {t('nav.blog')}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="line-clamp-1 text-ink">
            {title}
          </li>
        </ol>
      </nav>

      <article className="mx-auto mt-8 max-w-3xl" data-testid="blog-article">
        <header>
          <Link
            to={blogsHref(locale, { category: post.category })}
            className="text-sm font-semibold text-link hover:underline"
            data-testid="blog-category"
          >
            {categoryLabel(categories, post.category)}
          </Link>
          <h1 className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
          <p className="mt-4 text-lg text-muted">{localized(post.summary, locale)}</p>
          <p className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted">
            {date ? <time dateTime={date.toISOString()}>{formatDate(date, locale)}</time> : null}
            {post.author ? <span data-testid="blog-author">{t('blog.byAuthor', { author: post.author })}</span> : null}
          </p>
        </header>
        {post.coverImage ? (
          <img
            src={post.coverImage}
            alt={localized(post.coverAlt, locale)}
            width={COVER_WIDTH}
            height={COVER_HEIGHT}
            fetchPriority="high"
            className="mt-8 aspect-[16/9] w-full rounded-xl bg-sunken object-cover"
          />
        ) : null}
        <div
          className={`mt-4 ${BODY_STYLE}`}
          data-testid="blog-body"
          // Safe only because the blogs service sanitises every body on write (server/services/blogs/sanitize.ts).
          dangerouslySetInnerHTML={{ __html: localized(post.body, locale) }}
        />
        {post.tags.length > 0 ? (
          <section aria-labelledby="blog-tags" className="mt-10 border-t border-line pt-6">
            <h2 id="blog-tags" className="text-sm font-semibold text-muted">
              {t('blog.tags')}
            </h2>
            <ul className="mt-3 flex flex-wrap gap-2" data-testid="blog-tags">
              {post.tags.map((tag) => (
                <li key={tag}>
                  <Link
                    to={blogsHref(locale, { tag })}
                    className="inline-flex rounded-full border border-line px-3.5 py-1.5 text-sm font-medium hover:bg-sunken"
                  >
                    #{tagLabel(t, messages, tag)}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </article>

      {related.length > 0 ? (
        <section aria-labelledby="related-heading" className="mt-16 border-t border-line pt-10">
          <h2 id="related-heading" className="text-2xl font-semibold">
            {t('blog.related')}
          </h2>
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="related-articles">
            {related.map((item) => (
              <li key={item._id}>
                <BlogCard post={item} category={categoryLabel(categories, item.category)} headingLevel={3} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p className="mt-12 text-center">
        <Link to={blogsHref(locale, {})} className="font-semibold text-link hover:underline">
          {t('blog.allArticles')}
        </Link>
      </p>
    </div>
  );
}
