import { Link } from 'react-router';
import { formatDate } from '../../../domain/format';
import { localized } from '../../../domain/locales';
import { useLocale } from '../../i18n/messages';
import type { BlogSummary } from './types';

/** Covers are drawn at 16:9; the size is given so the page does not jump while they load. */
export const COVER_WIDTH = 1200;
export const COVER_HEIGHT = 675;

/** An article in a list: cover, category (its name, from the categories' list), title (the link), summary and date. */
export function BlogCard({
  post,
  category,
  eager = false,
  headingLevel = 2,
}: {
  post: BlogSummary;
  category: string;
  eager?: boolean;
  headingLevel?: 2 | 3;
}) {
  const { locale } = useLocale();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article
      className="relative flex h-full flex-col overflow-hidden rounded-xl border border-line bg-raised shadow-sm transition-shadow hover:shadow-md"
      data-testid="blog-card"
    >
      {post.coverImage ? (
        <img
          src={post.coverImage}
          alt={localized(post.coverAlt, locale)}
          width={COVER_WIDTH}
          height={COVER_HEIGHT}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="aspect-[16/9] w-full bg-sunken object-cover"
        />
      ) : (
        <div aria-hidden="true" className="aspect-[16/9] w-full bg-gradient-to-br from-brand-600 to-brand-900" />
      )}
      <div className="flex flex-1 flex-col p-5">
        <p className="text-sm font-semibold text-link" data-testid="blog-card-category">
          {category}
        </p>
        <Heading className="mt-2 text-lg leading-snug font-semibold">
          {/* The whole card is the link's target area, through the pseudo-element. */}
          <Link
            to={`/${locale}/blogs/${post.slug}`}
            className="after:absolute after:inset-0 hover:underline focus-visible:underline"
          >
            {localized(post.title, locale)}
          </Link>
        </Heading>
        <p className="mt-2 flex-1 text-muted">{localized(post.summary, locale)}</p>
        {post.publishedAt ? (
          <p className="mt-4 text-sm text-muted">
            <time dateTime={post.publishedAt.toISOString()}>{formatDate(post.publishedAt, locale)}</time>
          </p>
        ) : null}
      </div>
    </article>
  );
}
