import { useState } from 'react';
import { inputName } from '../../../domain/admin/form';
import { DAY_RANGE_PARTS, type DayRangePart } from '../../../domain/entities/widget-values';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import { PartInput, PartsFieldset, type PartsFieldProps } from './parts-fieldset';

export type DateRangeFieldProps = PartsFieldProps<DayRangePart> & {
  /** Both days as chosen, after either changes. */
  onChange?: (values: Record<DayRangePart, string>) => void;
};

/**
 * A span of days in Hong Kong: the first and the last, both included. The browser's own day
 * pickers, the last one starting from the first day chosen; both empty is no span at all.
 */
export function DateRangeField({
  id,
  field,
  legend,
  required,
  values,
  error,
  partErrors,
  autoFocus,
  onChange,
}: DateRangeFieldProps) {
  const { t } = useLocale();
  const [days, setDays] = useState<Record<DayRangePart, string>>({ from: values.from ?? '', to: values.to ?? '' });
  const from = days.from;
  const firstInvalid = DAY_RANGE_PARTS.find((part) => partErrors[part]);
  const hintId = `${id}-hint`;
  return (
    <PartsFieldset
      id={id}
      legend={legend}
      required={required}
      error={error}
      describedBy={[hintId, error ? `${id}-error` : null].filter(Boolean).join(' ')}
      testId={`range-${field}`}
      columns="sm:grid-cols-2"
      hint={{ id: hintId, text: t('admin.dateRange.hint') }}
    >
      {DAY_RANGE_PARTS.map((part) => {
        const partId = `${id}-${part}`;
        const partError = partErrors[part];
        return (
          <PartInput key={part} id={partId} label={t(part === 'from' ? 'admin.from' : 'admin.to')} error={partError}>
            <input
              type="date"
              id={partId}
              name={inputName(field, part)}
              defaultValue={values[part] ?? ''}
              min={part === 'to' && from ? from : undefined}
              onChange={(event) => {
                const next = { ...days, [part]: event.target.value };
                setDays(next);
                onChange?.(next);
              }}
              className={`${inputClass} tabular-nums`}
              aria-invalid={partError || (error && !firstInvalid) ? true : undefined}
              aria-describedby={partError ? `${partId}-error` : undefined}
              autoFocus={(autoFocus && (firstInvalid ?? 'from') === part) || undefined}
            />
          </PartInput>
        );
      })}
    </PartsFieldset>
  );
}
