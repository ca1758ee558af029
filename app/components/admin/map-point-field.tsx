import { useState } from 'react';
import { inputName } from '../../../domain/admin/form';
import { coordinatePair, MAP_POINT_PARTS, mapPointSchema, openStreetMapLink, type MapPointPart } from '../../../domain/entities/widget-values';
import { useLocale } from '../../i18n/messages';
import { FieldError, inputClass } from '../forms/fields';

export interface MapPointFieldProps {
  /** The first input's id is `${id}-latitude`. */
  id: string;
  field: string;
  legend: string;
  required: boolean;
  /** Each part as the inputs show it. */
  values: Record<string, string>;
  /** The whole field's message, and each part's (`latitude`: …). */
  error?: string;
  partErrors: Partial<Record<MapPointPart, string>>;
  autoFocus: boolean;
  onChange: () => void;
}

/**
 * Where an app's map opens: latitude and longitude, and the span it shows of each. A point copied
 * from a map (`22.28, 114.16`) pasted into either coordinate fills both. A link opens the point on
 * OpenStreetMap's site; no map is drawn here, as the page loads nothing from other sites.
 */
export function MapPointField({ id, field, legend, required, values, error, partErrors, autoFocus, onChange }: MapPointFieldProps) {
  const { t } = useLocale();
  const [parts, setParts] = useState<Record<string, string>>(values);
  const set = (changes: Record<string, string>) => {
    setParts((before) => ({ ...before, ...changes }));
    onChange();
  };
  /** A pair in a coordinate's box fills both; anything else is that coordinate's text. */
  const typed = (part: MapPointPart, text: string) => {
    const pair = part === 'latitude' || part === 'longitude' ? coordinatePair(text) : null;
    set(pair ? { latitude: String(pair.latitude), longitude: String(pair.longitude) } : { [part]: text });
  };
  const point = mapPointSchema.safeParse(Object.fromEntries(MAP_POINT_PARTS.map((part) => [part, Number(parts[part] === '' ? Number.NaN : parts[part])])));
  const firstInvalid = MAP_POINT_PARTS.find((part) => partErrors[part]);
  const hintId = `${id}-hint`;
  return (
    <fieldset className="min-w-0" aria-describedby={error ? `${id}-error` : undefined} data-testid={`map-${field}`}>
      <legend className="font-medium">
        {legend}
        {required ? <span aria-hidden="true"> *</span> : null}
      </legend>
      <div className="mt-1.5 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {MAP_POINT_PARTS.map((part) => {
          const partId = `${id}-${part}`;
          const partError = partErrors[part];
          return (
            <div key={part} className="min-w-0">
              <label htmlFor={partId} className="block text-sm">
                {t(`admin.mapPoint.${part}`)}
              </label>
              <input
                id={partId}
                name={inputName(field, part)}
                value={parts[part] ?? ''}
                onChange={(event) => typed(part, event.target.value)}
                onPaste={(event) => {
                  const pair = part === 'latitude' || part === 'longitude' ? coordinatePair(event.clipboardData.getData('text')) : null;
                  if (!pair) return;
                  event.preventDefault();
                  set({ latitude: String(pair.latitude), longitude: String(pair.longitude) });
                }}
                autoComplete="off"
                spellCheck={false}
                className={`${inputClass} tabular-nums`}
                aria-invalid={partError || (error && !firstInvalid) ? true : undefined}
                aria-describedby={[partError ? `${partId}-error` : null, part === 'latitude' ? hintId : null].filter(Boolean).join(' ') || undefined}
                autoFocus={(autoFocus && (firstInvalid ?? 'latitude') === part) || undefined}
              />
              <FieldError id={`${partId}-error`} text={partError} />
            </div>
          );
        })}
      </div>
      <p id={hintId} className="mt-1 text-xs text-muted">
        {t('admin.mapPoint.hint')}
      </p>
      {point.success ? (
        <a href={openStreetMapLink(point.data)} target="_blank" rel="noopener noreferrer" className="mt-2 inline-block text-sm font-semibold underline underline-offset-4" data-testid="map-link">
          {t('admin.mapPoint.view')}
          <span className="sr-only"> {t('admin.newTab')}</span>
        </a>
      ) : null}
      <FieldError id={`${id}-error`} text={error} />
    </fieldset>
  );
}
