/**
 * `npm run bench`: what a representative `find` costs through our users service, against a bare
 * @feathersjs/knex service over the same table (the peer) and the same SQL sent with `pg` (the
 * floor); then a keyset (`$cursor`) page deep in the table against the first page.
 *
 * Prints figures only: no assertions, no thresholds. Runs on an embedded PGlite by default and on
 * PostgreSQL when DATABASE_URL is set (in a database `tillpoint_bench`, dropped and recreated).
 *
 * The clients run in worker threads (bench/load.ts), one per line of a table, each connected once.
 * A table's lines take turns, in BENCH_ROUNDS rounds, so that a drift of the machine during the run
 * does not land on one line only.
 *
 *   BENCH_ROWS (100000)  BENCH_REQUESTS (400 on PGlite, 1500 on PostgreSQL)  BENCH_CONCURRENCY (8)
 *   BENCH_WARMUP (100)  BENCH_ROUNDS (3)  BENCH_DEEP_REQUESTS (requests / 10, at least 30)
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import compression from 'compression';
import express, { json, rest } from '@feathersjs/express';
import { feathers } from '@feathersjs/feathers';
import { KnexService } from '@feathersjs/knex';
import socketio from '@feathersjs/socketio';
import argon2 from 'argon2';
import type { Knex } from 'knex';
import { users as usersDef } from '../domain/entities/users.ts';
import { SOCKET_PATH } from '../server/app.ts';
import { createKnex, POOL_MAX } from '../server/db/knex.ts';
import { migrateLatest } from '../server/db/migrate.ts';
import { seed } from '../server/db/seed/seed.ts';
import { startServer, type RunningServer } from '../server/server.ts';
import { openBenchDatabase } from './bench-database.ts';
import { BENCH_ADMIN, benchServerConfig, intEnv, mulberry32 } from './shared.ts';
import { encodeCursor } from '../server/services/entity/cursor.ts';
import { EntityFields } from '../server/services/entity/fields.ts';
import { parseQuery } from '../server/services/entity/query.ts';
import type { LoadResult, LoadRound, LoadSpec, Target, WorkerReply } from './load.ts';

const DATABASE_URL = process.env.DATABASE_URL || undefined;
const ROWS = intEnv('BENCH_ROWS', 100_000, 100);
// PGlite answers one query at a time, and counting 90 000 rows takes it ~30 ms: fewer requests keep
// the run near three minutes on two cores.
const REQUESTS = intEnv('BENCH_REQUESTS', DATABASE_URL ? 1_500 : 400, 10);
const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 8, 1);
const WARMUP = intEnv('BENCH_WARMUP', Math.min(100, REQUESTS), 0);
const ROUNDS = intEnv('BENCH_ROUNDS', 3, 1);
const DEEP_REQUESTS = intEnv('BENCH_DEEP_REQUESTS', Math.max(30, Math.round(REQUESTS / 10)), 1);
const BENCH_DATABASE = 'tillpoint_bench';
const ADMIN = BENCH_ADMIN;
const LIMIT = 10;
/** Shares of each role among the generated users (the rest are admins). */
const MEMBER_SHARE = 0.9;
const EDITOR_SHARE = 0.08;

/** The representative query, in our API's field names and in the peer's column names. */
const OUR_QUERY = { role: 'member', $sort: { createdAt: -1 }, $limit: LIMIT };
const PEER_QUERY = { role: 'member', $sort: { created_at: -1 }, $limit: LIMIT };
/** The same page in keyset mode, which makes no count. */
const OUR_PAGE_QUERY = { ...OUR_QUERY, $cursor: '' };
/** The peer's service without pagination (a plain array, no count). */
const PEER_PLAIN_SERVICE = 'users-plain';

// ---------------------------------------------------------------------------------------------
// Database

/** Enough sockets for every pool of the run: ours, the peer's, the floor's and the setup's. */
const CONNECTIONS = POOL_MAX * 3 + 4;

