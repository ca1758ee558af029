import { Link, useLocation } from 'react-router';
import { HTML_LANG, LOCALES, type Locale } from '../../../domain/locales';
import { useLocale } from '../../i18n/messages';
import { inLocale, rememberLocale } from '../../shell';
import { GlobeIcon } from '../ui/icons';

/** Each language by its own name (spec section 3). */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', 'zh-hk': '繁體中文', 'zh-cn': '简体中文' };

/** Links to the same page in each language; choosing one remembers it for 365 days. */
export function LanguageSelector({ className = '' }: { className?: string }) {
  const { t, locale } = useLocale();
  const location = useLocation();
  return (
    <nav aria-label={t('nav.language')} className={`flex items-center gap-1 text-sm ${className}`}>
      <GlobeIcon className="h-4 w-4 shrink-0 opacity-80" />
      <ul className="flex flex-wrap items-center">
        {LOCALES.map((target) => (
          <li key={target}>
            <Link
              to={inLocale(location.pathname, target) + location.search}
              lang={HTML_LANG[target]}
              hrefLang={HTML_LANG[target]}
              aria-current={target === locale ? 'true' : undefined}
              onClick={() => rememberLocale(target)}
              // The same, by the inline script, on a page without the framework's scripts.
              data-remember-locale={target}
              className="locale-link"
            >
              {LANGUAGE_NAMES[target]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
