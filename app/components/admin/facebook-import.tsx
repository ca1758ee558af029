import { useId, useState } from 'react';
import type { FacebookImportState } from '../../../domain/entities/facebook';
import { NEWS_REGIONS, type NewsRegion } from '../../../domain/news/constants';
import { Link } from 'react-router';
import type { Live } from '../../api/live';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import { primaryButton, secondaryButton } from '../ui/buttons';
import { ProgressBar, useJobProgress } from './job-progress';

/** An import as the `facebook` service answers it, the parts the panel shows. */
interface ImportStatus {
  _id: string;
  state: FacebookImportState;
  total: number | null;
  done: number;
  added: number;
  skipped: number;
  failed: number;
  error: string | null;
}

const FINAL = new Set<FacebookImportState>(['done', 'failed']);

function messageOf(error: unknown, fallback: string): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : fallback;
}

/**
 * The Facebook import's panel on its table (decision 060): staff upload the page's export (the
 * ZIP archive or its posts JSON), or ask for the Graph API when the page is configured, for a
 * region; the import's progress follows its `patched` events on the live connection (and a poll
 * in case one is missed), and ends with its counts and a link to the news it added. The table
 * below lists every import, live.
 */
export function FacebookImport({
  live,
  graph,
  onStarted,
}: {
  live: Live | null;
  graph: boolean;
  onStarted: () => void;
}) {
  const { t, locale } = useLocale();
  const headingId = useId();
  const fileId = useId();
  const regionId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [region, setRegion] = useState<NewsRegion>('hk');
  const { job: status, follow, running } = useJobProgress<ImportStatus>(live, 'facebook', FINAL);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const started = (record: ImportStatus) => {
    follow(record);
    onStarted();
  };

  const upload = async () => {
    if (!file) {
      setError(t('facebook.errors.noFile'));
      return;
    }
    setStarting(true);
    setError(null);
    try {
      const form = new FormData();
      form.set('file', file, file.name);
      const response = await fetch(`/api/facebook/upload?region=${encodeURIComponent(region)}`, {
        method: 'POST',
        body: form,
        credentials: 'same-origin',
        headers: { 'x-locale': locale },
      });
      const body = (await response.json().catch(() => null)) as (ImportStatus & { message?: string }) | null;
      if (!response.ok || !body) throw new Error(body?.message ?? t('errors.generic'));
      started(body);
    } catch (caught) {
      setError(messageOf(caught, t('errors.generic')));
    } finally {
      setStarting(false);
    }
  };

  const fromGraph = async () => {
    if (!live) return;
    setStarting(true);
    setError(null);
    try {
      started((await live.call('facebook', (service) => service.create({ source: 'graph', region }))) as ImportStatus);
    } catch (caught) {
      setError(messageOf(caught, t('errors.generic')));
    } finally {
      setStarting(false);
    }
  };

  return (
    <section
      aria-labelledby={headingId}
      className="mb-4 rounded-2xl border border-line bg-raised p-4 shadow-sm sm:p-5"
      data-testid="facebook-import"
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {t('facebook.title')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('facebook.hint')}</p>
      <div className="mt-3 flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor={fileId} className="text-sm font-medium">
            {t('facebook.file')}
          </label>
          <input
            id={fileId}
            type="file"
            accept=".zip,.json,application/zip,application/json"
            className={`${inputClass} mt-1.5`}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            disabled={running}
            data-testid="facebook-file"
          />
        </div>
        <div>
          <label htmlFor={regionId} className="text-sm font-medium">
            {t('facebook.region')}
          </label>
          <select
            id={regionId}
            value={region}
            onChange={(event) => setRegion(event.target.value as NewsRegion)}
            className={`${inputClass} mt-1.5`}
            disabled={running}
            data-testid="facebook-region"
          >
            {NEWS_REGIONS.map((name) => (
              <option key={name} value={name}>
                {t(`resources.facebook.values.region.${name}`)}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className={primaryButton}
          onClick={() => void upload()}
          disabled={starting || running}
          data-testid="facebook-start"
        >
          {t('facebook.start')}
        </button>
        {graph && live ? (
          <button
            type="button"
            className={secondaryButton}
            onClick={() => void fromGraph()}
            disabled={starting || running}
            data-testid="facebook-graph"
          >
            {t('facebook.graph')}
          </button>
        ) : null}
      </div>
      {status ? (
        <div className="mt-4" aria-live="polite">
          <p data-testid="facebook-status">
            {status.state === 'done'
              ? t('facebook.done', { added: status.added, skipped: status.skipped, failed: status.failed })
              : status.state === 'failed'
                ? t('facebook.failed')
                : status.total === null
                  ? t('facebook.reading')
                  : t('facebook.running', { done: status.done, total: status.total })}
          </p>
          <ProgressBar
            done={status.done}
            total={status.total}
            label={t('facebook.progress')}
            testId="facebook-progress"
          />
          {status.state === 'failed' && status.error ? (
            <p className="mt-2 text-sm text-muted">{t(status.error)}</p>
          ) : null}
          {status.state === 'done' && status.added > 0 ? (
            <Link
              to={`/${locale}/admin/news?f.facebookImport=${encodeURIComponent(status._id)}`}
              className="mt-2 inline-block font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
              data-testid="facebook-added"
            >
              {t('facebook.viewNews')}
            </Link>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <p className="mt-3 text-sm text-red-700 dark:text-red-300" role="alert" data-testid="facebook-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
