import type { AdminField } from '../../../domain/admin/screens';
import { localized, type I18nText } from '../../../domain/locales';
import { useLocale } from '../../i18n/messages';
import { CellValue } from './cells';

const isI18n = (value: unknown): value is I18nText =>
  typeof value === 'object' && value !== null && 'en' in value && typeof (value as { en: unknown }).en === 'string';

/** A list of records (a plan's modules, an order's lines) as a small table of its items' own fields. */
function SubList({ items }: { items: Record<string, unknown>[] }) {
  const { locale } = useLocale();
  const keys = [...new Set(items.flatMap((item) => Object.keys(item)))].filter((key) => key !== '_id');
  const text = (value: unknown) =>
    value === null || value === undefined
      ? '—'
      : isI18n(value)
        ? localized(value, locale)
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  return (
    <table className="mt-1 w-full text-left text-xs" data-testid="sub-list">
      <thead className="text-muted">
        <tr>
          {keys.map((key) => (
            <th key={key} scope="col" className="py-1 pr-3 font-semibold">
              {key}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.map((item, index) => (
          <tr key={String(item._id ?? index)} className="border-t border-line">
            {keys.map((key) => (
              <td key={key} className="py-1 pr-3 align-top">
                {text(item[key])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A record's detail under its row: every field the definition shows on the record's page. */
export function RecordDetail({
  source,
  fields,
  record,
  references,
}: {
  source: string;
  fields: AdminField[];
  record: Record<string, unknown>;
  references: Record<string, Record<string, string>>;
}) {
  const { t, locale } = useLocale();
  return (
    <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 xl:grid-cols-3" data-testid="record-detail">
      {fields.map((field) => {
        const value = record[field.name];
        const items =
          Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)
            ? (value as Record<string, unknown>[])
            : null;
        return (
          <div key={field.name} className={`min-w-0 ${items ? 'sm:col-span-2 xl:col-span-3' : ''}`}>
            <dt className="text-muted">{t(`resources.${source}.fields.${field.name}`)}</dt>
            <dd className="break-words">
              {items ? (
                <SubList items={items} />
              ) : (
                <CellValue
                  field={field}
                  value={value}
                  row={record}
                  source={source}
                  references={references[field.name]}
                  t={t}
                  locale={locale}
                />
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