/** Inserts `rows` users created over the last three years, most of them members. Returns the member count. */
async function loadUsers(knex: Knex, rows: number): Promise<number> {
  const random = mulberry32(20_240_601);
  const hex = (digits: number) => Array.from({ length: digits }, () => Math.floor(random() * 16).toString(16)).join('');
  // Every generated account shares one real argon2 hash: the rows look like real ones, cheaply.
  const password = await argon2.hash(`Bench-${randomBytes(6).toString('hex')}-1a`);
  const span = 3 * 365 * 86_400_000;
  const from = Date.now() - span - 86_400_000;
  const batchSize = 1000;
  let members = 0;
  for (let start = 0; start < rows; start += batchSize) {
    const batch: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(rows, start + batchSize); i++) {
      const created = new Date(from + Math.floor(((i + random()) * span) / rows));
      const pick = random();
      const role = pick < MEMBER_SHARE ? 'member' : pick < MEMBER_SHARE + EDITOR_SHARE ? 'editor' : 'admin';
      if (role === 'member') members++;
      batch.push({
        // Shaped like the service's ids: creation time first, then random digits.
        id:
          Math.floor(created.getTime() / 1000)
            .toString(16)
            .padStart(8, '0') + hex(16),
        email: `bench-${String(i).padStart(6, '0')}@example.test`,
        password,
        name: `Bench User ${i}`,
        role,
        locale: 'en',
        created_at: created,
        updated_at: created,
      });
    }
    await knex('users').insert(batch);
  }
  // A deployment's autovacuum would have done this; PGlite runs none.
  await knex.raw('vacuum analyze users');
  return members;
}

// ---------------------------------------------------------------------------------------------
// The peer: a bare @feathersjs/knex service, no hooks, in a minimal Feathers app with our compression

interface Peer {
  origin: string;
  close(): Promise<void>;
}

async function startPeer(url: string): Promise<Peer> {
  const knex = createKnex(url, { poolMax: POOL_MAX });
  const app = express(feathers());
  // The same HTTP stack as ours (responses gzipped when the client accepts it), so the ratio
  // measures the service and its hooks, not compression.
  app.use(compression());
  app.use(json());
  app.configure(rest());
  app.configure(socketio({ path: SOCKET_PATH, transports: ['websocket'] }));
  app.use(
    'users',
    new KnexService<Record<string, unknown>>({
      Model: knex,
      name: 'users',
      id: 'id',
      paginate: { default: LIMIT, max: 100 },
    }),
  );
  app.use(PEER_PLAIN_SERVICE, new KnexService<Record<string, unknown>>({ Model: knex, name: 'users', id: 'id' }));
  // Feathers' listen() sets the app up (socket.io included) on the server it starts.
  const server = await app.listen(0, '127.0.0.1');
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      const io = (app as unknown as { io?: { close(cb: () => void): void } }).io;
      await new Promise<void>((resolve) => (io ? io.close(() => resolve()) : resolve()));
      server.closeAllConnections();
      // Feathers' teardown closes the HTTP server too.
      await app.teardown().catch(() => undefined);
      await knex.destroy();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** One client scenario, connected once in its own worker thread. */
class LoadWorker {
  private readonly worker: Worker;
  private waiting: { resolve(reply: WorkerReply): void; reject(error: Error): void } | undefined;
  private exited = false;

  constructor(spec: LoadSpec) {
    this.worker = new Worker(new URL('./load.ts', import.meta.url), { workerData: spec });
    this.worker.on('message', (reply: WorkerReply) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.resolve(reply);
    });
    this.worker.on('error', (error) => this.waiting?.reject(error));
    this.worker.on('exit', (code) => {
      this.exited = true;
      this.waiting?.reject(new Error(`load worker exited with code ${code}`));
    });
  }

  private reply(): Promise<LoadResult | undefined> {
    return new Promise<WorkerReply>((resolve, reject) => {
      this.waiting = { resolve, reject };
    }).then((reply) => {
      if (!reply.ok) throw new Error(reply.error);
      return reply.result;
    });
  }

  /** Resolves once the client is connected (and signed in). */
  ready(): Promise<unknown> {
    return this.reply();
  }

  async round(round: LoadRound): Promise<LoadResult> {
    const reply = this.reply();
    this.worker.postMessage(round);
    const result = await reply;
    if (!result) throw new Error('load worker sent no figures');
    return result;
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage(null);
    const timer = setTimeout(() => void this.worker.terminate(), 3000);
    await exited;
    clearTimeout(timer);
  }
}

const oneLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 160);

/**
 * Runs each line's requests in `ROUNDS` turns (line 1, line 2, ..., then again), warming each
 * client up before its first turn. Returns each line's figures, or why it failed.
 */
async function measure(
  lines: { name: string; spec: LoadSpec; requests: number; warmup: number }[],
): Promise<Map<string, Figures | string>> {
  const outcome = new Map<string, Figures | string>();
  const workers = new Map<string, LoadWorker>();
  const merged = new Map<string, LoadResult>();
  try {
    for (const line of lines) {
      const worker = new LoadWorker(line.spec);
      workers.set(line.name, worker);
      await worker.ready().catch((error: unknown) => outcome.set(line.name, oneLine(error)));
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const line of lines) {
        if (outcome.has(line.name)) continue;
        const requests = Math.floor(line.requests / ROUNDS) + (round < line.requests % ROUNDS ? 1 : 0);
        // Later turns re-warm briefly: the other lines ran in between.
        const warmup = round === 0 ? line.warmup : Math.min(line.warmup, 2 * line.spec.concurrency);
        try {
          const result = await (workers.get(line.name) as LoadWorker).round({ warmup, requests });
          const sum = merged.get(line.name) ?? { latencies: [], wallMs: 0 };
          sum.latencies.push(...result.latencies);
          sum.wallMs += result.wallMs;
          merged.set(line.name, sum);
        } catch (error) {
          outcome.set(line.name, oneLine(error));
        }
      }
    }
  } finally {
    await Promise.all([...workers.values()].map((worker) => worker.close()));
  }
  for (const line of lines)
    if (!outcome.has(line.name)) outcome.set(line.name, figures(merged.get(line.name) as LoadResult));
  return outcome;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

