/**
 * The server the end-to-end tests drive (started by playwright.config.ts): builds the pages once,
 * then runs the production entry point on E2E_PORT with a fresh temporary DATA_DIR (embedded
 * PGlite), or on E2E_DATABASE_URL when set, and removes the temporary folder when it stops.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { E2E_WEBHOOK_SECRET } from './sandbox.ts';
import { users } from './users.ts';
import { ENGINE_FILES, proxyPortVariable, type EngineName } from './engines/packages.ts';

const port = process.env.E2E_PORT;
if (!port) {
  console.error('E2E_PORT is not set: start the end-to-end tests with `npx playwright test`.');
  process.exit(1);
}

if (process.env.E2E_SKIP_BUILD !== '1') {
  const build = spawnSync('npm', ['run', 'build'], { encoding: 'utf8' });
  if (build.status !== 0) {
    console.error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
    process.exit(build.status ?? 1);
  }
}

// Only what the tests choose reaches the server: a developer's own settings must not leak in.
const SERVER_SETTINGS = [
  'PORT',
  'HOST',
  'NODE_ENV',
  'DATABASE_URL',
  'DATA_DIR',
  'REDIS_URL',
  'REDIS_PREFIX',
  'INSTANCE_NAME',
  'APP_SECRET',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'DEMO_DATA',
  'PUBLIC_URL',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'BRAND_NAME',
  'GTM_ID',
  'CHAT_URL',
  'SUPPORT_EMAIL',
  'SUPPORT_PHONE',
  'LOGIN_ATTEMPTS_PER_IP',
  'REGISTRATIONS_PER_IP',
  'FORM_SUBMISSIONS_PER_IP',
  'NEWSLETTER_SIGNUPS_PER_IP',
  // A developer's Stripe keys would take the tests' payments away from the sandbox.
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'PAYMENT_SANDBOX',
  'PAYMENT_SANDBOX_PORT',
  'PAYMENT_SANDBOX_URL',
  'PAYMENT_SANDBOX_WEBHOOK_SECRET',
  'PAYMENT_SANDBOX_SITE_ORIGINS',
  // A developer's SMTP server would receive the tests' mail, which they read from the outbox.
  'SMTP_URL',
  'MAIL_FROM',
  'STAFF_EMAIL',
  // A developer's bucket would receive the tests' uploads; they stay in the temporary DATA_DIR.
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'PASSWORD_HASHING',
  'JOB_HEARTBEAT_SECONDS',
  'UPLOAD_MAX_BYTES',
  'UPLOAD_MAX_FILES',
  'UPLOAD_MAX_PIXELS',
  'UPLOAD_CONCURRENCY',
];
const env: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !SERVER_SETTINGS.includes(name)),
);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-e2e-'));
Object.assign(env, {
  NODE_ENV: 'production',
  // The end-to-end tests pay through the sandbox gateway, on a free port of its own.
  PAYMENT_SANDBOX: '1',
  // The suite registers and signs in hundreds of times: hashes at a test cost (auth/passwords.ts).
  PASSWORD_HASHING: 'fast',
  PAYMENT_SANDBOX_PORT: '0',
  // Known to the tests, which replay a delivered webhook (sandbox.ts).
  PAYMENT_SANDBOX_WEBHOOK_SECRET: E2E_WEBHOOK_SECRET,
  PORT: port,
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  APP_SECRET: randomBytes(48).toString('base64url'),
  ADMIN_PASSWORD: users.admin.password,
  // Every test signs in from 127.0.0.1: the per-address limit would stop the suite, not an attacker.
  LOGIN_ATTEMPTS_PER_IP: '10000',
  // The purchase and register specs register from 127.0.0.1 too; the limit is tested in the integration suite.
  REGISTRATIONS_PER_IP: '10000',
  // Every form test posts from 127.0.0.1; the limit itself is tested in the integration suite.
  FORM_SUBMISSIONS_PER_IP: '10000',
  NEWSLETTER_SIGNUPS_PER_IP: '10000',
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
  // The cross-engine tests' proxies serve the site's pages, which embed the sandbox's card frame.
  PAYMENT_SANDBOX_SITE_ORIGINS: Object.keys(ENGINE_FILES)
    .map((engine) => process.env[proxyPortVariable(engine as EngineName)])
    .filter(Boolean)
    .map((proxyPort) => `http://127.0.0.1:${proxyPort}`)
    .join(','),
});
if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;

// The demo accounts first: a production start does not make them (demo-accounts.ts).
const prepared = spawnSync(process.execPath, ['tests/e2e/demo-accounts.ts'], { env, stdio: 'inherit' });
if (prepared.status !== 0) {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(prepared.status ?? 1);
}

const server = spawn(process.execPath, ['server/index.ts'], { env, stdio: 'inherit' });

// Playwright signals the whole process group; forwarding covers a signal sent to this process alone.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 0 : 1));
});
