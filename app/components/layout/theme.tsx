import { useEffect, useState } from 'react';
import { useLocale } from '../../i18n/messages';
import { MoonIcon, SunIcon } from '../ui/icons';
import { THEME_TOGGLED } from './static-page';

export const THEME_KEY = 'theme';

/**
 * Runs in <head> before the body is painted: the remembered choice, else the system's, so the
 * page never flashes the wrong theme.
 */
export const THEME_SCRIPT = `(function(){var d=document.documentElement;try{var t=localStorage.getItem('${THEME_KEY}');var k=t==='dark'||(t!=='light'&&window.matchMedia('(prefers-color-scheme: dark)').matches);d.classList.toggle('dark',k);d.style.colorScheme=k?'dark':'light'}catch(e){}})();`;

function applyTheme(dark: boolean) {
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

/** The visitor's choice, if storage holds one (private modes may refuse storage). */
function storedTheme(): string | null {
  try {
    return localStorage.getItem(THEME_KEY);
  } catch {
    return null;
  }
}

/**
 * Follows the system's scheme while the visitor has not chosen one, on every page, also those
 * without a theme toggle (the portal embedded in the company's apps, `?sso`, has no header).
 */
export function useSystemTheme(): void {
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    // A change between the inline script's run and hydration is taken here.
    if (!storedTheme()) applyTheme(media.matches);
    const follow = (event: MediaQueryListEvent) => {
      if (!storedTheme()) applyTheme(event.matches);
    };
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);
}

/** Switches between light and dark; follows the system until the visitor chooses (with `useSystemTheme`). */
export function ThemeToggle({ className = '' }: { className?: string }) {
  const { t } = useLocale();
  const [dark, setDark] = useState(false);

  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    // The page (useSystemTheme, whose effect runs after this one) applies the system's scheme; the button shows it.
    setDark(storedTheme() ? document.documentElement.classList.contains('dark') : media.matches);
    const follow = (event: MediaQueryListEvent) => {
      if (!storedTheme()) setDark(event.matches);
    };
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);

  return (
    <button
      type="button"
      aria-pressed={dark}
      aria-label={t('theme.dark')}
      title={dark ? t('theme.toLight') : t('theme.toDark')}
      // On a page without the framework's scripts, the inline script reads these (static-page.ts).
      data-theme-toggle=""
      data-title-dark={t('theme.toDark')}
      data-title-light={t('theme.toLight')}
      onClick={(event) => {
        // The script before hydration switched the theme for this click already: the button shows it.
        if (Reflect.get(event.nativeEvent, THEME_TOGGLED) === true) {
          setDark(document.documentElement.classList.contains('dark'));
          return;
        }
        const next = !dark;
        applyTheme(next);
        setDark(next);
        try {
          localStorage.setItem(THEME_KEY, next ? 'dark' : 'light');
        } catch {
          // Private modes may refuse storage: the choice holds for this page only.
        }
      }}
      // Without scripts it could do nothing (the page stays light): hidden then.
      className={`grid h-10 w-10 place-items-center rounded-full hover:bg-black/5 no-scripting:hidden dark:hover:bg-white/10 ${className}`}
    >
      <SunIcon className="hidden h-5 w-5 dark:block" />
      <MoonIcon className="h-5 w-5 dark:hidden" />
    </button>
  );
}
