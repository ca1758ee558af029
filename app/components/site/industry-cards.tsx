import { Link } from 'react-router';
import type { industries } from '../../../domain/entities/industries';
import type { RecordOf } from '../../../domain/entities/types';
import { localized } from '../../../domain/locales';
import { useLocale } from '../../i18n/messages';

/** What an industry's card shows. */
export type IndustrySummary = Pick<RecordOf<typeof industries>, '_id' | 'key' | 'name' | 'description'>;

/** The industries, each linking to its use-case page. */
export function IndustryCards({ industries }: { industries: IndustrySummary[] }) {
  const { locale } = useLocale();
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="industries">
      {industries.map((industry) => (
        <li key={industry._id}>
          <Link to={`/${locale}/usecase/${industry.key ?? industry._id}`} className="card-link">
            <h3 className="text-lg font-semibold">{localized(industry.name, locale)}</h3>
            <p className="mt-2 text-sm leading-6 text-muted">{localized(industry.description, locale)}</p>
          </Link>
        </li>
      ))}
    </ul>
  );
}
