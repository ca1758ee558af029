import { useEffect, useRef, useState } from 'react';
import type { AdminSource } from '../../../domain/admin/screens';
import type { Live } from '../../api/live';
import { records } from '../../api/services';
import { useLocale } from '../../i18n/messages';
import { primaryButton, secondaryButton } from '../ui/buttons';
import { ModalDialog } from '../ui/modal-dialog';
import { ProgressBar } from './job-progress';

export interface BatchTarget {
  id: string;
  name: string;
}

interface Failure extends BatchTarget {
  message: string;
}

type Progress = {
  state: 'finding' | 'running' | 'stopped' | 'done';
  done: number;
  removed: number;
  failures: Failure[];
};

/**
 * Deletes the selected records one at a time through the live connection (the Feathers client, as
 * the staff member), with a progress bar: a record that cannot be deleted is reported and the rest
 * still go; Stop keeps what is not deleted yet. Ends with what was deleted and what was not.
 * Every match of a search (the selection `all`) is first found by `find`, which Stop also ends.
 */
export function BatchRemoval({
  live,
  source,
  targets: given,
  find,
  onFinished,
}: {
  live: Live;
  source: AdminSource;
  /** The records to delete, or none when `find` reads them. */
  targets?: BatchTarget[];
  /** Reads every record to delete, page by page, as long as `going()` says. */
  find?: (going: () => boolean) => Promise<BatchTarget[]>;
  onFinished: (removed: number) => void;
}) {
  const { t } = useLocale();
  const stopped = useRef(false);
  const [targets, setTargets] = useState<BatchTarget[]>(given ?? []);
  const [progress, setProgress] = useState<Progress>({
    state: find ? 'finding' : 'running',
    done: 0,
    removed: 0,
    failures: [],
  });

  useEffect(() => {
    let active = true;
    void (async () => {
      let targets = given ?? [];
      if (find) {
        try {
          targets = await find(() => active && !stopped.current);
        } catch (caught) {
          const message = (caught as { message?: unknown }).message;
          const failure = { id: '', name: '', message: typeof message === 'string' ? message : t('errors.generic') };
          if (active) setProgress({ state: 'stopped', done: 0, removed: 0, failures: [failure] });
          return;
        }
        if (!active) return;
        setTargets(targets);
        if (stopped.current) {
          setProgress((current) => ({ ...current, state: 'stopped' }));
          return;
        }
        setProgress((current) => ({ ...current, state: 'running' }));
      }
      let removed = 0;
      const failures: Failure[] = [];
      for (const [index, target] of targets.entries()) {
        if (stopped.current || !active) break;
        try {
          await live.call(source, (service) => records(service).remove(target.id));
          removed += 1;
        } catch (caught) {
          const error = caught as { code?: unknown; message?: unknown };
          const message =
            error.code === 404
              ? t('admin.notFound')
              : typeof error.message === 'string' && error.message
                ? error.message
                : t('errors.generic');
          failures.push({ ...target, message });
        }
        if (active) setProgress({ state: 'running', done: index + 1, removed, failures: [...failures] });
      }
      if (active)
        setProgress((current) => ({
          ...current,
          removed,
          failures: [...failures],
          state: stopped.current ? 'stopped' : 'done',
        }));
    })();
    return () => {
      active = false;
    };
    // One run per dialog: the targets are fixed when it opens.
  }, []);

  const running = progress.state === 'running' || progress.state === 'finding';
  const close = () => {
    if (running) return;
    onFinished(progress.removed);
  };
  return (
    <ModalDialog
      labelledBy="batch-title"
      className="w-[min(100vw-2rem,32rem)] p-6"
      onCancel={() => {
        if (running) stopped.current = true;
        else close();
      }}
      testId="batch-dialog"
      state={progress.state}
    >
      <h2 id="batch-title" className="text-lg font-semibold">
        {progress.state === 'finding'
          ? t('admin.batch.finding')
          : running
            ? t('admin.batch.running', { done: progress.done, total: targets.length })
            : t('admin.batch.finished', { removed: progress.removed, total: targets.length })}
      </h2>
      <ProgressBar
        done={progress.done}
        // Not known yet how many while finding them: the bar says "under way".
        total={progress.state === 'finding' ? null : targets.length}
        label={t('admin.batch.progress')}
        testId="batch-progress"
        className="mt-4"
      />
      {progress.state === 'stopped' ? (
        <p className="mt-3 text-muted">{t('admin.batch.stopped', { kept: targets.length - progress.done })}</p>
      ) : null}
      {progress.failures.length > 0 ? (
        <div className="mt-4" data-testid="batch-failures">
          <p className="font-semibold">{t('admin.batch.notRemoved', { count: progress.failures.length })}</p>
          <ul className="mt-2 max-h-48 space-y-1 overflow-y-auto text-sm">
            {progress.failures.map((failure) => (
              <li key={failure.id} data-testid="batch-failure">
                {failure.name ? <span className="font-medium">{failure.name}: </span> : null}
                <span className="text-muted">{failure.message}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="mt-6 flex justify-end gap-3">
        {running ? (
          <button
            type="button"
            className={secondaryButton}
            onClick={() => (stopped.current = true)}
            data-testid="batch-stop"
          >
            {t('admin.batch.stop')}
          </button>
        ) : (
          <button type="button" className={primaryButton} onClick={close} autoFocus data-testid="batch-close">
            {t('admin.editor.close')}
          </button>
        )}
      </div>
    </ModalDialog>
  );
}
