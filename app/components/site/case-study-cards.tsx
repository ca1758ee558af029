import { Link } from 'react-router';
import type { CaseStudy } from '../../../domain/case-studies';
import { useLocale } from '../../i18n/messages';

/** Case studies as cards linking to their stories. */
export function CaseStudyCards({ studies }: { studies: readonly CaseStudy[] }) {
  const { t, locale } = useLocale();
  return (
    <ul className="grid gap-6 md:grid-cols-2" data-testid="case-studies">
      {studies.map((study) => (
        <li key={study.id} className="flex flex-col rounded-2xl border border-line bg-raised p-6">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">
            {t(`cases.${study.id}.label`)}
          </p>
          <h3 className="mt-2 text-xl font-semibold">{t(`cases.${study.id}.title`)}</h3>
          <p className="mt-1 text-sm text-muted">{t(`cases.${study.id}.business`)}</p>
          <p className="mt-4 flex-1">{t(`cases.${study.id}.summary`)}</p>
          <Link to={`/${locale}/usecase/${study.industryKey}/${study.id}`} className="mt-5 text-action">
            {t('home.cases.read')}
            <span className="sr-only">: {t(`cases.${study.id}.title`)}</span> →
          </Link>
        </li>
      ))}
    </ul>
  );
}
