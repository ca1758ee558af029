import { Link } from 'react-router';
import { useLocale } from '../../i18n/messages';

const STATS = ['merchants', 'delivery', 'modules', 'countries'] as const;
const CLAIMS = ['sales', 'cost', 'order', 'workflow', 'repeat', 'staff'] as const;

/** The scale of the business in four figures. */
export function Stats() {
  const { t } = useLocale();
  return (
    <section aria-label={t('home.stats.label')} className="border-y border-line bg-raised">
      <dl className="mx-auto grid max-w-7xl grid-cols-2 gap-6 px-4 py-8 sm:px-6 md:grid-cols-4">
        {STATS.map((stat) => (
          <div key={stat} className="flex flex-col-reverse text-center">
            <dt className="text-sm text-muted">{t(`home.stats.${stat}`)}</dt>
            <dd className="text-3xl text-figure">{t(`home.stats.${stat}Value`)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** What merchants report: the six result figures of the spec. */
export function Claims({ graphHref }: { graphHref: string }) {
  const { t } = useLocale();
  return (
    <>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="claims">
        {CLAIMS.map((claim) => (
          <li key={claim} className="rounded-2xl border border-line bg-raised p-6">
            <p className="text-4xl font-bold tracking-tight text-brand-700 dark:text-brand-300">
              {t(`home.claims.${claim}Value`)}
            </p>
            <p className="mt-2 text-lg">{t(`home.claims.${claim}`)}</p>
          </li>
        ))}
      </ul>
      <p className="mt-6">
        <Link to={graphHref} className="text-action">
          {t('home.claims.more')} →
        </Link>
      </p>
    </>
  );
}
