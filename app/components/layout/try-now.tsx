import { Link } from 'react-router';
import { useLocale } from '../../i18n/messages';
import { siteLinks, useShell, useSite } from '../../shell';

/** Where "try it now" leads: the enquiry form while the contact-form feature is on, else the chat. */
export function useTryNow() {
  const { locale } = useLocale();
  const { market } = useShell();
  const { site } = useSite();
  return market.contactForm
    ? { to: siteLinks(locale, site.brandSlug).enquiry, external: false }
    : { to: site.chatUrl, external: true };
}

export function TryNow({
  className = '',
  testId = 'try-now',
  label,
}: {
  className?: string;
  testId?: string;
  label?: string;
}) {
  const { t } = useLocale();
  const tryNow = useTryNow();
  const style = `inline-flex items-center justify-center whitespace-nowrap rounded-full bg-accent-400 px-4 py-2.5 sm:px-5 font-semibold text-brand-950 shadow-sm hover:bg-accent-500 ${className}`;
  const text = label ?? t('nav.tryNow');
  return tryNow.external ? (
    <a href={tryNow.to} target="_blank" rel="noopener" className={style} data-testid={testId}>
      {text}
    </a>
  ) : (
    <Link to={tryNow.to} className={style} data-testid={testId}>
      {text}
    </Link>
  );
}
