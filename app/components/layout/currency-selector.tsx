import { useEffect, useRef, useState } from 'react';
import { Form, useLocation } from 'react-router';
import { CURRENCIES, type CurrencyCode } from '../../../domain/money';
import { useLocale } from '../../i18n/messages';

/**
 * Chooses the currency prices show in. Without JavaScript it is a form with a button; with it,
 * choosing submits at once.
 */
export function CurrencySelector({
  currencies,
  current,
  className = '',
}: {
  currencies: CurrencyCode[];
  current: CurrencyCode;
  className?: string;
}) {
  const { t, locale } = useLocale();
  const location = useLocation();
  const form = useRef<HTMLFormElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return (
    <Form
      ref={form}
      method="post"
      action={`/${locale}/currency`}
      className={`flex items-center gap-2 text-sm ${className}`}
    >
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label htmlFor="currency-select">{t('microsite.currency')}</label>
      <select
        id="currency-select"
        name="currency"
        defaultValue={current}
        key={current}
        onChange={() => form.current?.requestSubmit()}
        className="rounded-md border border-white/30 bg-brand-950 px-2 py-1.5 text-white"
      >
        {currencies.map((code) => (
          <option key={code} value={code}>
            {t('currencies.option', { name: t(`currencies.names.${code}`), symbol: CURRENCIES[code].symbol })}
          </option>
        ))}
      </select>
      {enhanced ? null : (
        <button type="submit" className="rounded-md border border-white/30 px-2 py-1.5">
          {t('microsite.applyCurrency')}
        </button>
      )}
    </Form>
  );
}
