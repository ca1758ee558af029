/**
 * `npm run bench:ads` (and part of `npm run bench`): what asking for an ad costs with 10 000 ads,
 * beside the cached public page in the same run (decision 057). Prints ad picks per second with
 * p50 and p99 of `POST /api/adPicks` (anonymous, so no frequency cap is written: each pick reads the
 * instance's copy of the servable ads, under half a second old, and picks among the ads of a type),
 * and the same for `GET /en` served from the page cache, taking turns.
 *
 * Our server runs in this process (production mode, the build in build/, made first when missing,
 * on a fresh embedded database, or on PostgreSQL with DATABASE_URL, in a database
 * `tillpoint_bench_ads` dropped and recreated). autocannon runs in a process of its own
 * (bench/throughput-client.ts).
 *
 *   BENCH_ADS (10000)  ADS_SECONDS (10)  ADS_ROUNDS (3)  ADS_CONNECTIONS (20)  ADS_WARMUP (3 s, untimed)
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import type { Knex } from 'knex';
import { AD_TYPES } from '../domain/entities/ads.ts';
import { createKnex } from '../server/db/knex.ts';
import { newId } from '../server/db/ids.ts';
import { prepareDatabase } from '../server/db/prepare.ts';
import { startServer, type RunningServer } from '../server/server.ts';
import { openBenchDatabase, type BenchDatabase } from './bench-database.ts';
import { BENCH_ADMIN, benchServerConfig, intEnv, mulberry32 } from './shared.ts';
import type { ClientResult, ClientRun, FromClient, ToClient } from './throughput-client.ts';

const ADS = intEnv('BENCH_ADS', 10_000, 10);
const SECONDS = intEnv('ADS_SECONDS', 10, 1);
const ROUNDS = intEnv('ADS_ROUNDS', 3, 1);
const WARMUP = intEnv('ADS_WARMUP', 3, 0);
const CONNECTIONS = intEnv('ADS_CONNECTIONS', 20, 1);
/** Ads grouped in campaigns: 50 campaigns of 20 ads, one in five a draft. */
const CAMPAIGNS = 50;
const PER_CAMPAIGN = 20;

/** `count` ads over the five types, nine in ten published, weights 1–10, probabilities 50–100 %, open windows mostly. */
async function loadAds(knex: Knex, count: number): Promise<string[]> {
  const random = mulberry32(20_261_129);
  const now = Date.now();
  const ids: string[] = [];
  for (let start = 0; start < count; start += 1000) {
    const batch = [];
    for (let i = start; i < Math.min(count, start + 1000); i += 1) {
      const id = newId();
      ids.push(id);
      batch.push({
        id,
        name: JSON.stringify({ en: `Bench ad ${i}`, 'zh-hk': `測試廣告 ${i}`, 'zh-cn': `测试广告 ${i}` }),
        ad_type: AD_TYPES[i % AD_TYPES.length],
        status: random() < 0.9 ? 'published' : 'draft',
        target_link: `https://example.test/ads/${i}`,
        weight: 1 + Math.floor(random() * 10),
        probability: 50 + Math.floor(random() * 51),
        publish: random() < 0.8 ? null : new Date(now - 86_400_000),
        expiry: random() < 0.8 ? null : new Date(now + 30 * 86_400_000),
      });
    }
    await knex('ads').insert(batch);
  }
  for (let c = 0; c < CAMPAIGNS; c += 1)
    await knex('campaigns').insert({
      id: newId(),
      key: `bench-${c}`,
      name: JSON.stringify({ en: `Bench campaign ${c}` }),
      status: c % 5 === 0 ? 'draft' : 'published',
      ads: JSON.stringify(ids.slice(c * PER_CAMPAIGN, (c + 1) * PER_CAMPAIGN)),
    });
  return ids;
}

class Client {
  private readonly child: ChildProcess;

  private constructor(child: ChildProcess) {
    this.child = child;
  }

