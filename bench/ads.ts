/**
 * `npm run bench:ads` (and part of `npm run bench`): what asking for an ad costs with 10 000 ads,
 * beside the cached public page in the same run (decision 057). Prints, taking turns, requests per
 * second with p50 and p99 of:
 * - `POST /api/adPicks` by many devices (`BENCH_DEVICES`, each with its secret, in turn): what the
 *   apps send. Each pick checks the device's secret, reads which ads it has seen 3 times this hour
 *   and writes its pick (the frequency cap's upsert); every other pick names a campaign (20 ads,
 *   a few of the type asked), so devices reach the cap there and are picked another ad or none;
 * - the same anonymously (a web page's pick: the held copy alone, nothing written);
 * - `GET /en` served from the page cache.
 * Then how many picks the devices were counted and how many (device, ad, hour) rows reached the cap.
 *
 * Our server runs in this process (production mode, the build in build/, made first when missing,
 * on a fresh embedded database, or on PostgreSQL with DATABASE_URL, in a database
 * `tillpoint_bench_ads` dropped and recreated). autocannon runs in a process of its own
 * (bench/throughput-client.ts).
 *
 *   BENCH_ADS (10000)  BENCH_DEVICES (2000)  ADS_SECONDS (10)  ADS_ROUNDS (3)  ADS_CONNECTIONS (20)
 *   ADS_WARMUP (3 s, untimed)
 */
import { spawnSync } from 'node:child_process';
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
import { type ClientResult, type ClientRun, median, ThroughputClient } from './throughput-runner.ts';
import { FREQUENCY_CAP } from '../server/services/ads/ads.ts';
import { hashInstallationSecret } from '../server/services/app-devices/installations.ts';

const ADS = intEnv('BENCH_ADS', 10_000, 10);
const DEVICES = intEnv('BENCH_DEVICES', 2_000, 1);
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

/** `count` installations of the apps, registered as the app does (a hashed secret); answers their ids and secrets. */
async function loadDevices(knex: Knex, count: number): Promise<{ deviceId: string; secret: string }[]> {
  const devices = Array.from({ length: count }, (_, i) => ({
    deviceId: `bench-device-${i}`,
    secret: `bench-secret-${i}-${newId()}`,
  }));
  for (let start = 0; start < count; start += 1000)
    await knex('app_devices').insert(
      devices.slice(start, start + 1000).map((device, i) => ({
        id: newId(),
        device_id: device.deviceId,
        platform: i % 2 ? 'ios' : 'android',
        secret_hash: hashInstallationSecret(device.secret),
      })),
    );
  return devices;
}

async function main(): Promise<void> {
  if (!existsSync('build/server/index.js')) {
    console.log('Building the pages first (npx react-router build)…');
    const built = spawnSync('npx', ['react-router', 'build'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the build failed');
  }
  let db: BenchDatabase | undefined;
  let server: RunningServer | undefined;
  let client: ThroughputClient | undefined;
  try {
    db = await openBenchDatabase('tillpoint_bench_ads', { maxConnections: 20 });
    const knex = createKnex(db.url);
    await prepareDatabase(knex, db.kind, {
      adminEmail: BENCH_ADMIN.email,
      adminPassword: BENCH_ADMIN.password,
      demoData: false,
    });
    await loadAds(knex, ADS);
    const devices = await loadDevices(knex, DEVICES);
    // Every device asks for a list ad, and every other pick within one of the published campaigns.
    const published = Array.from({ length: CAMPAIGNS }, (_, c) => c).filter((c) => c % 5 !== 0);
    const deviceBodies = devices.flatMap((device, i) => [
      JSON.stringify({ adType: 'list', ...device }),
      JSON.stringify({ adType: 'list', campaign: `bench-${published[i % published.length]}`, ...device }),
    ]);
    server = await startServer(benchServerConfig(), { database: { knex, kind: db.kind, close: () => knex.destroy() } });
    client = await ThroughputClient.start();
    const runs: Record<'devices' | 'picks' | 'page', ClientRun> = {
      devices: {
        url: `${server.url}/api/adPicks`,
        method: 'POST',
        bodies: deviceBodies,
        headers: { 'content-type': 'application/json' },
        connections: CONNECTIONS,
        seconds: SECONDS,
      },
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
      const body = run.body ?? run.bodies?.[0];
      const response = await fetch(run.url, {
        method: run.method ?? 'GET',
        headers: run.headers,
        ...(body ? { body } : {}),
      });
      if (!response.ok) throw new Error(`${run.url} answered ${response.status}`);
      await response.arrayBuffer();
      if (WARMUP > 0) await client.run({ ...run, seconds: WARMUP });
    }
    const results: Record<'devices' | 'picks' | 'page', ClientResult[]> = { devices: [], picks: [], page: [] };
    for (let round = 0; round < ROUNDS; round += 1)
      for (const name of ['devices', 'picks', 'page'] as const) results[name].push(await client.run(runs[name]));
    // What the devices' picks wrote (the warm-up's too): picks counted, and pairs that reached the cap.
    const capped = (await knex('ad_picks')
      .select(
        knex.raw('count(*)::int as pairs'),
        knex.raw('coalesce(sum(picks), 0)::int as picks'),
        knex.raw('(count(*) filter (where picks >= ?))::int as capped', [FREQUENCY_CAP]),
        knex.raw('count(distinct device_id)::int as devices'),
      )
      .first()) as { pairs: number; picks: number; capped: number; devices: number };

    console.log(
      `\nAd picks with ${ADS} ads (${ADS / AD_TYPES.length} of the type asked, ${CAMPAIGNS} campaigns) by ${DEVICES} devices and anonymously, beside the cached public page; ` +
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
    line('POST /api/adPicks (devices)', results.devices);
    line('POST /api/adPicks (anonymous)', results.picks);
    line('GET /en (page cache hit)', results.page);
    const answered = results.devices.reduce((n, r) => n + (r.statuses['201'] ?? 0), 0);
    console.log(
      `Device picks answered ${answered} (timed); shown and counted ${capped.picks} (warm-up included) over ` +
        `${capped.pairs} (device, ad, hour) pairs of ${capped.devices} devices; ${capped.capped} pairs reached the cap of ${FREQUENCY_CAP}.`,
    );
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
