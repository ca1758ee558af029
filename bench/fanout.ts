/**
 * `npm run bench:fanout` (issue 20): one service event fanned out to many sockets, on one instance
 * and across two, beside a bare socket.io server of the same version on the same machine; and the
 * memory an idle socket costs an instance.
 *
 * The instances are production processes of the current build on a fresh database of the local
 * PostgreSQL and the local Redis, as `npm run test:cluster` starts them (tests/cluster/cluster.ts).
 * The sockets are the official Feathers client's, anonymous, in this process; an admin patches an
 * industry (a public record, so every socket hears it) once per round. Latency is from just before
 * the PATCH is sent to each socket's event. An idle socket's memory is measured once the
 * instance's garbage is collected (each instance runs with its inspector open for this), and also
 * as resident memory 2 s after the sockets opened, before any collection. Prints figures only.
 *
 *   BENCH_SOCKETS (1000)  BENCH_ROUNDS (20)
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { ADMIN, clusterSkipReason, sleep, startCluster, until } from '../tests/cluster/cluster.ts';
import { freePort } from '../tests/e2e/free-port.ts';
import { intEnv } from './shared.ts';

const SOCKETS = intEnv('BENCH_SOCKETS', 1000, 1);
const ROUNDS = intEnv('BENCH_ROUNDS', 20, 1);

interface Result {
  latencies: number[];
  missing: number;
  duplicated: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function line(name: string, result: Result): string {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
  return `${name.padEnd(34)} p50 ${ms(percentile(sorted, 50))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted.at(-1) ?? Number.NaN)}  missing ${result.missing}  duplicated ${result.duplicated}`;
}

/** Opens `count` websocket connections to `url`, a few at a time, and waits until all are up. */
async function openSockets(url: string, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let index = 0; index < count; index += 50) {
    const batch = Array.from({ length: Math.min(50, count - index) }, () =>
      io(url, { path: '/api/socket.io', transports: ['websocket'], forceNew: true, reconnection: false }),
    );
    await Promise.all(
      batch.map(
        (socket) =>
          new Promise<void>((resolve, reject) => {
            socket.once('connect', () => resolve());
            socket.once('connect_error', reject);
          }),
      ),
    );
    sockets.push(...batch);
  }
  return sockets;
}

/** Rounds of one event each: `send` makes it; every socket should hear `event` once per round. */
async function measure(sockets: Socket[], event: string, send: (round: number) => Promise<void>): Promise<Result> {
  const result: Result = { latencies: [], missing: 0, duplicated: 0 };
  let sentAt = 0;
  let heard = new Map<Socket, number>();
  for (const socket of sockets) {
    socket.on(event, () => {
      const times = (heard.get(socket) ?? 0) + 1;
      heard.set(socket, times);
      if (times === 1) result.latencies.push(performance.now() - sentAt);
    });
  }
  for (let round = 0; round < ROUNDS + 2; round += 1) {
    heard = new Map();
    const before = result.latencies.length;
    sentAt = performance.now();
    await send(round);
    await until(() => heard.size >= sockets.length, 'every socket to hear the event', 10_000).catch(() => undefined);
    await sleep(100);
    // Two rounds to warm up, not counted.
    if (round < 2) {
      result.latencies.length = before;
      continue;
    }
    result.missing += sockets.length - heard.size;
    for (const times of heard.values()) if (times > 1) result.duplicated += times - 1;
  }
  for (const socket of sockets) socket.removeAllListeners(event);
  return result;
}

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

interface Settled {
  /** Resident memory after two full collections, KB. */
  rssKb: number;
  /** What the heap holds live, with the memory outside it that objects own (buffers), KB. */
  liveKb: number;
}

/**
 * The instance's memory once its garbage is collected, through its inspector (the instance runs
 * with `--inspect` here only): what sockets hold, not what opening them left to collect.
 */
async function settledMemory(pid: number, inspectorPort: number): Promise<Settled> {
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let next = 0;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = (next += 1);
      const answer = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
        if (message.id !== id) return;
        socket.removeEventListener('message', answer);
        resolve(message.result ?? {});
      };
      socket.addEventListener('message', answer);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await call('HeapProfiler.collectGarbage');
    await sleep(200);
    await call('HeapProfiler.collectGarbage');
    const evaluated = await call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const usage = JSON.parse((evaluated.result as { value: string }).value) as NodeJS.MemoryUsage;
    return { rssKb: rssKb(pid), liveKb: (usage.heapUsed + usage.external) / 1024 };
  } finally {
    socket.close();
  }
}

async function bare(): Promise<Result> {
  const child = spawn(process.execPath, ['bench/fanout-bare.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    const sockets = await openSockets(url, SOCKETS);
    const result = await measure(sockets, 'industries patched', async () => {
      await fetch(`${url}/emit`, { method: 'POST' });
    });
    for (const socket of sockets) socket.disconnect();
    return result;
  } finally {
    child.kill();
  }
}

async function main(): Promise<void> {
  const reason = await clusterSkipReason();
  if (reason) {
    console.log(`bench:fanout needs what the cluster test needs: ${reason}`);
    return;
  }
  console.log(
    `One event to ${SOCKETS} sockets, ${ROUNDS} rounds (after 2 to warm up); production build, PostgreSQL and Redis on this machine.\n`,
  );
  console.log(line('bare socket.io, one process', await bare()));

  const inspectors = { a: await freePort(), b: await freePort() };
  const cluster = await startCluster({
    nodeOptions: (name) => [`--inspect=127.0.0.1:${inspectors[name as 'a' | 'b']}`],
  });
  try {
    const signedIn = await fetch(`${cluster.a.url}/api/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ strategy: 'local', ...ADMIN }),
    }).then((response) => response.json() as Promise<{ accessToken: string }>);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${signedIn.accessToken}`,
    };
    const made = await fetch(`${cluster.a.url}/api/industries`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ key: 'fanout-bench', name: { en: 'Fan-out' } }),
    }).then((response) => response.json() as Promise<{ _id: string }>);
    const patch = (round: number) =>
      fetch(`${cluster.a.url}/api/industries/${made._id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ order: round }),
      }).then(() => undefined);

    for (const [name, instance, inspector] of [
      ['one instance (sockets on A)', cluster.a, inspectors.a],
      ['across two (change on A, sockets on B)', cluster.b, inspectors.b],
    ] as const) {
      const pid = instance.process.pid!;
      await sleep(500);
      const before = await settledMemory(pid, inspector);
      const sockets = await openSockets(instance.url, SOCKETS);
      await sleep(2_000);
      const opened = rssKb(pid);
      const after = await settledMemory(pid, inspector);
      const result = await measure(sockets, 'industries patched', patch);
      console.log(line(name, result));
      const perSocket = (kb: number) => `${(kb / SOCKETS).toFixed(1)} KB`;
      console.log(
        `${''.padEnd(34)} memory per idle socket, once collected: ${perSocket(after.rssKb - before.rssKb)} resident, ${perSocket(after.liveKb - before.liveKb)} live objects ` +
          `(RSS ${Math.round(before.rssKb / 1024)} → ${Math.round(after.rssKb / 1024)} MB; ${perSocket(opened - before.rssKb)} resident 2 s after opening, before collection)`,
      );
      for (const socket of sockets) socket.disconnect();
    }
  } finally {
    await cluster.close();
  }
}

await main();
