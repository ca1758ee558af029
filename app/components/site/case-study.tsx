import { Link } from 'react-router';
import type { CaseStudy } from '../../../domain/case-studies';
import { useLocale } from '../../i18n/messages';
import { CallToAction } from './call-to-action';

/** One merchant's story: the business, the challenge, what they did, a quote and three results. */
export function CaseStudyStory({
  study,
  industryName,
  productHref,
}: {
  study: CaseStudy;
  industryName: string;
  productHref: string;
}) {
  const { t } = useLocale();
  const key = `cases.${study.id}`;
  return (
    <>
      <article className="mx-auto max-w-3xl px-4 py-14 sm:px-6" data-testid="case-study">
        <p className="font-semibold text-brand-700 dark:text-brand-300">
          {t(`${key}.label`)} · {industryName}
          {study.stores ? (
            <span className="ml-2 rounded-full bg-sunken px-2.5 py-0.5 text-sm">
              {t('cases.storesBadge', { count: study.stores })}
            </span>
          ) : null}
        </p>
        <h1 className="mt-3 text-4xl leading-tight font-bold tracking-tight">{t(`${key}.title`)}</h1>
        <p className="mt-3 text-muted">{t(`${key}.business`)}</p>
        <p className="mt-6 text-xl leading-8">{t(`${key}.summary`)}</p>
        <h2 className="mt-12 text-2xl font-semibold">{t('cases.challenge')}</h2>
        <p className="mt-3 text-lg leading-8">{t(`${key}.challenge`)}</p>
        <h2 className="mt-10 text-2xl font-semibold">{t('cases.solution')}</h2>
        <p className="mt-3 text-lg leading-8">{t(`${key}.solution`)}</p>
        <figure className="mt-10 rounded-2xl border-l-4 border-brand-500 bg-sunken p-6">
          <blockquote className="text-xl leading-8">“{t(`${key}.quote`)}”</blockquote>
          <figcaption className="mt-3 text-muted">
            — {t(`${key}.person`)}, {t(`${key}.business`)}
          </figcaption>
        </figure>
        <h2 className="mt-12 text-2xl font-semibold">{t('cases.results')}</h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-3" data-testid="results">
          {(['r1', 'r2', 'r3'] as const).map((result) => (
            <li key={result} className="rounded-xl border border-line bg-raised p-4 font-semibold">
              {t(`${key}.results.${result}`)}
            </li>
          ))}
        </ul>
        <p className="mt-10">
          <Link
            to={productHref}
            className="inline-flex rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
            data-testid="to-product"
          >
            {t('usecase.toProduct')}
          </Link>
        </p>
      </article>
      <CallToAction />
    </>
  );
}
