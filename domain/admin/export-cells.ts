import { hintsOf, type EntityDef } from '../entities/types.ts';
import { formatIsoDate, formatIsoDateTime, formatMoney } from '../format.ts';
import { localized, type I18nText, type Locale } from '../locales.ts';
import { isCurrency } from '../money.ts';
import type { ReferenceNames } from './references.ts';

/*
 * An export's cells (decision 036): each value as the back office's screens show it, in the
 * export's language. Plain numbers stay numbers (a spreadsheet sums them); everything else is text.
 */

/** A message lookup in the export's language: the key itself when there is no such message. */
export type ExportTranslate = (key: string) => string;

export type ExportCell = string | number;

/** The header's label of a field (`resources.<entity>.fields.<field>`), or the field's name. */
export function exportLabel(t: ExportTranslate, source: string, field: string): string {
  const key = `resources.${source}.fields.${field}`;
  const label = t(key);
  return label === key ? field : label;
}

function enumText(t: ExportTranslate, source: string, field: string, value: string): string {
  // Currency codes read the same in every language.
  if (isCurrency(value)) return value;
  const key = `resources.${source}.values.${field}.${value}`;
  const label = t(key);
  return label === key ? value : label;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** The words of an article's HTML, as a cell shows them: tags gone, blocks apart, entities read. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<\/(p|h[1-6]|li|blockquote)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** One value of a record as the export writes it: a reference by its record's name when known. */
export function exportCell(
  definition: EntityDef,
  field: string,
  record: Record<string, unknown>,
  t: ExportTranslate,
  locale: Locale,
  references: ReferenceNames = {},
): ExportCell {
  const def = definition.fields[field];
  const value = record[field];
  if (!def || value === null || value === undefined) return '';
  if (def.kind === 'ref' && typeof value === 'string') return references[field]?.[value] ?? value;
  // A list of references: the records' names, one that no longer exists by its id.
  if (def.kind === 'list' && def.ref && Array.isArray(value))
    return value.map((id) => references[field]?.[String(id)] ?? String(id)).join(', ');
  const widget = hintsOf(def).widget;
  // A text in each language, whatever box it is written in: the export's language.
  if (def.kind === 'i18n' && widget !== 'richText' && typeof value === 'object')
    return localized(value as I18nText, locale);
  switch (widget) {
    case 'boolean':
      return value === true ? t('admin.yes') : value === false ? t('admin.no') : String(value);
    case 'money': {
      const currency = isCurrency(record.currency) ? record.currency : 'HKD';
      return typeof value === 'number' ? formatMoney({ amount: value, currency }, locale) : String(value);
    }
    case 'number':
      return typeof value === 'number' ? value : String(value);
    // A calendar day as kept (`1990-05-17`), as the export's other dates are written: never shifted by a zone.
    case 'day':
      return String(value);
    case 'date':
    case 'timestampSwitch': {
      const time = new Date(value as string);
      return Number.isNaN(time.getTime()) ? String(value) : formatIsoDate(time);
    }
    case 'dateTime': {
      const time = new Date(value as string);
      return Number.isNaN(time.getTime()) ? String(value) : formatIsoDateTime(time).replace('T', ' ');
    }
    case 'enum':
      return enumText(t, definition.service, field, String(value));
    case 'i18nText':
      return typeof value === 'object' ? localized(value as I18nText, locale) : String(value);
    case 'richText':
      return textOfHtml(typeof value === 'object' ? localized(value as I18nText, locale) : String(value));
    case 'list':
      return Array.isArray(value)
        ? value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join(', ')
        : String(value);
    case 'object':
      return JSON.stringify(value);
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
