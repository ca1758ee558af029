import { Link } from 'react-router';
import { columnsOf } from '../../../domain/admin/screens';
import { formatNumber } from '../../../domain/format';
import { entities } from '../../../domain/entities/index';
import { useLocale } from '../../i18n/messages';
import type { AdminSource } from '../../../domain/admin/screens';
import type { AdminRecord } from '../../../domain/admin/table';
import { CellValue } from './cells';

/** Another entity's records that point at a record, as its page lists them. */
export interface RelatedRows {
  source: AdminSource;
  /** The reference field of `source` that holds the record's id. */
  field: string;
  /** The first page of them, in their table's own order. */
  rows: AdminRecord[];
  total: number;
  totalCapped: boolean;
  references: Record<string, Record<string, string>>;
}

/**
 * Another entity's records that point at this one (an app user's devices), as a small table of
 * their listed fields: each opens its own row in its table, and a link shows all of them there.
 */
export function RelatedRecords({
  id,
  lists,
  heading: Heading = 'h3',
}: {
  id: string;
  lists: RelatedRows[];
  /** Its title's level: under the page's title (h2), or under the editor dialog's (h3). */
  heading?: 'h2' | 'h3';
}) {
  const { t, locale } = useLocale();
  return (
    <>
      {lists.map((list) => {
        const columns = columnsOf(entities[list.source]).filter((column) => column.name !== list.field);
        const filtered = `/${locale}/admin/${list.source}?${new URLSearchParams({ [`f.${list.field}`]: id })}`;
        const titleId = `related-${list.source}-title`;
        const count = `${formatNumber(list.total, locale)}${list.totalCapped ? '+' : ''}`;
        return (
          <section
            key={`${list.source}.${list.field}`}
            className="mt-6 border-t border-line pt-5"
            aria-labelledby={titleId}
            data-testid={`related-${list.source}`}
          >
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <Heading id={titleId} className="font-semibold">
                {t(`resources.${list.source}.name`)} <span className="font-normal text-muted">({count})</span>
              </Heading>
              {list.total > 0 ? (
                <Link
                  to={filtered}
                  className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
                  data-testid={`related-${list.source}-all`}
                >
                  {t('admin.related.all', { entity: t(`resources.${list.source}.name`) })}
                </Link>
              ) : null}
            </div>
            {list.rows.length === 0 ? (
              <p className="mt-2 text-sm text-muted">{t('admin.related.none')}</p>
            ) : (
              <div className="mt-3 overflow-x-auto rounded-lg border border-line">
                <table className="w-full text-left text-sm">
                  <thead className="bg-tint text-xs text-muted">
                    <tr>
                      {columns.map((column) => (
                        <th key={column.name} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                          {t(`resources.${list.source}.fields.${column.name}`)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {list.rows.map((row) => (
                      <tr key={row._id} className="border-t border-line" data-testid="related-row">
                        {columns.map((column, index) => (
                          <td key={column.name} className="px-3 py-2 align-top whitespace-nowrap">
                            {index === 0 ? (
                              <Link
                                to={`${filtered}&${new URLSearchParams({ open: row._id })}`}
                                className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
                              >
                                <CellValue
                                  field={column}
                                  value={row[column.name]}
                                  row={row}
                                  source={list.source}
                                  references={list.references[column.name]}
                                  t={t}
                                  locale={locale}
                                />
                              </Link>
                            ) : (
                              <CellValue
                                field={column}
                                value={row[column.name]}
                                row={row}
                                source={list.source}
                                references={list.references[column.name]}
                                t={t}
                                locale={locale}
                              />
                            )}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        );
      })}
    </>
  );
}
