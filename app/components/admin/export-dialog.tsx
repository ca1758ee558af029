import { useState } from 'react';
import type { AdminField } from '../../../domain/admin/screens';
import type { Wire } from '../../../domain/entities/contract';
import type { ExportAnswer } from '../../../domain/entities/services';
import type { Live } from '../../api/live';
import { useLocale } from '../../i18n/messages';
import { primaryButton, secondaryButton } from '../ui/buttons';
import { ModalDialog } from '../ui/modal-dialog';
import { ProgressBar, useJobProgress } from './job-progress';

/** An export as the `exports` service answers it over the socket (decision 036), the parts the dialog shows. */
type ExportStatus = Pick<Wire<ExportAnswer>, '_id' | 'state' | 'rows' | 'total' | 'error'>;

type Scope = 'query' | 'selection';
type Format = 'csv' | 'xlsx';

const FINAL = new Set<ExportStatus['state']>(['done', 'failed', 'cancelled']);

function messageOf(error: unknown, fallback: string): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : fallback;
}

/**
 * Exports a table (decision 036): the rows of its current query or the selection, the chosen
 * columns, as CSV or XLSX. The server writes the file in a job; the dialog follows it by the
 * export's `patched` events on the live connection (and asks every two seconds in case one is
 * missed), can cancel it, and ends with a link to the file.
 */
export function ExportDialog({
  source,
  columns,
  query,
  selectedIds,
  live,
  onClose,
}: {
  source: string;
  /** The entity's exported fields (`exportedFieldsOf`). */
  columns: AdminField[];
  /** The table's filters and sort (`viewQuery` without `$limit`, `$skip` and `$cursor`). */
  query: Record<string, unknown>;
  /** The selected rows' ids; an export of the selection is offered when there are any. */
  selectedIds: readonly string[];
  live: Live;
  onClose: () => void;
}) {
  const { t, locale } = useLocale();
  const [scope, setScope] = useState<Scope>(selectedIds.length > 0 ? 'selection' : 'query');
  const [format, setFormat] = useState<Format>('csv');
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(columns.map((column) => column.name)));
  const { job: status, follow, running } = useJobProgress<ExportStatus>(live, 'exports', FINAL);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const id = status?._id;

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      const names = columns.map((column) => column.name).filter((name) => chosen.has(name));
      const created = await live.call('exports', (exports) =>
        exports.create({
          source,
          format,
          columns: names,
          ...(scope === 'selection' ? { ids: [...selectedIds] } : { query }),
          locale,
        }),
      );
      follow(created);
    } catch (caught) {
      setError(messageOf(caught, t('errors.generic')));
    } finally {
      setStarting(false);
    }
  };

  const cancel = async () => {
    if (!id) return;
    try {
      const cancelled = await live.call('exports', (exports) => exports.patch(id, { state: 'cancelled' }));
      follow(cancelled);
    } catch (caught) {
      setError(messageOf(caught, t('errors.generic')));
    }
  };

  const toggle = (name: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  const close = () => {
    if (running) return;
    onClose();
  };
  const fieldset = 'mt-4 rounded-xl border border-line p-3';
  const legend = 'px-1 text-sm font-semibold';
  const choice = 'flex min-h-9 items-center gap-2';

  return (
    <ModalDialog
      labelledBy="export-title"
      className="w-[min(100vw-2rem,34rem)] p-6"
      onCancel={close}
      testId="export-dialog"
      state={status?.state ?? 'choosing'}
    >
      <h2 id="export-title" className="text-lg font-semibold">
        {t('admin.export.title')}
      </h2>
      {status === null ? (
        <>
          <fieldset className={fieldset}>
            <legend className={legend}>{t('admin.export.scope')}</legend>
            <label className={choice}>
              <input
                type="radio"
                name="export-scope"
                checked={scope === 'query'}
                onChange={() => setScope('query')}
                data-testid="export-scope-query"
              />
              {t('admin.export.scopeQuery')}
            </label>
            {selectedIds.length > 0 ? (
              <label className={choice}>
                <input
                  type="radio"
                  name="export-scope"
                  checked={scope === 'selection'}
                  onChange={() => setScope('selection')}
                  data-testid="export-scope-selection"
                />
                {t('admin.export.scopeSelection', { count: selectedIds.length })}
              </label>
            ) : null}
          </fieldset>
          <fieldset className={fieldset}>
            <legend className={legend}>{t('admin.export.columns')}</legend>
            <div className="grid max-h-56 grid-cols-1 gap-x-4 overflow-y-auto sm:grid-cols-2">
              {columns.map((column) => (
                <label key={column.name} className={choice}>
                  <input
                    type="checkbox"
                    checked={chosen.has(column.name)}
                    onChange={() => toggle(column.name)}
                    data-testid={`export-column-${column.name}`}
                  />
                  {t(`resources.${source}.fields.${column.name}`)}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className={fieldset}>
            <legend className={legend}>{t('admin.export.format')}</legend>
            <label className={choice}>
              <input
                type="radio"
                name="export-format"
                checked={format === 'csv'}
                onChange={() => setFormat('csv')}
                data-testid="export-format-csv"
              />
              {t('admin.export.csv')}
            </label>
            <label className={choice}>
              <input
                type="radio"
                name="export-format"
                checked={format === 'xlsx'}
                onChange={() => setFormat('xlsx')}
                data-testid="export-format-xlsx"
              />
              {t('admin.export.xlsx')}
            </label>
          </fieldset>
        </>
      ) : (
        <div className="mt-4" aria-live="polite">
          <p data-testid="export-status">
            {status.state === 'done'
              ? t('admin.export.done', { rows: status.rows })
              : status.state === 'failed'
                ? t('admin.export.failed')
                : status.state === 'cancelled'
                  ? t('admin.export.cancelled')
                  : status.total === null
                    ? t('admin.export.runningUncounted', { rows: status.rows })
                    : t('admin.export.running', { rows: status.rows, total: status.total })}
          </p>
          <ProgressBar
            done={status.rows}
            total={status.total}
            label={t('admin.export.progress')}
            testId="export-progress"
          />
          {status.state === 'failed' && status.error ? (
            <p className="mt-2 text-sm text-muted">{t(status.error)}</p>
          ) : null}
        </div>
      )}
      {error ? (
        <p className="mt-3 text-sm text-red-700 dark:text-red-300" role="alert">
          {error}
        </p>
      ) : null}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        {status === null ? (
          <>
            <button type="button" className={secondaryButton} onClick={close} data-testid="export-close">
              {t('admin.cancel')}
            </button>
            <button
              type="button"
              className={primaryButton}
              onClick={() => void start()}
              disabled={starting || chosen.size === 0}
              data-testid="export-start"
            >
              {t('admin.export.start')}
            </button>
          </>
        ) : running ? (
          <button type="button" className={secondaryButton} onClick={() => void cancel()} data-testid="export-cancel">
            {t('admin.export.cancel')}
          </button>
        ) : (
          <>
            {status.state === 'done' ? (
              <a
                className={primaryButton}
                href={`/api/exports/${encodeURIComponent(status._id)}/download`}
                download
                data-testid="export-download"
              >
                {t('admin.export.download')}
              </a>
            ) : null}
            <button type="button" className={secondaryButton} onClick={close} autoFocus data-testid="export-close">
              {t('admin.editor.close')}
            </button>
          </>
        )}
      </div>
    </ModalDialog>
  );
}
