import { useState } from 'react';
import { inputName } from '../../../domain/admin/form';
import {
  coordinatePair,
  MAP_POINT_PARTS,
  mapPointSchema,
  openStreetMapLink,
  type MapPointPart,
} from '../../../domain/entities/widget-values';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import { PartInput, PartsFieldset, type PartsFieldProps } from './parts-fieldset';

export type MapPointFieldProps = PartsFieldProps<MapPointPart> & {
  /** The parts as typed, after any change. */
  onChange: (values: Record<string, string>) => void;
};

/**
 * Where an app's map opens: latitude and longitude, and the span it shows of each. A point copied
 * from a map (`22.28, 114.16`) pasted into either coordinate fills both. A link opens the point on
 * OpenStreetMap's site; no map is drawn here, as the page loads nothing from other sites.
 */
export function MapPointField({
  id,
  field,
  legend,
  required,
  values,
  error,
  partErrors,
  autoFocus,
  onChange,
}: MapPointFieldProps) {
  const { t } = useLocale();
  const [parts, setParts] = useState<Record<string, string>>(values);
  const set = (changes: Record<string, string>) => {
    const next = { ...parts, ...changes };
    setParts(next);
    onChange(next);
  };
  /** A pair in a coordinate's box fills both; anything else is that coordinate's text. */
  const typed = (part: MapPointPart, text: string) => {
    const pair = part === 'latitude' || part === 'longitude' ? coordinatePair(text) : null;
    set(pair ? { latitude: String(pair.latitude), longitude: String(pair.longitude) } : { [part]: text });
  };
  const point = mapPointSchema.safeParse(
    Object.fromEntries(MAP_POINT_PARTS.map((part) => [part, Number(parts[part] === '' ? Number.NaN : parts[part])])),
  );
  const firstInvalid = MAP_POINT_PARTS.find((part) => partErrors[part]);
  const hintId = `${id}-hint`;
  return (
    <PartsFieldset
      id={id}
      legend={legend}
      required={required}
      error={error}
      describedBy={error ? `${id}-error` : undefined}
      testId={`map-${field}`}
      columns="sm:grid-cols-2 lg:grid-cols-4"
      hint={{ id: hintId, text: t('admin.mapPoint.hint') }}
      after={
        point.success ? (
          <a
            href={openStreetMapLink(point.data)}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-2 inline-block text-sm font-semibold underline underline-offset-4"
            data-testid="map-link"
          >
            {t('admin.mapPoint.view')}
            <span className="sr-only"> {t('admin.newTab')}</span>
          </a>
        ) : null
      }
    >
      {MAP_POINT_PARTS.map((part) => {
        const partId = `${id}-${part}`;
        const partError = partErrors[part];
        return (
          <PartInput key={part} id={partId} label={t(`admin.mapPoint.${part}`)} error={partError}>
            <input
              id={partId}
              name={inputName(field, part)}
              value={parts[part] ?? ''}
              onChange={(event) => typed(part, event.target.value)}
              onPaste={(event) => {
                const pair =
                  part === 'latitude' || part === 'longitude'
                    ? coordinatePair(event.clipboardData.getData('text'))
                    : null;
                if (!pair) return;
                event.preventDefault();
                set({ latitude: String(pair.latitude), longitude: String(pair.longitude) });
              }}
              autoComplete="off"
              spellCheck={false}
              className={`${inputClass} tabular-nums`}
              aria-invalid={partError || (error && !firstInvalid) ? true : undefined}
              aria-describedby={
                [partError ? `${partId}-error` : null, part === 'latitude' ? hintId : null].filter(Boolean).join(' ') ||
                undefined
              }
              autoFocus={(autoFocus && (firstInvalid ?? 'latitude') === part) || undefined}
            />
          </PartInput>
        );
      })}
    </PartsFieldset>
  );
}
