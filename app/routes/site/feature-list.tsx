import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router';
import {
  FEATURES,
  featureSearch,
  filterFeatures,
  parseFeatureQuery,
  type Feature,
  type FeatureQuery,
} from '../../../domain/feature-matrix';
import { FeatureSearch } from '../../components/features/feature-search';
import { FeatureTable } from '../../components/features/feature-table';
import { useValuesFromBeforeHydration } from '../../components/forms/use-values-from-before-hydration';
import { useLocale, type Translate } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { siteLinks, useSite } from '../../shell';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/feature-list';

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['featureList'] as const;

/**
 * The search works from the server (a GET form); its scripts, which filter as the visitor types,
 * wait for an interaction, and take over what was typed before they ran.
 */
export const handle: MarketingHandle = { scripts: 'on-interaction' };

export function loader({ params }: Route.LoaderArgs) {
  return { messages: pageMessages(params.lang, messageGroups) };
}

/** The search filters in the browser: a new query string needs nothing from the server. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'featureList.title', description: 'featureList.description' });
}

/** The words a visitor may search a feature by, in the page's language. */
function searchableText(t: Translate) {
  return (feature: Feature) =>
    [
      t(`featureList.features.${feature.key}.name`),
      t(`featureList.features.${feature.key}.description`),
      t(`featureList.areas.${feature.area}`),
    ].join(' ');
}

/** Marks the URL changes made while typing, so they are not read back into the field mid-word. */
const TYPED = { typed: true };

/**
 * The query lives in the URL, so a search can be shared and works without JavaScript (the server
 * renders the filtered table). With JavaScript the field is local state and the URL follows it.
 * No loader: a query change runs no request, only this component.
 */
function useFeatureQuery() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const [query, setQuery] = useState(() => parseFeatureQuery(searchParams));
  useEffect(() => {
    // A link or the back button changed the URL: show what it asks for.
    if ((location.state as typeof TYPED | null)?.typed !== true) setQuery(parseFeatureQuery(searchParams));
  }, [location.key]); // A new location, not each new params object.
  const update = (next: FeatureQuery) => {
    setQuery(next);
    setSearchParams(new URLSearchParams(featureSearch(next)), {
      replace: true,
      preventScrollReset: true,
      state: TYPED,
    });
  };
  // A search typed before the page hydrated is kept, and filters.
  const form = useRef<HTMLFormElement>(null);
  useValuesFromBeforeHydration(form, (values) => {
    const typed = parseFeatureQuery(values);
    if (featureSearch(typed) !== featureSearch(query)) update(typed);
  });
  return [query, update, form] as const;
}

export default function FeatureList() {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const [query, setQuery, form] = useFeatureQuery();
  const shown = filterFeatures(FEATURES, query, searchableText(t));
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">{t('featureList.heading')}</h1>
      <p className="mt-4 max-w-3xl text-lg text-muted">{t('featureList.intro')}</p>
      <div className="mt-8">
        <FeatureSearch query={query} onChange={setQuery} formRef={form} />
      </div>
      <p role="status" className="mt-6 font-medium" data-testid="feature-count">
        {t('featureList.search.results', { count: shown.length })}
      </p>
      {shown.length ? (
        <div className="mt-4">
          <FeatureTable features={shown} line={query.line} />
        </div>
      ) : (
        <div className="mt-4 rounded-xl border border-line bg-raised p-6" data-testid="feature-empty">
          <p>{t('featureList.search.none', { q: query.q })}</p>
          <Link
            to={featureSearch({ q: '', area: null, line: query.line }) || '.'}
            className="mt-3 inline-block font-medium text-link underline"
          >
            {t('featureList.search.clear')}
          </Link>
        </div>
      )}
      <div className="mt-8 max-w-3xl space-y-2 text-sm text-muted">
        <p>{t('featureList.notes.addOn')}</p>
        <p>{t('featureList.notes.flexiPlus')}</p>
        <p>
          <Link to={siteLinks(locale, site.brandSlug).pricing} className="font-medium text-link underline">
            {t('featureList.notes.pricing')}
          </Link>
        </p>
      </div>
    </div>
  );
}