  static async start(): Promise<Client> {
    const child = fork(new URL('./throughput-client.ts', import.meta.url), {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the client exited with code ${code}`)));
    });
    return new Client(child);
  }

  run(run: ClientRun): Promise<ClientResult> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (reply: FromClient) => {
        if (reply.type === 'result') resolve(reply.result);
        else reject(new Error(reply.type === 'error' ? reply.message : 'unexpected reply from the client'));
      });
      this.child.send({ type: 'run', run } satisfies ToClient);
    });
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send({ type: 'stop' } satisfies ToClient);
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  if (!existsSync('build/server/index.js')) {
    console.log('Building the pages first (npx react-router build)…');
    const built = spawnSync('npx', ['react-router', 'build'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the build failed');
  }
  let db: BenchDatabase | undefined;
  let server: RunningServer | undefined;
  let client: Client | undefined;
  try {
    db = await openBenchDatabase('tillpoint_bench_ads', { maxConnections: 20 });
    const knex = createKnex(db.url);
    await prepareDatabase(knex, db.kind, {
      adminEmail: BENCH_ADMIN.email,
      adminPassword: BENCH_ADMIN.password,
      demoData: false,
    });
    await loadAds(knex, ADS);
    server = await startServer(benchServerConfig(), { database: { knex, kind: db.kind, close: () => knex.destroy() } });
    client = await Client.start();
    const runs: Record<'picks' | 'page', ClientRun> = {
      picks: {
        url: `${server.url}/api/adPicks`,
        method: 'POST',
        body: JSON.stringify({ adType: 'list' }),
        headers: { 'content-type': 'application/json' },
        connections: CONNECTIONS,
        seconds: SECONDS,
      },
      page: {
        url: `${server.url}/en`,
        headers: { 'accept-encoding': 'gzip' },
        connections: CONNECTIONS,
        seconds: SECONDS,
      },
    };
    // Each answered once before timing: the page into the cache, the ads into the instance's copy.
    for (const run of Object.values(runs)) {
      const response = await fetch(run.url, {
        method: run.method ?? 'GET',
        headers: run.headers,
        ...(run.body ? { body: run.body } : {}),
      });
      if (!response.ok) throw new Error(`${run.url} answered ${response.status}`);
      await response.arrayBuffer();
      if (WARMUP > 0) await client.run({ ...run, seconds: WARMUP });
    }
    const results: Record<'picks' | 'page', ClientResult[]> = { picks: [], page: [] };
    for (let round = 0; round < ROUNDS; round += 1)
      for (const name of ['picks', 'page'] as const) results[name].push(await client.run(runs[name]));

    console.log(
      `\nAd picks with ${ADS} ads (${ADS / AD_TYPES.length} of the type asked, ${CAMPAIGNS} campaigns), beside the cached public page; ` +
        `${os.cpus().length} cores, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each, taking turns; ${db.label}.`,
    );
    const line = (label: string, list: ClientResult[]) => {
      const rps = list.map((r) => r.requestsPerSecond);
      const statuses = list.reduce<Record<string, number>>((all, r) => {
        for (const [status, count] of Object.entries(r.statuses)) all[status] = (all[status] ?? 0) + count;
        return all;
      }, {});
      console.log(
        `${label.padEnd(28)} ${median(rps).toFixed(0).padStart(7)} req/s (runs ${rps.map((v) => v.toFixed(0)).join(', ')})` +
          `  p50 ${median(list.map((r) => r.p50)).toFixed(2)} ms  p99 ${median(list.map((r) => r.p99)).toFixed(2)} ms` +
          `  statuses ${JSON.stringify(statuses)}  errors ${list.reduce((n, r) => n + r.errors + r.timeouts, 0)}`,
      );
    };
    line('POST /api/adPicks (list)', results.picks);
    line('GET /en (page cache hit)', results.page);
  } finally {
    await client?.stop();
    await server?.close();
    await db?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
