import { useRef, useState } from 'react';
import { LOCALES, type Locale } from '../../../domain/locales';
import { useLocale } from '../../i18n/messages';
import { FieldError } from '../forms/fields';
import { LANGUAGE_NAMES } from '../layout/language-selector';

export interface TranslatedFieldProps {
  id: string;
  legend: string;
  required: boolean;
  /** The text in each language as saved. */
  texts: Record<string, string>;
  error?: string;
  /** The input of one language; `labelledBy` names the field and its tab; `report` hears its text as it changes. */
  children: (language: Locale, labelledBy: string, report: (text: string) => void) => React.ReactNode;
}

/**
 * A text written in each of the three languages, one tab per language (English first, as it is the
 * one a record must have). Every language's input stays in the form whichever tab shows, so a save
 * carries all three. A tab says whether its language is still empty.
 */
export function TranslatedField({ id, legend, required, texts, error, children }: TranslatedFieldProps) {
  const { t } = useLocale();
  const [current, setCurrent] = useState<Locale>('en');
  const [filled, setFilled] = useState(() =>
    Object.fromEntries(LOCALES.map((language) => [language, Boolean(texts[language]?.trim())])),
  );
  const report = (language: Locale) => (text: string) => {
    const now = Boolean(text.trim());
    setFilled((before) => (before[language] === now ? before : { ...before, [language]: now }));
  };
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (index: number) => {
    const next = LOCALES[(index + LOCALES.length) % LOCALES.length] as Locale;
    setCurrent(next);
    tabs.current[LOCALES.indexOf(next)]?.focus();
  };
  return (
    <fieldset className="min-w-0" data-testid={`translated-${id}`}>
      <legend id={`${id}-legend`} className="font-medium">
        {legend}
        {required ? <span aria-hidden="true"> *</span> : null}
      </legend>
      <div
        role="tablist"
        aria-label={t('admin.languages', { field: legend })}
        className="mt-1.5 flex gap-1 border-b border-line"
      >
        {LOCALES.map((language, index) => {
          const selected = language === current;
          return (
            <button
              key={language}
              ref={(element) => {
                tabs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${language}`}
              aria-selected={selected}
              aria-controls={`${id}-panel-${language}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => setCurrent(language)}
              onKeyDown={(event) => {
                if (event.key === 'ArrowRight') move(index + 1);
                else if (event.key === 'ArrowLeft') move(index - 1);
                else if (event.key === 'Home') move(0);
                else if (event.key === 'End') move(LOCALES.length - 1);
                else return;
                event.preventDefault();
              }}
              className={`-mb-px inline-flex min-h-10 items-center gap-1.5 border-b-2 px-3 text-sm font-semibold ${selected ? 'border-brand-600 text-ink' : 'border-transparent text-muted hover:text-ink'}`}
            >
              {LANGUAGE_NAMES[language]}
              {filled[language] ? null : (
                <span className="text-xs font-normal text-muted">({t('admin.emptyLanguage')})</span>
              )}
            </button>
          );
        })}
      </div>
      {LOCALES.map((language) => (
        <div
          key={language}
          role="tabpanel"
          id={`${id}-panel-${language}`}
          aria-labelledby={`${id}-tab-${language}`}
          hidden={language !== current}
        >
          {children(language, `${id}-legend ${id}-tab-${language}`, report(language))}
        </div>
      ))}
      <FieldError id={`${id}-error`} text={error} />
    </fieldset>
  );
}
