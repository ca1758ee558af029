/**
 * The load generator of `npm run bench:throughput`: autocannon in a process of its own (forked by
 * bench/throughput.ts), so the client never shares an event loop with the server it measures. It
 * takes one run at a time over IPC and answers with its figures. Latencies are taken from each
 * response's own timing (fractions of a millisecond), not from autocannon's histogram, which rounds
 * to whole milliseconds: too coarse beside nginx.
 */
import { createRequire } from 'node:module';

export interface ClientRun {
  url: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  /** GET unless told (bench/ads.ts posts picks). */
  method?: 'GET' | 'POST';
  body?: string;
  /** Bodies sent in turn, one a request, over every connection (many devices' picks): instead of `body`. */
  bodies?: string[];
}

export interface ClientResult {
  /** autocannon's mean of its per-second samples, as its own report shows it. */
  requestsPerSecond: number;
  p50: number;
  p99: number;
  responses: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Mean bytes of a response as received (status line, headers and body). */
  bytesPerResponse: number;
}

export type ToClient = { type: 'run'; run: ClientRun } | { type: 'stop' };
export type FromClient =
  { type: 'ready' } | { type: 'result'; result: ClientResult } | { type: 'error'; message: string };

/** What this script uses of autocannon (it ships no types). */
interface AutocannonResult {
  requests: { average: number; total: number };
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
}
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    headers: Record<string, string>;
    method?: string;
    body?: string;
    requests?: { setupRequest: (request: { body?: string }) => { body?: string } }[];
  },
  done: (error: Error | null, result: AutocannonResult) => void,
) => { on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void };

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Gives each request the next of `bodies`, round and round. */
function nextBody(bodies: string[]): (request: { body?: string }) => { body?: string } {
  let next = 0;
  return (request) => {
    const body = bodies[next % bodies.length];
    next += 1;
    return { ...request, body };
  };
}

function measure(run: ClientRun): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let bytes = 0;
    const instance = autocannon(
      {
        url: run.url,
        connections: run.connections,
        duration: run.seconds,
        headers: run.headers,
        ...(run.method ? { method: run.method } : {}),
        ...(run.body === undefined ? {} : { body: run.body }),
        ...(run.bodies?.length ? { requests: [{ setupRequest: nextBody(run.bodies) }] } : {}),
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const sorted = Float64Array.from(latencies).sort();
        resolve({
          requestsPerSecond: result.requests.average,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          responses: latencies.length,
          statuses: Object.fromEntries(
            Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
          ),
          errors: result.errors,
          timeouts: result.timeouts,
          bytesPerResponse: latencies.length ? bytes / latencies.length : 0,
        });
      },
    );
    instance.on('response', (_client, _status, received, ms) => {
      latencies.push(ms);
      bytes += received;
    });
  });
}

const send = (message: FromClient) => process.send?.(message);

process.on('message', (message: ToClient) => {
  if (message.type === 'stop') {
    process.exit(0);
  }
  measure(message.run).then(
    (result) => send({ type: 'result', result }),
    (error: unknown) => send({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
});
send({ type: 'ready' });
