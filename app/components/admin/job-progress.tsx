import { useEffect, useState } from 'react';
import type { Live } from '../../api/live';

/** The services whose records are jobs that the server runs and patches as they go. */
export type JobService = 'exports' | 'facebook';

const POLL_MS = 2000;

/**
 * A job the server runs (an export, a Facebook import), followed live: `follow` it once created,
 * and it is kept up to date by its `patched` events on the live connection, with a poll every two
 * seconds in case one is missed, until it reaches one of the `final` states (a late event or poll
 * answer never takes it back out of one).
 */
export function useJobProgress<Job extends { _id: string; state: string }>(
  live: Live | null,
  path: JobService,
  final: ReadonlySet<Job['state']>,
): { job: Job | null; follow: (job: Job) => void; running: boolean } {
  const [job, setJob] = useState<Job | null>(null);
  const id = job?._id;
  const finished = job ? final.has(job.state) : false;

  useEffect(() => {
    if (!id || finished || !live) return;
    let active = true;
    const take = (data: unknown) => {
      const next = data as Job | null;
      if (active && next?._id === id) setJob((current) => (current && final.has(current.state) ? current : next));
    };
    const stop = live.on(path, 'patched', take);
    const timer = setInterval(() => {
      live.call(path, (service): Promise<unknown> => service.get(id)).then(take, () => undefined);
    }, POLL_MS);
    return () => {
      active = false;
      stop();
      clearInterval(timer);
    };
  }, [id, finished, live, path, final]);

  return { job, follow: setJob, running: job !== null && !finished };
}

/** A job's progress bar: how much of `total` is done, or, while the total is not known, just "under way". */
export function ProgressBar({
  done,
  total,
  label,
  testId,
  className = 'mt-3',
}: {
  done: number;
  total: number | null;
  label: string;
  testId: string;
  /** Its spacing. */
  className?: string;
}) {
  return (
    <progress
      className={`${className} h-2 w-full accent-brand-700`}
      max={total ?? undefined}
      value={total === null ? undefined : Math.min(done, total)}
      aria-label={label}
      data-testid={testId}
    />
  );
}