function figures(result: LoadResult): Figures {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return {
    rps: (result.latencies.length / result.wallMs) * 1000,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else params.append(key, String(value));
  };
  for (const [key, value] of Object.entries(query)) add(key, value);
  return params.toString();
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pad = (text: string, width: number) => text.padStart(width);
const padEnd = (text: string, width: number) => text.padEnd(width);

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = Date.now();
  const cleanup: (() => Promise<void>)[] = [];
  const log = (line = '') => console.log(line);
  try {
    const database = await openBenchDatabase(BENCH_DATABASE, { maxConnections: CONNECTIONS });
    cleanup.push(() => database.stop());
    const knex = createKnex(database.url, { poolMax: POOL_MAX });
    cleanup.push(() => knex.destroy());

    await migrateLatest(knex);
    await seed(knex, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: false });
    const loadStart = Date.now();
    const members = await loadUsers(knex, ROWS);
    const loadSeconds = (Date.now() - loadStart) / 1000;
    const serverVersion =
      ((await knex.raw('show server_version')) as { rows: { server_version: string }[] }).rows[0]?.server_version ??
      '?';

    const config = {
      ...benchServerConfig(),
    };
    // The knex above is destroyed by this script's cleanup, after the server has closed.
    const ours: RunningServer = await startServer(config, {
      database: { knex, kind: DATABASE_URL ? 'postgres' : 'embedded', close: async () => {} },
      pages: false,
    });
    cleanup.push(() => ours.close());
    const peer = await startPeer(database.url);
    cleanup.push(() => peer.close());

    // Sign in once as the seeded admin (only staff may list other users); every client reuses the token.
    const login = await fetch(`${ours.url}/api/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ strategy: 'local', ...ADMIN }),
    });
    if (!login.ok) throw new Error(`admin sign-in failed: HTTP ${login.status} ${await login.text()}`);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const auth = { authorization: `Bearer ${accessToken}` };

    // The floor replays exactly the statements our service sends for a query.
    const statementsOf = async (query: Record<string, unknown>) => {
      const captured: { sql: string; bindings: unknown[]; page: boolean }[] = [];
      // knex's `query` event carries the SQL as the pg client sends it ($1, $2...).
      const capture = (q: { sql: string; bindings?: unknown[] }) =>
        captured.push({
          sql: q.sql,
          bindings: [...(q.bindings ?? [])],
          page: /\blimit\b/i.test(q.sql) && !/count\(/i.test(q.sql),
        });
      knex.on('query', capture);
      try {
        await ours.api.service('users').find({ query });
      } finally {
        knex.off('query', capture);
      }
      return captured;
    };
    const withCount = await statementsOf(OUR_QUERY);
    const pageOnly = await statementsOf(OUR_PAGE_QUERY);

    const expectRows = Math.min(LIMIT, members);
    type Line = { name: string; spec: LoadSpec; requests: number; warmup: number };
    const line = (
      name: string,
      target: Target,
      options: { rows?: number; concurrency?: number; requests?: number; warmup?: number } = {},
    ): Line => ({
      name,
      spec: { target, concurrency: options.concurrency ?? CONCURRENCY, expectRows: options.rows ?? expectRows },
      requests: options.requests ?? REQUESTS,
      warmup: options.warmup ?? WARMUP,
    });
    const oursRest = (query: Record<string, unknown>): Target => ({
      kind: 'rest',
      url: `${ours.url}/api/users?${queryString(query)}`,
      headers: auth,
    });
    const peerRest = (service: string, query: Record<string, unknown>): Target => ({
      kind: 'rest',
      url: `${peer.origin}/${service}?${queryString(query)}`,
      headers: {},
    });
    const socket = (origin: string, service: string, query: Record<string, unknown>, token?: string): Target => ({
      kind: 'socket',
      origin,
      path: SOCKET_PATH,
      service,
      query,
      ...(token ? { accessToken: token } : {}),
    });

    log(`find benchmark on ${database.label}, server ${serverVersion}`);
    log(
      `users: ${fmt(ROWS + 1)} rows, ${fmt(members)} of them members (loaded in ${loadSeconds.toFixed(1)} s) | ` +
        `${fmt(REQUESTS)} requests per line in ${ROUNDS} turns, ${fmt(WARMUP)} warm-up, concurrency ${CONCURRENCY}, pools of ${POOL_MAX}`,
    );
    log(
      `ours: the users service as the seeded admin (JWT), log level silent | peer: bare KnexService | clients in worker threads`,
    );

    const goals: string[] = [];
    const table = async (
      title: string,
      lines: Line[],
      floorSql: { sql: string; bindings: unknown[] }[],
      goalLabel?: string,
    ) => {
      log();
      log(title);
      log(`  floor SQL (sent together, as our service sends them):`);
      for (const st of floorSql) log(`    ${st.sql}   -- ${JSON.stringify(st.bindings)}`);
      const measured = await measure(lines);
      log(`  ${padEnd('', 17)}${pad('req/s', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}`);
      for (const { name } of lines) {
        const f = measured.get(name);
        if (typeof f === 'string' || !f) log(`  ${padEnd(name, 17)}  FAILED: ${f ?? 'not run'}`);
        else log(`  ${padEnd(name, 17)}${pad(fmt(f.rps), 9)}${pad(fmt(f.p50, 2), 9)}${pad(fmt(f.p99, 2), 9)}`);
      }
      log('  ours against the others: time per request (their req/s / ours), and p50 / p50');
      const ratio = (oursName: string, otherName: string, goal?: number) => {
        const a = measured.get(oursName);
        const b = measured.get(otherName);
        const label = `    ${padEnd(`${oursName.replace(/\s+/g, ' ')} / ${otherName.replace(/\s+/g, ' ')}`, 30)}`;
        if (typeof a !== 'object' || typeof b !== 'object') {
          log(`${label}   n/a (a line failed)`);
          if (goal !== undefined && goalLabel)
            goals.push(`${goalLabel}, ${oursName.replace(/\s+/g, ' ')}: NOT met (it failed)`);
          return;
        }
        const byRate = b.rps / a.rps;
        const met = byRate <= (goal ?? Infinity);
        log(
          `${label}${pad(`${byRate.toFixed(2)}x`, 7)}   p50 ${pad(`${(a.p50 / b.p50).toFixed(2)}x`, 6)}${goal === undefined ? '' : `   goal <= ${goal}x: ${met ? 'met' : 'NOT met'}`}`,
        );
        if (goal !== undefined && goalLabel)
          goals.push(
            `${goalLabel}, ${oursName.replace(/\s+/g, ' ')}: ${byRate.toFixed(2)}x the peer, ${met ? 'met' : 'NOT met'}`,
          );
      };
      ratio('ours  REST', 'peer  REST', 1.2);
      ratio('ours  socket.io', 'peer  socket.io', 1.2);
      ratio('ours  REST', 'floor raw pg');
      ratio('ours  socket.io', 'floor raw pg');
    };

    await table(
      `1. the representative find, with its total: ours ${JSON.stringify(OUR_QUERY)}, peer ${JSON.stringify(PEER_QUERY)} (paginated)`,
      [
        line('ours  REST', oursRest(OUR_QUERY)),
        line('peer  REST', peerRest('users', PEER_QUERY)),
        line('ours  socket.io', socket(ours.url, 'users', OUR_QUERY, accessToken)),
        line('peer  socket.io', socket(peer.origin, 'users', PEER_QUERY)),
        line('floor raw pg', { kind: 'pg', connectionString: database.url, poolMax: POOL_MAX, statements: withCount }),
      ],
      withCount,
      'within 1.2x of the peer (find with total)',
    );

    // Counting 90% of the table weighs on every line above; without it, what each layer adds shows.
    await table(
      `2. the same page without a total: ours with $cursor (keyset mode makes no count), peer unpaginated (service ${PEER_PLAIN_SERVICE})`,
      [
        line('ours  REST', oursRest(OUR_PAGE_QUERY)),
        line('peer  REST', peerRest(PEER_PLAIN_SERVICE, PEER_QUERY)),
        line('ours  socket.io', socket(ours.url, 'users', OUR_PAGE_QUERY, accessToken)),
        line('peer  socket.io', socket(peer.origin, PEER_PLAIN_SERVICE, PEER_QUERY)),
        // The service asks for one row more than the page, to know whether a next page exists.
        line(
          'floor raw pg',
          { kind: 'pg', connectionString: database.url, poolMax: POOL_MAX, statements: pageOnly },
          { rows: Math.min(LIMIT + 1, members) },
        ),
      ],
      pageOnly,
      'within 1.2x of the peer (page without total)',
    );

    // -------------------------------------------------------------------------------------------
    // Deep pages: a keyset cursor far into the table against the first page, and $skip for contrast.
    const deep = Math.max(1, Math.floor(members * 0.9));
    log();
    log(
      `3. deep pages: ours, REST, one request at a time, ${fmt(DEEP_REQUESTS)} each in ${ROUNDS} turns; the page after member ${fmt(deep)} of ${fmt(members)}`,
    );
    const fields = new EntityFields(usersDef);
    const sorts: { label: string; sort: Record<string, 1 | -1>; sql: string }[] = [
      { label: '$sort {createdAt:-1} (the default order)', sort: { createdAt: -1 }, sql: 'created_at desc, id asc' },
      { label: '$sort {createdAt:-1,_id:-1}', sort: { createdAt: -1, _id: -1 }, sql: 'created_at desc, id desc' },
    ];
    const pageIds = async (query: Record<string, unknown>) => {
      const response = await fetch(`${ours.url}/api/users?${queryString(query)}`, { headers: auth });
      const body = (await response.json()) as { data?: { _id: string }[] };
      return (body.data ?? []).map((r) => r._id).join(',');
    };
    for (const variant of sorts) {
      // The cursor the service hands out after row `deep`, built from that row's keys.
      const row = (await knex.raw(
        `select created_at::text as k0, id as k1 from users where role = 'member' order by ${variant.sql} offset ? limit 1`,
        [deep - 1],
      )) as {
        rows: { k0: string; k1: string }[];
      };
      const keys = row.rows[0];
      if (!keys) throw new Error('no row at the deep position');
      const cursor = encodeCursor(parseQuery(fields, { $sort: variant.sort }).sort, 'n', [keys.k0, keys.k1]);
      const base = { role: 'member', $sort: variant.sort, $limit: LIMIT };
      const deepRows = Math.min(LIMIT, members - deep);
      const options = { concurrency: 1, requests: DEEP_REQUESTS, warmup: Math.min(10, DEEP_REQUESTS) };
      const lines = [
        line('first page ($cursor)', oursRest({ ...base, $cursor: '' }), options),
        line(`$cursor after member ${fmt(deep)}`, oursRest({ ...base, $cursor: cursor }), {
          ...options,
          rows: deepRows,
        }),
        line(`$skip ${fmt(deep)}`, oursRest({ ...base, $skip: deep }), { ...options, rows: deepRows }),
      ];
      log(`  ${padEnd(variant.label, 42)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('/ first', 9)}`);
      // A wrong cursor would time the wrong page: the deep cursor page must be the $skip page.
      const [viaCursor, viaSkip] = await Promise.all([
        pageIds({ ...base, $cursor: cursor }),
        pageIds({ ...base, $skip: deep }),
      ]);
      if (viaCursor !== viaSkip) log(`    WARNING: the cursor page and the $skip page differ`);
      const measured = await measure(lines);
      const first = measured.get(lines[0]!.name);
      for (const [i, { name }] of lines.entries()) {
        const f = measured.get(name);
        if (typeof f !== 'object') {
          log(`    ${padEnd(name, 40)}  FAILED: ${f ?? 'not run'}`);
          if (i === 1 && variant === sorts[0]) goals.push('deep cursor page as fast as the first: NOT met (it failed)');
          continue;
        }
        const relative = typeof first === 'object' ? f.p50 / first.p50 : Number.NaN;
        const met = relative <= 1.2;
        log(
          `    ${padEnd(name, 40)}${pad(fmt(f.p50, 2), 9)}${pad(fmt(f.p99, 2), 9)}${pad(`${relative.toFixed(2)}x`, 9)}` +
            (i === 1 ? `   goal as fast as the first (within 1.2x): ${met ? 'met' : 'NOT met'}` : ''),
        );
        if (i === 1 && variant === sorts[0])
          goals.push(
            `deep cursor page as fast as the first (default order): ${relative.toFixed(2)}x, ${met ? 'met' : 'NOT met'}`,
          );
      }
    }

    log();
    log('goals');
    for (const goal of goals) log(`  ${goal}`);
    log();
    log(`total ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    for (const step of cleanup.reverse()) await step().catch((error: unknown) => console.error('cleanup:', error));
  }
}

await main();
// Everything is closed; a handle left open by a library must not keep the run alive.
setTimeout(() => {
  console.error('bench: handles still open after cleanup; exiting');
  process.exit(0);
}, 5000).unref();
