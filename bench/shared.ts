/** What the benchmark scripts share: their settings from the environment, repeatable data, a server's settings. */
import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../server/config.ts';

/** The admin the API benchmarks sign in as (the seed makes it from the server's settings). */
export const BENCH_ADMIN = { email: 'admin@tillpoint.test', password: 'Admin12345' };

/** A production server's settings for a benchmark in this process: quiet, on a free port, no demo data. */
export function benchServerConfig(): Config {
  return {
    ...loadConfig({
      NODE_ENV: 'production',
      PAYMENT_SANDBOX: '1',
      APP_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      ADMIN_PASSWORD: BENCH_ADMIN.password,
    }),
    adminEmail: BENCH_ADMIN.email,
    adminPassword: BENCH_ADMIN.password,
  };
}

/** An integer setting from the environment, `fallback` when unset. */
export function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min} (got ${raw})`);
  return value;
}

/** A small deterministic generator, so every run builds the same table. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
