/**
 * The load generator of `npm run bench`, run in a worker thread so that the clients do not share
 * the event loop of the servers (and of PGlite) they measure. One worker serves one scenario: it
 * connects once, then, round after round, warms up, sends a fixed number of requests at a fixed
 * concurrency and reports every latency.
 */
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import feathers from '@feathersjs/client';
import socketio from '@feathersjs/socketio-client';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';

export type Target =
  /** GET of a fixed URL over HTTP keep-alive (undici, as `fetch`). */
  | { kind: 'rest'; url: string; headers: Record<string, string> }
  /** `client.service(service).find({ query })` with the official Feathers client over socket.io. */
  | {
      kind: 'socket';
      origin: string;
      path: string;
      service: string;
      query: Record<string, unknown>;
      accessToken?: string;
    }
  /** The statements of one find sent together through a `pg` Pool, as the service sends them. */
  | {
      kind: 'pg';
      connectionString: string;
      poolMax: number;
      statements: { sql: string; bindings: unknown[]; page: boolean }[];
    };

export interface LoadSpec {
  target: Target;
  concurrency: number;
  /** Rows each answer must carry (a wrong answer makes the figures meaningless). */
  expectRows: number;
}

/** What the main thread asks of a running worker: warm up, then time `requests` requests. */
export interface LoadRound {
  warmup: number;
  requests: number;
}

export interface LoadResult {
  /** Milliseconds of each timed request, in completion order. */
  latencies: number[];
  wallMs: number;
}

export type WorkerReply = { ok: true; result?: LoadResult } | { ok: false; error: string };

type Send = () => Promise<number>;

function rowsOf(body: unknown): number {
  const data = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data.length : -1;
}

async function connect(target: Target): Promise<{ send: Send; close(): Promise<void> }> {
  switch (target.kind) {
    case 'rest':
      return {
        async send() {
          const response = await fetch(target.url, { headers: target.headers });
          const body: unknown = await response.json();
          if (!response.ok) {
            const error = body as { name?: string; message?: string } | null;
            throw new Error(
              `HTTP ${response.status} ${error?.name ?? ''}: ${error?.message ?? JSON.stringify(body).slice(0, 200)}`,
            );
          }
          return rowsOf(body);
        },
        async close() {},
      };
    case 'socket': {
      const socket: Socket = io(target.origin, {
        path: target.path,
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
      });
      const client = feathers().configure(socketio(socket, { timeout: 30_000 }));
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      // What @feathersjs/authentication-client does: authenticate the connection once with the JWT.
      if (target.accessToken)
        await client.service('authentication').create({ strategy: 'jwt', accessToken: target.accessToken });
      const service = client.service(target.service);
      return {
        async send() {
          return rowsOf(await service.find({ query: target.query }));
        },
        async close() {
          socket.close();
        },
      };
    }
    case 'pg': {
      const pool = new pg.Pool({ connectionString: target.connectionString, max: target.poolMax });
      return {
        async send() {
          const results = await Promise.all(target.statements.map((s) => pool.query(s.sql, s.bindings)));
          const page = results.find((_, i) => target.statements[i]?.page);
          return page ? page.rows.length : -1;
        },
        close: () => pool.end(),
      };
    }
  }
}

async function run(
  send: Send,
  count: number,
  concurrency: number,
  expectRows: number,
  latencies?: number[],
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next++;
      const start = performance.now();
      const rows = await send();
      const ms = performance.now() - start;
      if (rows !== expectRows) throw new Error(`expected ${expectRows} rows in an answer, got ${rows}`);
      latencies?.push(ms);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, lane));
}

/**
 * In a worker: connects once, answers `ready`, then runs each round it is sent (a `LoadRound`) and
 * replies with its latencies; `null` closes the connection and ends the worker.
 */
if (!isMainThread && parentPort) {
  const port = parentPort;
  const spec = workerData as LoadSpec;
  const fail = (error: unknown) =>
    port.postMessage({
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    } satisfies WorkerReply);
  connect(spec.target).then((connection) => {
    port.postMessage({ ok: true } satisfies WorkerReply);
    port.on('message', (round: LoadRound | null) => {
      if (round === null) {
        void connection.close().finally(() => port.close());
        return;
      }
      (async () => {
        await run(connection.send, round.warmup, spec.concurrency, spec.expectRows);
        const latencies: number[] = [];
        const start = performance.now();
        await run(connection.send, round.requests, spec.concurrency, spec.expectRows, latencies);
        port.postMessage({ ok: true, result: { latencies, wallMs: performance.now() - start } } satisfies WorkerReply);
      })().catch(fail);
    });
  }, fail);
}
