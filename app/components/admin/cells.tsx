import type { AdminField } from '../../../domain/admin/screens';
import { formatDay, formatIsoDate, formatIsoDateTime, formatMoney, formatNumber } from '../../../domain/format';
import { isDay } from '../../../domain/validation/day';
import { localized, type I18nText, type Locale } from '../../../domain/locales';
import { textOfHtml } from '../../../domain/admin/export-cells';
import { isCurrency } from '../../../domain/money';
import type { Translate } from '../../i18n/messages';

/** An enumeration's value as its label (`resources.orders.values.status.paid`), or the value itself (currency codes). */
export function enumLabel(t: Translate, source: string, field: string, value: string): string {
  // Currency codes read the same in every language.
  if (isCurrency(value)) return value;
  const key = `resources.${source}.values.${field}.${value}`;
  const label = t(key);
  return label === key ? value : label;
}

const badge = 'inline-block rounded-full px-2 py-0.5 text-xs font-semibold';
/** Status colours by the value's meaning, the same in every entity. */
const TONES: Record<string, string> = {
  good: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  bad: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  wait: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  plain: 'bg-tint text-ink',
};
const GOOD = new Set(['paid', 'completed', 'succeeded', 'active', 'published', 'issued']);
const BAD = new Set(['payment_failed', 'failed', 'unpaid', 'past_due', 'cancelled', 'expired', 'void', 'refunded']);
const WAIT = new Set([
  'pending_payment',
  'provisioning',
  'processing',
  'requires_action',
  'draft',
  'incomplete',
  'non_renewing',
  'created',
]);

function tone(value: string): string {
  return TONES[GOOD.has(value) ? 'good' : BAD.has(value) ? 'bad' : WAIT.has(value) ? 'wait' : 'plain'] as string;
}

