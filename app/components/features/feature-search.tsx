import type { Ref } from 'react';
import { Form } from 'react-router';
import {
  FEATURE_AREAS,
  isFeatureArea,
  isProductLine,
  MAX_QUERY_LENGTH,
  PRODUCT_LINES,
  type FeatureQuery,
} from '../../../domain/feature-matrix';
import { useLocale } from '../../i18n/messages';
import { SearchIcon } from '../ui/icons';

const field =
  'mt-1.5 w-full rounded-lg border border-line bg-raised px-3.5 py-2.5 text-ink shadow-sm focus:border-brand-500';

interface SelectFieldProps {
  id: string;
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}

function SelectField({ id, name, label, value, options, onChange }: SelectFieldProps) {
  return (
    <div>
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      <select id={id} name={name} value={value} onChange={(event) => onChange(event.target.value)} className={field}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A plain GET form: without JavaScript it reloads the page with `?q=&area=&pos=`, filtered on the
 * server; with it, every change filters at once through `onChange`.
 */
export function FeatureSearch({
  query,
  onChange,
  formRef,
}: {
  query: FeatureQuery;
  onChange: (query: FeatureQuery) => void;
  formRef?: Ref<HTMLFormElement>;
}) {
  const { t } = useLocale();
  return (
    <Form
      ref={formRef}
      method="get"
      role="search"
      className="grid gap-4 rounded-xl border border-line bg-sunken p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto] lg:items-end"
      // The results already follow every keystroke: Enter need not navigate again.
      onSubmit={(event) => event.preventDefault()}
    >
      <div className="sm:col-span-2 lg:col-span-1">
        <label htmlFor="feature-q" className="block font-medium">
          {t('featureList.search.label')}
        </label>
        <input
          id="feature-q"
          name="q"
          type="search"
          autoComplete="off"
          maxLength={MAX_QUERY_LENGTH}
          value={query.q}
          onChange={(event) => onChange({ ...query, q: event.target.value })}
          className={field}
        />
      </div>
      <SelectField
        id="feature-area"
        name="area"
        label={t('featureList.search.area')}
        value={query.area ?? ''}
        options={[
          { value: '', label: t('featureList.search.allAreas') },
          ...FEATURE_AREAS.map((area) => ({ value: area, label: t(`featureList.areas.${area}`) })),
        ]}
        onChange={(value) => onChange({ ...query, area: isFeatureArea(value) ? value : null })}
      />
      <SelectField
        id="feature-pos"
        name="pos"
        label={t('featureList.search.line')}
        value={query.line}
        options={PRODUCT_LINES.map((line) => ({ value: line, label: t(`featureList.lines.${line}`) }))}
        onChange={(value) => onChange({ ...query, line: isProductLine(value) ? value : 'restaurant' })}
      />
      <button
        type="submit"
        className="inline-flex items-center justify-center gap-2 rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
      >
        <SearchIcon className="h-4 w-4" />
        {t('featureList.search.submit')}
      </button>
    </Form>
  );
}
