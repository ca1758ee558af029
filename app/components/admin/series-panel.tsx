import { formatNumber } from '../../../domain/format';
import type { AdminSource } from '../../../domain/admin/screens';
import { useLocale } from '../../i18n/messages';

/** A record's figures by day, most recent first, as its page shows them (an ad's views and clicks). */
export interface SeriesRows {
  source: AdminSource;
  /** The figures' field names, each labelled as the entity's field of that name. */
  values: readonly string[];
  rows: ({ day: string } & Record<string, number | string>)[];
}

/**
 * The figures of a record by day, as a small table under its editor: a day a row, a figure a
 * column, and each column's total. Generic: a screen names the service and the figures (`series`
 * in domain/admin/screens.ts).
 */
export function SeriesPanel({ series, heading: Heading = 'h3' }: { series: SeriesRows; heading?: 'h2' | 'h3' }) {
  const { t, locale } = useLocale();
  const titleId = `series-${series.source}-title`;
  const label = (value: string) => t(`resources.${series.source}.fields.${value}`);
  const total = (value: string) => series.rows.reduce((sum, row) => sum + Number(row[value] ?? 0), 0);
  return (
    <section className="mt-6 border-t border-line pt-5" aria-labelledby={titleId} data-testid="series">
      <Heading id={titleId} className="font-semibold">
        {t('admin.series.heading')}
      </Heading>
      {series.rows.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t('admin.series.none')}</p>
      ) : (
        <div className="mt-3 max-h-72 overflow-auto rounded-lg border border-line">
          <table className="w-full text-left text-sm">
            <thead className="bg-tint text-xs text-muted">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('admin.series.day')}
                </th>
                {series.values.map((value) => (
                  <th key={value} scope="col" className="px-3 py-2 text-right font-semibold">
                    {label(value)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {series.rows.map((row) => (
                <tr key={row.day} className="border-t border-line" data-testid="series-row">
                  <th scope="row" className="px-3 py-2 font-normal whitespace-nowrap">
                    {row.day}
                  </th>
                  {series.values.map((value) => (
                    <td key={value} className="px-3 py-2 text-right tabular-nums">
                      {formatNumber(Number(row[value] ?? 0), locale)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="border-t border-line font-semibold">
                <th scope="row" className="px-3 py-2">
                  {t('admin.series.total')}
                </th>
                {series.values.map((value) => (
                  <td key={value} className="px-3 py-2 text-right tabular-nums" data-testid={`series-total-${value}`}>
                    {formatNumber(total(value), locale)}
                  </td>
                ))}
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
