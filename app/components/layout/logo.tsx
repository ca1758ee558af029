import { Link } from 'react-router';
import { useLocale } from '../../i18n/messages';
import { useSite } from '../../shell';

/** The brand mark and name, linking home. */
export function Logo({ className = '' }: { className?: string }) {
  const { locale, t } = useLocale();
  const { site } = useSite();
  return (
    <Link
      to={`/${locale}`}
      className={`flex items-center gap-2 text-xl font-bold tracking-tight ${className}`}
      aria-label={t('nav.homeOf', { brand: site.brandName })}
    >
      <svg viewBox="0 0 32 32" className="h-8 w-8" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-brand-600" />
        <path d="M9 10h14M16 10v13" stroke="white" strokeWidth="3.2" strokeLinecap="round" />
        <circle cx="23" cy="22" r="2.6" className="fill-accent-400" />
      </svg>
      <span>{site.brandName}</span>
    </Link>
  );
}