/** One value in a table cell or the editor's read-only view, as the field's widget shows it. */
export function CellValue({
  field,
  value,
  row,
  source,
  references,
  t,
  locale,
}: {
  field: AdminField;
  value: unknown;
  row: Record<string, unknown>;
  source: string;
  references?: Record<string, string>;
  t: Translate;
  locale: Locale;
}) {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0))
    return <span className="text-muted">—</span>;
  // A text in each language, whatever box it is written in: the language's own.
  if (field.def.kind === 'i18n' && field.widget !== 'richText' && typeof value === 'object')
    return <span>{localized(value as I18nText, locale)}</span>;
  switch (field.widget) {
    case 'boolean':
      return <span>{value === true ? t('admin.yes') : t('admin.no')}</span>;
    case 'money': {
      const currency = isCurrency(row.currency) ? row.currency : 'HKD';
      return (
        <span className="tabular-nums">
          {typeof value === 'number' ? formatMoney({ amount: value, currency }, locale) : String(value)}
        </span>
      );
    }
    case 'number':
      return (
        <span className="tabular-nums">{typeof value === 'number' ? formatNumber(value, locale) : String(value)}</span>
      );
    case 'date':
      return (
        <time dateTime={new Date(value as string).toISOString()} className="tabular-nums">
          {formatIsoDate(value as string)}
        </time>
      );
    case 'day':
      // The day as kept, written out in the language (17 May 1990, 1990年5月17日): no time zone moves it.
      return typeof value === 'string' && isDay(value) ? (
        <time dateTime={value} className="whitespace-nowrap tabular-nums">
          {formatDay(value, locale)}
        </time>
      ) : (
        <span>{String(value)}</span>
      );
    case 'timestampSwitch':
      // Switched on: since when (an account disabled on 2 November).
      return (
        <span className={`${badge} ${TONES.bad} whitespace-nowrap`}>
          <time dateTime={new Date(value as string).toISOString()} className="tabular-nums">
            {formatIsoDate(value as string)}
          </time>
        </span>
      );
    case 'dateTime':
      return (
        <time dateTime={new Date(value as string).toISOString()} className="tabular-nums">
          {formatIsoDateTime(value as string).replace('T', ' ')}
        </time>
      );
    case 'enum':
      return field.name === 'status' ? (
        <span className={`${badge} ${tone(String(value))}`}>{enumLabel(t, source, field.name, String(value))}</span>
      ) : (
        <span>{enumLabel(t, source, field.name, String(value))}</span>
      );
    case 'i18nText':
      return <span>{localized(value as I18nText, locale)}</span>;
    case 'richText':
      return (
        <span>{textOfHtml(typeof value === 'object' ? localized(value as I18nText, locale) : String(value))}</span>
      );
    case 'ref': {
      // Its record by name; one that no longer exists says so (a user: `basic.no_user` in the spec).
      const label = references?.[String(value)];
      if (label !== undefined || references === undefined) return <span>{label ?? String(value)}</span>;
      return (
        <em className="text-muted" data-testid="reference-missing">
          {t(field.def.ref === 'users' ? 'admin.reference.noUser' : 'admin.reference.missing')}
        </em>
      );
    }
    case 'refs':
      // Each record by its name; one that no longer exists says so.
      return (
        <span data-testid="reference-names">
          {(Array.isArray(value) ? value.map(String) : []).map((id, index) => {
            const label = references?.[id];
            return (
              <span key={id}>
                {index > 0 ? ', ' : null}
                {label !== undefined || references === undefined ? (
                  (label ?? id)
                ) : (
                  <em className="text-muted">{t('admin.reference.missing')}</em>
                )}
              </span>
            );
          })}
        </span>
      );
    case 'gallery':
      return (
        <span className="inline-flex gap-1">
          {(Array.isArray(value) ? value.map(String) : []).map((id) => (
            <img
              key={id}
              src={`/api/thumbs/${encodeURIComponent(id)}`}
              alt=""
              width={32}
              height={32}
              className="h-8 w-8 rounded object-cover"
            />
          ))}
        </span>
      );
    case 'list':
      return (
        <span>
          {Array.isArray(value)
            ? value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join(', ')
            : String(value)}
        </span>
      );
    case 'color':
      return (
        <span className="inline-flex items-center gap-2">
          <span
            aria-hidden="true"
            className="inline-block h-4 w-6 shrink-0 rounded border border-line"
            style={{ backgroundColor: String(value) }}
            data-testid="colour-swatch"
          />
          <span className="font-mono text-xs">{String(value)}</span>
        </span>
      );
    case 'mapPoint': {
      const point = value as Partial<Record<'latitude' | 'longitude' | 'latitudeDelta' | 'longitudeDelta', number>>;
      // Every digit given: a coordinate rounded for show would point elsewhere.
      const degrees = (number: number | undefined) => (typeof number === 'number' ? String(number) : '?');
      return (
        <span className="tabular-nums whitespace-nowrap">
          {degrees(point.latitude)}, {degrees(point.longitude)}{' '}
          <span className="text-muted">
            (±{degrees(point.latitudeDelta)}, ±{degrees(point.longitudeDelta)})
          </span>
        </span>
      );
    }
    case 'dateRange': {
      const range = value as { from?: string; to?: string };
      return <span className="tabular-nums whitespace-nowrap">{`${range.from ?? '?'} – ${range.to ?? '?'}`}</span>;
    }
    case 'image':
      // An attachment's id: its thumbnail. An address (a blog's cover) shows as the text it is.
      return field.def.kind === 'ref' ? (
        <img
          src={`/api/thumbs/${encodeURIComponent(String(value))}`}
          alt={references?.[String(value)] ?? ''}
          className="h-10 w-16 rounded border border-line object-cover"
          data-testid="image-thumb"
        />
      ) : (
        <span>{String(value)}</span>
      );
    case 'object':
      return <span className="font-mono text-xs break-all">{JSON.stringify(value)}</span>;
    case 'link': {
      const href = field.def.hints?.href;
      if (!href) return <span>{String(value)}</span>;
      return (
        <a
          href={href.replace('{value}', encodeURIComponent(String(value)))}
          target="_blank"
          rel="noopener noreferrer"
          className="font-mono text-xs break-all text-brand-700 underline underline-offset-4 dark:text-brand-300"
          data-testid={`link-${field.name}`}
        >
          {String(value)}
        </a>
      );
    }
    default:
      return <span>{String(value)}</span>;
  }
}
