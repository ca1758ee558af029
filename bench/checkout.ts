/**
 * `npm run bench:checkout` (and the last part of `npm run bench`): 50 checkouts at once against
 * the sandbox payment gateway, through the whole server. Members (verified) and their orders are
 * made directly, their cards tokenised at the sandbox, then every payment is sent at the same time
 * as `POST /api/payments` with the member's token; one checkout in five sends its payment twice
 * at once (a double click). Prints orders paid per second, p50/p99 of the payment call, and the
 * count of orders charged more than once, which must be 0.
 *
 * Figures only, no thresholds. Runs on an embedded PGlite by default and on PostgreSQL when
 * DATABASE_URL is set (in a database `tillpoint_bench_checkout`, dropped and recreated).
 *
 *   BENCH_CHECKOUTS (50)
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import argon2 from 'argon2';
import type { ServiceMap } from '../domain/entities/services.ts';
import { loadConfig } from '../server/config.ts';
import type { Database } from '../server/database.ts';
import { createKnex } from '../server/db/knex.ts';
import { prepareDatabase } from '../server/db/prepare.ts';
import { deliveryDates } from '../server/purchase/delivery-dates.ts';
import { startServer } from '../server/server.ts';
import { openBenchDatabase } from './bench-database.ts';

const CHECKOUTS = Number(process.env.BENCH_CHECKOUTS ?? 50);
if (!Number.isInteger(CHECKOUTS) || CHECKOUTS < 1) throw new Error('BENCH_CHECKOUTS must be a positive integer');
const BENCH_DATABASE = 'tillpoint_bench_checkout';
const ADMIN = { email: 'admin@bench.test', password: 'BenchAdmin123' };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

async function main(): Promise<void> {
  const db = await openBenchDatabase(BENCH_DATABASE, { maxConnections: 40 });
  const knex = createKnex(db.url);
  const database: Database = { knex, kind: db.kind, close: () => knex.destroy() };
  await prepareDatabase(knex, db.kind, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
  const config = loadConfig({
    NODE_ENV: 'development',
    APP_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'error',
    PORT: '0',
    HOST: '127.0.0.1',
    LOGIN_ATTEMPTS_PER_IP: String(CHECKOUTS * 4),
  });
  const server = await startServer(config, { database, pages: false });
  const sandbox = server.paymentSandbox?.sandbox;
  if (!sandbox) throw new Error('the sandbox gateway did not start');
  try {
    // Setup, not measured: verified members, their orders, their cards' tokens and their sessions.
    const plan = (await knex('app_templates').where('key', 'restaurant-lite').first('id')) as { id: string };
    const password = 'BenchMember123';
    const hash = await argon2.hash(password);
    const shippingDate = deliveryDates('HK')[0] as string;
    const checkouts: { token: string; twice: boolean; body: string }[] = [];
    const services: ServiceMap = server.api;
    for (let i = 0; i < CHECKOUTS; i += 1) {
      const id = randomBytes(12).toString('hex');
      const email = `bench-${i}-${id.slice(0, 6)}@example.test`;
      await knex('users').insert({ id, email, password: hash, role: 'member', email_verified_at: new Date() });
      const user = { _id: id, role: 'member' };
      const order = await services.service('orders').create(
        {
          plan: plan.id,
          addOns: [],
          prepaidMonths: 24,
          shipping: {
            contactPerson: 'Mei Chan',
            contactNumber: '9123 4567',
            street: '12 Nathan Road',
            city: 'Hong Kong',
            country: 'HK',
            shippingDate,
          },
          idempotencyKey: randomBytes(12).toString('hex'),
        },
        { provider: 'rest', user },
      );
      const auth = await services.service('authentication').create({ strategy: 'local', email, password }, {});
      const { paymentMethodId } = await sandbox.tokenize({
        number: '4242424242424242',
        expMonth: 12,
        expYear: 2034,
        cvc: '123',
      });
      checkouts.push({
        token: auth.accessToken,
        twice: i % 5 === 0,
        body: JSON.stringify({
          order: order._id,
          paymentMethodId,
          billingAddress: { name: 'Mei Chan', line1: '12 Nathan Road', city: 'Hong Kong', country: 'HK' },
          idempotencyKey: randomBytes(12).toString('hex'),
          expectedTotal: order.total,
        }),
      });
    }

    const latencies: number[] = [];
    let failures = 0;
    const pay = async (checkout: (typeof checkouts)[number]) => {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${checkout.token}` },
        body: checkout.body,
      });
      const answer = (await response.json()) as { status?: string };
      latencies.push(performance.now() - started);
      if (response.status !== 201 || answer.status !== 'succeeded') failures += 1;
    };
    const started = performance.now();
    await Promise.all(
      checkouts.map((checkout) => (checkout.twice ? Promise.all([pay(checkout), pay(checkout)]) : pay(checkout))),
    );
    const seconds = (performance.now() - started) / 1000;
    await sandbox.webhooks.idle();

    const charged = (await knex('payment_sandbox_charges')
      .where('status', 'succeeded')
      .select(knex.raw(`metadata->>'orderId' as order_id`))
      .count({ charges: '*' })
      .groupByRaw(`metadata->>'orderId'`)) as { order_id: string; charges: string | number }[];
    const doubleCharged = charged.filter((row) => Number(row.charges) > 1).length;
    const provisioned = Number(
      ((await knex('orders').where('status', 'provisioning').count({ n: '*' }).first()) as { n: string | number }).n,
    );
    const invoices = Number(((await knex('invoices').count({ n: '*' }).first()) as { n: string | number }).n);
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `Checkout bench: ${CHECKOUTS} checkouts at once (${checkouts.filter((c) => c.twice).length} sent twice), sandbox gateway, ${db.label}, ${os.cpus().length} cores`,
    );
    console.log(
      `  orders paid per second   ${(provisioned / seconds).toFixed(1)}  (${provisioned} orders in ${seconds.toFixed(2)} s)`,
    );
    console.log(
      `  payment call p50 / p99   ${percentile(sorted, 50).toFixed(0)} ms / ${percentile(sorted, 99).toFixed(0)} ms  (${latencies.length} calls, ${failures} not succeeded)`,
    );
    console.log(`  invoices issued          ${invoices}`);
    console.log(`  double charges           ${doubleCharged}`);
    if (doubleCharged > 0 || failures > 0) process.exitCode = 1;
  } finally {
    await server.close();
    await db.stop();
  }
}

await main();
