import { useState } from 'react';
import { inputName } from '../../../domain/admin/form';
import { DAY_RANGE_PARTS, type DayRangePart } from '../../../domain/entities/widget-values';
import { useLocale } from '../../i18n/messages';
import { FieldError, inputClass } from '../forms/fields';

export interface DateRangeFieldProps {
  /** The inputs' ids are `${id}-from` and `${id}-to`. */
  id: string;
  field: string;
  legend: string;
  required: boolean;
  /** Each day as YYYY-MM-DD, or empty. */
  values: Record<string, string>;
  error?: string;
  partErrors: Partial<Record<DayRangePart, string>>;
  autoFocus: boolean;
}

/**
 * A span of days in Hong Kong: the first and the last, both included. The browser's own day
 * pickers, the last one starting from the first day chosen; both empty is no span at all.
 */
export function DateRangeField({ id, field, legend, required, values, error, partErrors, autoFocus }: DateRangeFieldProps) {
  const { t } = useLocale();
  const [from, setFrom] = useState(values.from ?? '');
  const firstInvalid = DAY_RANGE_PARTS.find((part) => partErrors[part]);
  const hintId = `${id}-hint`;
  return (
    <fieldset className="min-w-0" aria-describedby={[hintId, error ? `${id}-error` : null].filter(Boolean).join(' ')} data-testid={`range-${field}`}>
      <legend className="font-medium">
        {legend}
        {required ? <span aria-hidden="true"> *</span> : null}
      </legend>
      <div className="mt-1.5 grid gap-3 sm:grid-cols-2">
        {DAY_RANGE_PARTS.map((part) => {
          const partId = `${id}-${part}`;
          const partError = partErrors[part];
          return (
            <div key={part} className="min-w-0">
              <label htmlFor={partId} className="block text-sm">
                {t(part === 'from' ? 'admin.from' : 'admin.to')}
              </label>
              <input
                type="date"
                id={partId}
                name={inputName(field, part)}
                defaultValue={values[part] ?? ''}
                min={part === 'to' && from ? from : undefined}
                onChange={part === 'from' ? (event) => setFrom(event.target.value) : undefined}
                className={`${inputClass} tabular-nums`}
                aria-invalid={partError || (error && !firstInvalid) ? true : undefined}
                aria-describedby={partError ? `${partId}-error` : undefined}
                autoFocus={(autoFocus && (firstInvalid ?? 'from') === part) || undefined}
              />
              <FieldError id={`${partId}-error`} text={partError} />
            </div>
          );
        })}
      </div>
      <p id={hintId} className="mt-1 text-xs text-muted">
        {t('admin.dateRange.hint')}
      </p>
      <FieldError id={`${id}-error`} text={error} />
    </fieldset>
  );
}
