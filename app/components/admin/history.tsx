import { formatIsoDate } from '../../../domain/format';
import type { AdminField } from '../../../domain/admin/screens';
import type { auditLogs } from '../../../domain/entities/audit-logs';
import type { RecordOf, Wire } from '../../../domain/entities/contract';
import { useLocale } from '../../i18n/messages';
import { CellValue, enumLabel } from './cells';

/**
 * One change of a record as its editor shows it: the audit log's entry (decision 033), the parts
 * shown, its time as ISO text; `changes` holds each field changed with its value before and after.
 */
export type HistoryEntry = Wire<
  Pick<RecordOf<typeof auditLogs>, '_id' | 'createdAt' | 'userEmail' | 'method' | 'changes'>
>;

const time = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Hong_Kong' }).format(
    new Date(iso),
  );

/** A record's latest changes by staff, newest first: who, when, and each field before and after. */
export function RecordHistory({
  source,
  fields,
  entries,
  heading: Heading = 'h3',
}: {
  source: string;
  fields: AdminField[];
  entries: HistoryEntry[];
  /** Its title's level: under the page's title (h2), or under the editor dialog's (h3). */
  heading?: 'h2' | 'h3';
}) {
  const { t, locale } = useLocale();
  const byName = new Map(fields.map((field) => [field.name, field]));
  return (
    <section className="mt-6 border-t border-line pt-5" aria-labelledby="history-title" data-testid="record-history">
      <Heading id="history-title" className="font-semibold">
        {t('admin.history.title')}
      </Heading>
      {entries.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t('admin.history.none')}</p>
      ) : (
        <ol className="mt-3 space-y-3 text-sm">
          {entries.map((entry) => (
            <li key={entry._id} className="rounded-lg border border-line px-3 py-2" data-testid="history-entry">
              <p>
                <span className="font-medium">{enumLabel(t, 'auditLogs', 'method', entry.method)}</span>
                <span className="text-muted">
                  {' · '}
                  <time dateTime={entry.createdAt}>
                    {formatIsoDate(entry.createdAt)} {time(entry.createdAt)}
                  </time>
                  {' · '}
                  {entry.userEmail}
                </span>
              </p>
              {entry.method === 'patch' ? (
                <dl className="mt-1 space-y-0.5">
                  {Object.entries(entry.changes).map(([name, change]) => {
                    const field = byName.get(name);
                    return (
                      <div key={name} className="flex flex-wrap gap-x-2">
                        <dt className="text-muted">{t(`resources.${source}.fields.${name}`)}:</dt>
                        <dd className="min-w-0">
                          {field ? (
                            <CellValue
                              field={field}
                              value={change.before}
                              row={{}}
                              source={source}
                              t={t}
                              locale={locale}
                            />
                          ) : (
                            String(change.before ?? '—')
                          )}
                          {' → '}
                          {field ? (
                            <CellValue
                              field={field}
                              value={change.after}
                              row={{}}
                              source={source}
                              t={t}
                              locale={locale}
                            />
                          ) : (
                            String(change.after ?? '—')
                          )}
                        </dd>
                      </div>
                    );
                  })}
                </dl>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
