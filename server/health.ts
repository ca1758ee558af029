/**
 * `/health` (decision 032): each part the instance depends on is checked on its own, with its own
 * short timeout, so one that does not answer neither hides nor delays the others. The instance is
 * healthy (200) only when every configured part answers; else 503 with each part's state, which is
 * what a load balancer or an operator reads. `/health/live` says only that the process serves.
 */

/** How long one part's check may take before it counts as down. */
export const HEALTH_CHECK_TIMEOUT_MS = 1_000;

export interface PartHealth {
  status: 'ok' | 'down';
  /** How long the check took (up to the timeout). */
  latencyMs: number;
}

/** `{ status, instance, database: { status, latencyMs }, redis: …, jobs: … }`: one entry per part. */
export interface HealthReport {
  status: 'ok' | 'unavailable';
  instance: string;
  [part: string]: PartHealth | string;
}

/** A part's check: resolves when the part answers. */
export type HealthCheck = () => Promise<unknown>;

async function checkPart(check: HealthCheck, timeoutMs: number): Promise<PartHealth & { error?: unknown }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([check(), timeout]);
    return { status: 'ok', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 'down', latencyMs: Math.round(performance.now() - started), error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs every check at once; `ok` when all of them answered. Why a part is down goes to `errors`
 * (for the log), not into the report, which anyone may read (addresses of internal servers).
 */
export async function checkHealth(
  instance: string,
  checks: Record<string, HealthCheck>,
  timeoutMs = HEALTH_CHECK_TIMEOUT_MS,
): Promise<{ report: HealthReport; errors: Record<string, unknown> }> {
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => checkPart(checks[name]!, timeoutMs)));
  const parts: Record<string, PartHealth> = {};
  const errors: Record<string, unknown> = {};
  names.forEach((name, index) => {
    const { error, ...part } = results[index]!;
    parts[name] = part;
    if (part.status === 'down') errors[name] = error;
  });
  const status = results.every((part) => part.status === 'ok') ? 'ok' : 'unavailable';
  return { report: { ...parts, status, instance }, errors };
}
