import { useLocale } from '../../i18n/messages';
import { TryNow } from '../layout/try-now';

const HIGHLIGHTS = ['onboarding', 'support', 'opinions'] as const;

/** The closing block: three highlights (quick onboarding, 24/7 support, valuing opinions) and the main action. */
export function CallToAction() {
  const { t } = useLocale();
  return (
    <section aria-labelledby="cta-heading" className="bg-brand-900 py-16 text-white sm:py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <div className="max-w-3xl">
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            {t('home.cta.heading')}
          </h2>
          <p className="mt-4 text-lg text-brand-100">{t('home.cta.lead')}</p>
        </div>
        <ul className="mt-10 grid gap-6 md:grid-cols-3" data-testid="cta-highlights">
          {HIGHLIGHTS.map((highlight) => (
            <li key={highlight} className="rounded-2xl bg-white/10 p-6">
              <h3 className="text-xl font-semibold">{t(`home.cta.${highlight}.title`)}</h3>
              <p className="mt-2 text-brand-50">{t(`home.cta.${highlight}.text`)}</p>
            </li>
          ))}
        </ul>
        <div className="mt-10 flex flex-wrap items-center gap-4">
          <TryNow className="px-6 py-3 text-lg" testId="cta-try-now" />
          <p className="text-brand-100">{t('home.cta.offers')}</p>
        </div>
      </div>
    </section>
  );
}
