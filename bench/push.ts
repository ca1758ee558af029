/**
 * `npm run bench:push`: what sending one push message to every device costs (decision 055): the
 * send job as staff's "Send now" starts it, writing one delivery row per device and sending them in
 * steps through the local provider, which records each (keeping the newest 10 000). Then what
 * reading the message's statistics costs at that many deliveries (the goal: under 100 ms), and how
 * fast devices' reports are counted. Prints times and the process's memory (resident set, sampled
 * every 50 ms while the send runs): figures only, no assertions. Runs on an embedded PGlite by
 * default (in this process: its memory is in the figures) and on PostgreSQL when DATABASE_URL is
 * set (a database `tillpoint_bench_push`, dropped and recreated).
 *
 *   BENCH_DEVICES (100000)   BENCH_REPORTS (2000)
 */
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { createKnex, POOL_MAX } from '../server/db/knex.ts';
import { newId } from '../server/db/ids.ts';
import { migrateLatest } from '../server/db/migrate.ts';
import { seed } from '../server/db/seed/seed.ts';
import { startServer } from '../server/server.ts';
import { hashInstallationSecret } from '../server/services/app-devices/installations.ts';
import { pushSenderOf } from '../server/services/push-messages/push-messages.ts';
import { openBenchDatabase } from './bench-database.ts';
import { BENCH_ADMIN, benchServerConfig, intEnv } from './shared.ts';

const DATABASE_URL = process.env.DATABASE_URL || undefined;
const DEVICES = intEnv('BENCH_DEVICES', 100_000, 100);
const REPORTS = intEnv('BENCH_REPORTS', 2_000, 10);
const LOCALES = ['en', 'zh-hk', 'zh-cn'] as const;

async function loadDevices(knex: Knex, count: number): Promise<string[]> {
  const secretHash = hashInstallationSecret('bench-secret');
  const ids: string[] = [];
  for (let start = 0; start < count; start += 1000) {
    const batch: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      const id = newId();
      ids.push(id);
      batch.push({
        id,
        device_id: `bench-device-${i}`,
        platform: i % 2 === 0 ? 'ios' : 'android',
        locale: LOCALES[i % 3],
        region: i % 10 === 0 ? 'sg' : 'hk',
        time_zone: i % 10 === 0 ? 'Asia/Singapore' : 'Asia/Hong_Kong',
        push_enabled: true,
        push_token: `bench-token-${i}-${'x'.repeat(120)}`,
        secret_hash: secretHash,
      });
    }
    await knex('app_devices').insert(batch);
  }
  await knex.raw('vacuum analyze app_devices');
  return ids;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function main(): Promise<void> {
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const database = await openBenchDatabase('tillpoint_bench_push', { maxConnections: POOL_MAX + 4 });
    cleanup.push(() => database.stop());
    const knex = createKnex(database.url, { poolMax: POOL_MAX });
    cleanup.push(() => knex.destroy());
    await migrateLatest(knex);
    await seed(knex, { adminEmail: BENCH_ADMIN.email, adminPassword: BENCH_ADMIN.password, demoData: false });
    const loadStart = Date.now();
    const deviceIds = await loadDevices(knex, DEVICES);
    const loadSeconds = (Date.now() - loadStart) / 1000;
    const base = benchServerConfig();
    // The periodic look at what is due stays out of the figures.
    const config = { ...base, push: { ...base.push, dueSeconds: 3600 } };
    const server = await startServer(config, {
      database: { knex, kind: DATABASE_URL ? 'postgres' : 'embedded', close: async () => {} },
      pages: false,
    });
    cleanup.push(() => server.close());
    const sender = pushSenderOf(server.api);

    console.log(`push benchmark on ${database.label}`);
    console.log(
      `devices: ${fmt(DEVICES)} (loaded in ${loadSeconds.toFixed(1)} s) | local provider | steps of ${sender.batchSize}`,
    );
    console.log();

    const id = newId();
    await knex('push_messages').insert({
      id,
      title: JSON.stringify({ en: 'Lunch deal', 'zh-hk': '午市優惠', 'zh-cn': '午市优惠' }),
      body: JSON.stringify({ en: 'Two courses for $88.', 'zh-hk': '兩道菜 $88。', 'zh-cn': '两道菜 $88。' }),
      audience: 'all',
      urgent: true,
    });
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const start = performance.now();
    if (!(await sender.sendNow(id))) throw new Error('the message did not start sending');
    let targetsWritten = 0;
    for (;;) {
      const row = (await knex('push_messages').where({ id }).first('status', 'targets_at', 'sent', 'failed')) as {
        status: string;
        targets_at: Date | null;
        sent: number;
        failed: number;
      };
      if (row.targets_at && !targetsWritten) targetsWritten = performance.now() - start;
      if (row.status === 'sent') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    const done = (await knex('push_messages').where({ id }).first('targeted', 'sent', 'failed')) as {
      targeted: number;
      sent: number;
      failed: number;
    };
    console.log(
      `  send to all: ${seconds.toFixed(1)} s (${fmt(done.sent / seconds)} deliveries/s; deliveries written in ${(targetsWritten / 1000).toFixed(1)} s) | targeted ${fmt(done.targeted)}, sent ${fmt(done.sent)}, failed ${fmt(done.failed)}`,
    );
    console.log(`  memory: RSS ${mb(before)} before, ${mb(peak)} at its peak (+${mb(peak - before)})`);

    // Devices report: a receipt from some, an opening from half of those.
    const reportStart = performance.now();
    for (let i = 0; i < REPORTS; i++) {
      await sender.report(id, deviceIds[i] as string, i % 2 === 0 ? 'opened' : 'received');
    }
    const reportSeconds = (performance.now() - reportStart) / 1000;
    console.log(`  ${fmt(REPORTS)} reports, one at a time: ${fmt(REPORTS / reportSeconds)} per second`);

    // The statistics as staff read them: the message's record (its counters), through the service.
    const service = server.api.service('pushMessages');
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await service.get(id);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    // What counting the deliveries instead would cost (not how the product reads them).
    const counted: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await knex('push_deliveries')
        .where({ message_id: id })
        .select(
          knex.raw("count(*) filter (where state = 'sent') as sent"),
          knex.raw('count(received_at) as received'),
          knex.raw('count(opened_at) as opened'),
        );
      counted.push(performance.now() - t);
    }
    counted.sort((a, b) => a - b);
    const record = (await service.get(id)) as { received: number; opened: number; openRate: number | null };
    console.log(
      `  statistics at ${fmt(done.targeted)} deliveries (the record's counters): p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms | received ${fmt(record.received)}, opened ${fmt(record.opened)}, open rate ${record.openRate ?? '—'} %`,
    );
    console.log(
      `  (counting the delivery rows instead: p50 ${percentile(counted, 0.5).toFixed(0)} ms, p95 ${percentile(counted, 0.95).toFixed(0)} ms)`,
    );
  } finally {
    for (const step of cleanup.reverse()) await step().catch((error: unknown) => console.error(error));
  }
}

await main();
