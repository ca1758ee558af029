import { data } from 'react-router';
import { textOfHtml } from '../../../domain/admin/export-cells';
import { formatDate, formatDateTime } from '../../../domain/format';
import { isLocale, localized, type I18nText } from '../../../domain/locales';
import { EVENT_TIME_ZONES, type EventLocation } from '../../../domain/news/constants';
import { imageUrl } from '../../../domain/uploads/limits';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import type { RootData } from '../../shell';
import { findNews } from './news.server';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/news-item';

/*
 * A news item of the apps on the site (decision 059): what its Facebook post links to, for
 * whoever follows the link without the app. Published items in their window only; sent without
 * the framework's scripts.
 */

export const handle: MarketingHandle = { scripts: false };

export const messageGroups = ['newsPage'] as const;

export async function loader({ context, params }: Route.LoaderArgs) {
  const item = await findNews(context.get(serverContext), params.id);
  if (!item) throw data(null, { status: 404 });
  return { item, messages: pageMessages(params.lang, messageGroups) };
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  if (!loaderData) return pageMeta(matches, { title: 'errorPage.notFound', index: false });
  const locale = isLocale(params.lang) ? params.lang : 'en';
  const { item } = loaderData;
  const title = localized(item.title as I18nText, locale);
  const description = textOfHtml(localized(item.content as I18nText, locale)).slice(0, 200);
  const origin = (matches.find((match) => match?.id === 'root')?.loaderData as RootData | undefined)?.origin ?? '';
  return [
    ...pageMeta(matches, {
      title: 'newsPage.metaTitle',
      values: { title },
      type: 'article',
      ...(item.image ? { image: { url: `${origin}${imageUrl(item.image, 'large', 'jpg')}`, alt: title } } : {}),
    }),
    { name: 'description', content: description },
  ];
}

/** Rich text of an item, as the editor writes it (sanitised on write: server/services/news/news.ts). */
const BODY_STYLE = [
  'text-lg leading-relaxed',
  '[&_h2]:mt-8 [&_h2]:text-2xl [&_h2]:font-semibold [&_h3]:mt-6 [&_h3]:text-xl [&_h3]:font-semibold',
  '[&_p]:mt-5 [&_ul]:mt-5 [&_ul]:list-disc [&_ol]:mt-5 [&_ol]:list-decimal [&_ul]:pl-6 [&_ol]:pl-6 [&_li]:mt-2',
  '[&_a]:text-link [&_a]:underline [&_strong]:font-semibold [&_img]:mt-6 [&_img]:h-auto [&_img]:max-w-full',
].join(' ');

export default function NewsItem({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const { item } = loaderData;
  const title = localized(item.title as I18nText, locale);
  const location = item.eventLocation as EventLocation | null;
  const zone = EVENT_TIME_ZONES[location ?? 'hk'];
  const facts: [string, string, string?][] = [];
  if (item.hasEvent && item.eventStartDate) {
    facts.push([t('newsPage.starts'), formatDateTime(item.eventStartDate, locale, zone)]);
    if (item.eventEndDate) facts.push([t('newsPage.ends'), formatDateTime(item.eventEndDate, locale, zone)]);
    const place = location ? t(`newsPage.location.${location}`) : '';
    const where = [item.eventRegion, place].filter(Boolean).join(', ');
    if (where) facts.push([t('newsPage.where'), where]);
    if (item.eventMapUrl) facts.push([t('newsPage.map'), item.eventMapUrl, item.eventMapUrl]);
    if (item.eventJoinUrl) facts.push([t('newsPage.join'), item.eventJoinUrl, item.eventJoinUrl]);
  }
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <article data-testid="news-article">
        <header>
          <p className="text-sm text-muted">
            <time dateTime={new Date(item.date).toISOString()}>{formatDate(item.date, locale)}</time>
          </p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        </header>
        {item.image ? (
          <img
            src={imageUrl(item.image, 'large', 'jpg')}
            alt=""
            width={1200}
            height={675}
            fetchPriority="high"
            className="mt-8 aspect-[16/9] w-full rounded-xl bg-sunken object-cover"
          />
        ) : null}
        <div
          className={`mt-4 ${BODY_STYLE}`}
          data-testid="news-body"
          // Safe only because the news service sanitises every text on write.
          dangerouslySetInnerHTML={{ __html: localized(item.content as I18nText, locale) }}
        />
        {facts.length > 0 ? (
          <section
            aria-labelledby="news-event"
            className="mt-10 rounded-xl border border-line p-6"
            data-testid="news-event"
          >
            <h2 id="news-event" className="text-xl font-semibold">
              {localized((item.eventTitle ?? item.title) as I18nText, locale)}
            </h2>
            <dl className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
              {facts.map(([label, value, href]) => (
                <div key={label} className="contents">
                  <dt className="font-semibold text-muted">{label}</dt>
                  <dd className="break-words">
                    {href ? (
                      <a href={href} className="text-link underline" rel="noopener noreferrer">
                        {value}
                      </a>
                    ) : (
                      value
                    )}
                  </dd>
                </div>
              ))}
            </dl>
            {item.eventContent ? (
              <div
                className={`mt-4 ${BODY_STYLE}`}
                // Sanitised on write, as the item's text.
                dangerouslySetInnerHTML={{ __html: localized(item.eventContent as I18nText, locale) }}
              />
            ) : null}
          </section>
        ) : null}
        <p className="mt-10 border-t border-line pt-6 text-muted">
          {item.hasEvent ? t('newsPage.registerInApp') : t('newsPage.inTheApp')}
        </p>
      </article>
    </div>
  );
}
