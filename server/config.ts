import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from '../domain/zod.ts';
import { brandSlug, type SiteSettings } from '../domain/site.ts';
import { PASSWORD_MESSAGES, passwordSchema } from '../domain/validation/password.ts';
import { type LimitSetting, LOGIN_LIMITS, type LoginLimitSettings } from './auth/limits.ts';
import { translate } from './i18n.ts';
import type { PasswordHashing } from './auth/passwords.ts';
import type { S3Settings } from './storage/s3-storage.ts';
import type { FcmOptions, ServiceAccount } from './push/fcm.ts';

/**
 * A job whose worker wrote no heartbeat for this long is taken for lost (its instance died) and
 * retried by any instance, long before its expiry (`JOB_HEARTBEAT_SECONDS`; pg-boss takes 10 at least).
 */
export const JOB_HEARTBEAT_SECONDS = 60;
/** How often each instance asks for the attachments' cleanup; the queue runs one per period, whatever the instances. */
export const ATTACHMENT_CLEANUP_SECONDS = 60 * 60;

/** An smtp:// or smtps:// URL that names a host (user and password percent-encoded). */
function isSmtpUrl(value: string): boolean {
  if (!/^smtps?:\/\/\S+$/.test(value) || !URL.canParse(value)) return false;
  return new URL(value).hostname !== '';
}

/** A password rule's message in English, as a phrase inside a configuration error. */
const passwordRule = (key: string) => translate('en', key).replace(/^\p{Lu}/u, (first) => first.toLowerCase());
const PASSWORD_RULES = Object.values(PASSWORD_MESSAGES).map(passwordRule).join(', ');

/** Every environment variable the server reads, validated once at boot. */
/** The items of a comma-separated list of origins. */
function listedOrigins(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** An http:// or https:// origin, written as one (a trailing slash allowed, nothing more). */
function isHttpOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '');
}

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().default('./data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'letters, digits, _ . - only (up to 64)')
    .default('tillpoint'),
  // Names this process in the X-Instance header and its log lines (default: host name and process id).
  INSTANCE_NAME: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'letters, digits, _ . : - only (up to 64)')
    .optional(),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_EMAIL: z.email().default('admin@tillpoint.test'),
  // The accounts' own password rules; never echoed in an error.
  ADMIN_PASSWORD: z
    .string()
    .superRefine((value, ctx) => {
      const broken = passwordSchema.safeParse(value).error?.issues.map((issue) => passwordRule(issue.message));
      if (broken) ctx.addIssue({ code: 'custom', message: `must follow the password rules: ${broken.join(', ')}` });
    })
    .optional(),
  // Absent: true outside production, false in it (where true is refused).
  DEMO_DATA: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Test runs only (auth/passwords.ts); absent: fast under NODE_ENV=test, standard otherwise.
  PASSWORD_HASHING: z.enum(['standard', 'fast']).optional(),
  // Sign-in attempts per address per 15 minutes (an office behind one address may need more).
  LOGIN_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(30),
  // Accounts registered from one address per hour (the purchase flow, the register page, the API).
  REGISTRATIONS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(10),
  // Contact forms and enquiries sent from one address per 10 minutes (duplicates and robots aside).
  FORM_SUBMISSIONS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(10),
  NEWSLETTER_SIGNUPS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(20),
  QUOTES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(300),
  BRAND_NAME: z.string().trim().min(1).max(40).default('Tillpoint'),
  GTM_ID: z
    .string()
    .regex(/^GTM-[A-Z0-9]{4,12}$/, 'must look like GTM-XXXXXXX')
    .optional(),
  CHAT_URL: z.url().default('https://wa.me/85230012345'),
  SUPPORT_EMAIL: z.email().default('support@tillpoint.example'),
  // Never echoed in an error: it may hold a password.
  SMTP_URL: z
    .string()
    .refine(
      isSmtpUrl,
      'must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@mail.example.com:587 (percent-encode special characters)',
    )
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .regex(
      /^([^<>@\n]{1,80} <[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/,
      'must be an address, or a name and <address>, e.g. Tillpoint <no-reply@example.com>',
    )
    .default('Tillpoint <no-reply@tillpoint.example>'),
  STAFF_EMAIL: z.email('must be one email address').default('sales@tillpoint.example'),
  SUPPORT_PHONE: z
    .string()
    .regex(/^\+?[\d ()-]{6,24}$/, 'a phone number such as +852 3001 2345')
    .default('+852 3001 2345'),
  // Payments (decision 019): Stripe when its secret key is set, else the local sandbox gateway.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must look like sk_test_… or sk_live_…')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_\w+$/, 'must look like pk_test_… or pk_live_…')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must look like whsec_…')
    .optional(),
  // `1`: production may run on the sandbox gateway (a demo or a staging site); refused otherwise there.
  PAYMENT_SANDBOX: z.enum(['0', '1']).optional(),
  PAYMENT_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // A host name of its own on the site's port (e.g. `sandbox-pay.localhost`), instead of a port of its own.
  PAYMENT_SANDBOX_HOST: z
    .string()
    .toLowerCase()
    .regex(
      /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/,
      'must be a host name, such as sandbox-pay.localhost',
    )
    .optional(),
  PAYMENT_SANDBOX_URL: z
    .url()
    .refine((value) => /^https?:$/.test(new URL(value).protocol), 'must be an http:// or https:// origin')
    .optional(),
  PAYMENT_SANDBOX_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Comma-separated: other addresses of the site whose pages may embed the sandbox's card frame.
  PAYMENT_SANDBOX_SITE_ORIGINS: z
    .string()
    .refine((value) => listedOrigins(value).every(isHttpOrigin), 'must be http:// or https:// origins, comma-separated')
    .optional(),
  // Uploads (decision 022): a bucket makes them go to S3-compatible storage, else to DATA_DIR/uploads.
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lower-case letters, digits, . and -)')
    .optional(),
  S3_ENDPOINT: z
    .url()
    .refine((value) => /^https?:$/.test(new URL(value).protocol), 'must be an http:// or https:// URL')
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,32}$/, 'must be a region name such as ap-east-1')
    .default('us-east-1'),
  // Never echoed in an error.
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .default(false),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(20 * 1024 * 1024),
  UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(100).default(10),
  UPLOAD_MAX_PIXELS: z.coerce.number().int().min(10_000).max(268_402_689).default(50_000_000),
  UPLOAD_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  // Push messages (decision 055): Firebase's service account key, as its JSON or the path of its file; unset: the local provider.
  FCM_SERVICE_ACCOUNT: z.string().trim().min(1).optional(),
  // Deliveries sent per step of a push message's send job (each step is marked done in one write).
  PUSH_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(500),
  // The company's Facebook page (decision 059): its id and a page access token; both or neither. Unset: the local provider.
  FACEBOOK_PAGE_ID: z
    .string()
    .trim()
    .regex(/^\d{1,30}$/, 'a Facebook page id is digits')
    .optional(),
  FACEBOOK_PAGE_TOKEN: z.string().trim().min(1).optional(),
  // The Graph API's address, with its version.
  FACEBOOK_GRAPH_URL: z.string().trim().url().default('https://graph.facebook.com/v21.0'),
  // A job whose instance stopped writing its heartbeat this long is retried elsewhere (pg-boss: 10 at least).
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(JOB_HEARTBEAT_SECONDS),
  // Express's `trust proxy`: true/false, a hop count, or addresses and names such as `loopback`.
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value) =>
      value === undefined
        ? undefined
        : value === 'true'
          ? true
          : value === 'false'
            ? false
            : /^\d+$/.test(value)
              ? Number(value)
              : value,
    ),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  /** Prepended to every Redis key and channel, so several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  /** This instance's name, sent as `X-Instance` on every response (INSTANCE_NAME, else host name and pid). */
  instanceName: string;
  appSecret: string;
  adminEmail: string;
  adminPassword: string;
  demoData: boolean;
  publicUrl: string | undefined;
  logLevel: string;
  /** The cost of the password hashes made (auth/passwords.ts): `fast` is for test runs only. */
  passwordHashing: PasswordHashing;
  trustProxy: boolean | number | string | undefined;
  site: SiteSettings;
  mail: MailSettings;
  /** Submissions of the public forms per address: always the production value, except in tests. */
  formLimit: LimitSetting;
  /** Newsletter subscriptions per address: always the production value, except in tests. */
  newsletterLimit: LimitSetting;
  /** Prices (`quotes`) asked for from one address per 10 minutes: the purchase flow asks at each change. */
  quoteLimit: LimitSetting;
  /** Batches of missing-translation reports per address (development only): always this value, except in tests. */
  translationReportLimit: LimitSetting;
  /** Sign-in and registration limits: always the production values, except in tests that need small ones. */
  loginLimits: LoginLimitSettings;
  payments: PaymentSettings;
  uploads: UploadSettings;
  exports: ExportSettings;
  push: PushSettings;
  facebook: FacebookSettings;
  /**
   * Durable jobs (server/jobs): how soon a job whose instance died is taken over, and how often
   * each instance asks for the attachments' cleanup (always the production value, except in tests).
   */
  jobs: { heartbeatSeconds: number; attachmentCleanupSeconds: number };
}

/** How the news reach the company's Facebook page and come from it (decision 059). */
export interface FacebookSettings {
  /** The Graph API when a page and its token are configured (never in tests), else the local provider. */
  provider: 'graph' | 'local';
  /** The Graph API's address, with its version, without a trailing slash. */
  graphUrl: string;
  /** The page's id and access token, when configured. */
  page: { id: string; token: string } | undefined;
  /**
   * How a post that failed for a passing reason (a rate limit, Facebook's own trouble) is tried
   * again: tries after the first, seconds before the first of them (about doubling each time), the
   * longest wait.
   */
  retry: { retryLimit: number; retryDelay: number; retryDelayMax: number };
}

/** How push messages leave the server (decision 055). */
export interface PushSettings {
  /** Firebase Cloud Messaging when its service account is configured (never in tests), else the local provider. */
  provider: 'fcm' | 'local';
  /** The FCM provider's options (a test gives its own endpoint and fetch). */
  fcm: FcmOptions | undefined;
  /** Deliveries sent per step of the send job. */
  batchSize: number;
  /** How often each instance asks whether a scheduled message (or a delivery held by quiet hours) is due. */
  dueSeconds: number;
}

/**
 * The service account key FCM_SERVICE_ACCOUNT names: its JSON, or the path of its file. Throws a
 * message that names what is wrong, never the key itself.
 */
export function serviceAccountOf(value: string): ServiceAccount {
  let text = value;
  if (!value.startsWith('{')) {
    if (!existsSync(value)) throw new Error('is neither a JSON service account key nor the path of a file that exists');
    text = readFileSync(value, 'utf8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('is not valid JSON (the service account key file from the Firebase console)');
  }
  const account = z
    .object({
      project_id: z.string().min(1),
      client_email: z.email(),
      private_key: z.string().includes('PRIVATE KEY'),
      token_uri: z.url().optional(),
    })
    .safeParse(parsed);
  if (!account.success)
    throw new Error(
      `lacks ${account.error.issues.map((issue) => issue.path.join('.')).join(', ')} (the service account key file from the Firebase console)`,
    );
  return account.data;
}

/** Where back-office exports are written (decision 036). */
export interface ExportSettings {
  /** The finished files: DATA_DIR/exports, or the uploads' bucket. */
  storage: UploadSettings['storage'];
  /** Where a file is written while its job runs (removed when it is stored, cancelled or fails). */
  tempDir: string;
}

/** Where uploaded files go and what an upload may hold (decision 022). */
export interface UploadSettings {
  storage: { kind: 'folder'; root: string } | ({ kind: 's3' } & S3Settings);
  /** The largest file taken, in bytes (exactly this many pass; one more is a 413). */
  maxBytes: number;
  /** Files in one request. */
  maxFiles: number;
  /** Width × height of the largest image decoded (a small file can describe a huge image). */
  maxPixels: number;
  /** Images decoded or resized at a time by this process; the others wait their turn. */
  concurrency: number;
  /** Where files are received before they are checked (each removed once its request is answered). */
  tempDir: string;
}

/** Which payment gateway the server uses, and its settings (decision 019). */
export interface PaymentSettings {
  provider: 'sandbox' | 'stripe';
  /** The local sandbox gateway's own server (started whenever the provider is `sandbox`). */
  sandbox: {
    /** Its port: PAYMENT_SANDBOX_PORT, else PORT+1 (0, any free port, when PORT is 0). Unused with `host`. */
    port: number;
    /**
     * PAYMENT_SANDBOX_HOST: served by the site's own server, on its port, to requests for this
     * host name (another host is another origin), rather than on a port of its own.
     */
    host: string | undefined;
    /**
     * Its public origin; absent: `http://localhost:<its port>`, known once it listens, or with
     * `host`, `http://<host>:<PORT>`.
     */
    url: string | undefined;
    /** Signs its webhooks (HMAC-SHA256). */
    webhookSecret: string;
    /**
     * Other origins of the site allowed to embed its frame, beside PUBLIC_URL's (and, outside
     * production, the server's own loopback addresses).
     */
    siteOrigins: string[];
  };
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string } | undefined;
}

export interface MailSettings {
  /** Absent: mail is kept in the `outbox` table for staff to read. */
  smtpUrl: string | undefined;
  from: string;
  /** Who receives the staff mail about each enquiry and contact form. */
  staffEmail: string;
  /** Attempts of a mail job after its first. */
  retryLimit: number;
  /** Seconds before the first retry; each later one waits about twice as long as the one before. */
  retryDelay: number;
  /** The longest wait between two attempts, in seconds. */
  retryDelayMax: number;
}

/**
 * Production values: 10 retries, the first after 30 to 60 s, doubling (with jitter) up to an hour
 * apart, so a mail keeps being tried for four to five hours. Tests read them rather than repeat
 * them, and retry at the queue's next poll.
 */
export const MAIL_RETRY = { retryLimit: 10, retryDelay: 30, retryDelayMax: 3600 } as const;
export const FORM_LIMIT: Readonly<LimitSetting> = { points: 10, duration: 10 * 60 };
/** Twice the forms' allowance: a campaign runs at events, where many visitors share one network. */
export const NEWSLETTER_LIMIT: Readonly<LimitSetting> = { points: 20, duration: 10 * 60 };
export const QUOTE_LIMIT: Readonly<LimitSetting> = { points: 300, duration: 10 * 60 };
/**
 * A development page sends at most one batch of missing keys every 3 s (20 a minute): six tabs
 * reloading together stay under it, a script posting in a loop does not.
 */
export const TRANSLATION_REPORT_LIMIT: Readonly<LimitSetting> = { points: 120, duration: 60 };

/**
 * A news item's Facebook post that failed for a passing reason: 8 more tries, the first after a
 * minute, doubling up to an hour apart (about three hours in all): Facebook's rate limits last
 * up to an hour (decision 059).
 */
export const FACEBOOK_RETRY = { retryLimit: 8, retryDelay: 60, retryDelayMax: 3600 } as const;

/** Each instance asks every this many seconds whether a push message is due (one runs per period). */
export const PUSH_DUE_SECONDS = 15;

/** The first admin's password outside production when ADMIN_PASSWORD is unset (README's demo accounts). */
export const DEMO_ADMIN_PASSWORD = 'Admin12345';

export class ConfigError extends Error {}

/**
 * Several instances (`REDIS_URL` set) keeping uploads and exports in a folder: it must be one folder
 * every instance shares (a shared volume), or one instance's files are missing on the others. The
 * server cannot tell a shared folder from its own, so it says so at start-up (null: nothing to say).
 */
export function unsharedFilesWarning(config: Pick<Config, 'redisUrl' | 'uploads' | 'exports'>): string | null {
  if (!config.redisUrl) return null;
  const folders = [config.uploads.storage, config.exports.storage].flatMap((storage) =>
    storage.kind === 'folder' ? [storage.root] : [],
  );
  if (folders.length === 0) return null;
  return `REDIS_URL is set (several instances) and files are kept in ${folders.join(' and ')}: every instance must share this folder (one DATA_DIR on a shared volume), or set S3_BUCKET and the other S3_ settings; otherwise a file uploaded or exported on one instance is missing on the others`;
}

/** Reads and validates the environment; throws one ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  /** Where a kind of file lives: the bucket when there is one (every instance reads it), else a folder of DATA_DIR. */
  const storageOf = (folder: string): UploadSettings['storage'] =>
    e.S3_BUCKET
      ? {
          kind: 's3',
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : { kind: 'folder', root: path.join(dataDir, folder) };
  // Production runs on nothing the README publishes: its own secret and admin password, no demo accounts.
  if (e.NODE_ENV === 'production') {
    const lines: string[] = [];
    if (!e.APP_SECRET) lines.push('  APP_SECRET: required in production (32+ characters)');
    if (!e.ADMIN_PASSWORD)
      lines.push(`  ADMIN_PASSWORD: required in production (the first admin's password: ${PASSWORD_RULES})`);
    if (e.DEMO_DATA)
      lines.push(
        "  DEMO_DATA: refused in production (the demo accounts' passwords are published): unset it or set false",
      );
    if (!e.STRIPE_SECRET_KEY && e.PAYMENT_SANDBOX !== '1') {
      lines.push(
        '  STRIPE_SECRET_KEY: required in production (with STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET), or PAYMENT_SANDBOX=1 to take no real payments',
      );
    }
    if (lines.length > 0) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // The sandbox on a host name of the site's port, or on a port of its own: one or the other.
  if (e.PAYMENT_SANDBOX_HOST && e.PAYMENT_SANDBOX_PORT !== undefined) {
    throw new ConfigError(
      "PAYMENT_SANDBOX_HOST and PAYMENT_SANDBOX_PORT are both set: the sandbox is served either on the site's port under its own host name or on a port of its own; unset one",
    );
  }
  const siteHosts = ['localhost', '127.0.0.1', ...(e.PUBLIC_URL ? [new URL(e.PUBLIC_URL).hostname] : [])];
  if (e.PAYMENT_SANDBOX_HOST && siteHosts.includes(e.PAYMENT_SANDBOX_HOST)) {
    throw new ConfigError(
      `PAYMENT_SANDBOX_HOST is ${e.PAYMENT_SANDBOX_HOST}, one of the site's own host names: give the sandbox a name of its own, such as sandbox-pay.localhost`,
    );
  }
  if (e.PAYMENT_SANDBOX_HOST && e.PORT === 0 && !e.PAYMENT_SANDBOX_URL) {
    throw new ConfigError(
      "PAYMENT_SANDBOX_HOST needs the site's port to make the sandbox's address: set PORT, or PAYMENT_SANDBOX_URL to its public origin",
    );
  }
  // Redis means several instances, which the embedded database cannot serve: one line says why.
  if (e.REDIS_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Refusing to start: REDIS_URL is set (several instances) but DATABASE_URL is not, and the embedded database serves one instance only: set DATABASE_URL to the PostgreSQL server the instances share, or unset REDIS_URL',
    );
  }
  // Stripe's keys come together: a secret key without the webhook secret would take payments it never hears about.
  const stripeKeys = {
    STRIPE_SECRET_KEY: e.STRIPE_SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: e.STRIPE_PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: e.STRIPE_WEBHOOK_SECRET,
  };
  const missingStripe = Object.entries(stripeKeys)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missingStripe.length > 0 && missingStripe.length < 3) {
    throw new ConfigError(
      `Invalid configuration:\n${missingStripe.map((name) => `  ${name}: required with the other Stripe keys (set all three or none)`).join('\n')}`,
    );
  }
  // A bucket without the way to reach it would fail at the first upload rather than at start.
  const s3Given = {
    S3_ENDPOINT: e.S3_ENDPOINT,
    S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY,
  };
  if (!e.S3_BUCKET && Object.values(s3Given).some(Boolean)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_BUCKET: required with the other S3_ settings (unset them all to keep uploads in DATA_DIR/uploads)',
    );
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      `Invalid configuration:\n  ${e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: required with the other S3 key (set both, or neither to use the machine's own credentials)`,
    );
  }
  if (Boolean(e.FACEBOOK_PAGE_ID) !== Boolean(e.FACEBOOK_PAGE_TOKEN)) {
    throw new ConfigError(
      `Invalid configuration:\n  ${e.FACEBOOK_PAGE_ID ? 'FACEBOOK_PAGE_TOKEN' : 'FACEBOOK_PAGE_ID'}: required with the other Facebook setting (set both, or neither to use the local provider)`,
    );
  }
  let fcmAccount: ServiceAccount | undefined;
  if (e.FCM_SERVICE_ACCOUNT) {
    try {
      fcmAccount = serviceAccountOf(e.FCM_SERVICE_ACCOUNT);
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  FCM_SERVICE_ACCOUNT: ${(error as Error).message}`);
    }
  }
  const appSecret = e.APP_SECRET ?? developmentSecret(dataDir);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    instanceName: e.INSTANCE_NAME ?? `${os.hostname()}:${process.pid}`,
    appSecret,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD ?? DEMO_ADMIN_PASSWORD,
    demoData: e.DEMO_DATA ?? e.NODE_ENV !== 'production',
    publicUrl: e.PUBLIC_URL,
    logLevel: e.LOG_LEVEL,
    passwordHashing: e.PASSWORD_HASHING ?? (e.NODE_ENV === 'test' ? 'fast' : 'standard'),
    trustProxy: e.TRUST_PROXY,
    site: {
      brandName: e.BRAND_NAME,
      brandSlug: brandSlug(e.BRAND_NAME),
      gtmId: e.GTM_ID,
      chatUrl: e.CHAT_URL,
      supportEmail: e.SUPPORT_EMAIL,
      supportPhone: e.SUPPORT_PHONE,
      publicUrl: e.PUBLIC_URL,
    },
    loginLimits: {
      ...LOGIN_LIMITS,
      perIp: { ...LOGIN_LIMITS.perIp, points: e.LOGIN_ATTEMPTS_PER_IP },
      registrations: { ...LOGIN_LIMITS.registrations, points: e.REGISTRATIONS_PER_IP },
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, staffEmail: e.STAFF_EMAIL.toLowerCase(), ...MAIL_RETRY },
    formLimit: { ...FORM_LIMIT, points: e.FORM_SUBMISSIONS_PER_IP },
    newsletterLimit: { ...NEWSLETTER_LIMIT, points: e.NEWSLETTER_SIGNUPS_PER_IP },
    quoteLimit: { ...QUOTE_LIMIT, points: e.QUOTES_PER_IP },
    translationReportLimit: { ...TRANSLATION_REPORT_LIMIT },
    jobs: { heartbeatSeconds: e.JOB_HEARTBEAT_SECONDS, attachmentCleanupSeconds: ATTACHMENT_CLEANUP_SECONDS },
    exports: {
      storage: storageOf('exports'),
      tempDir: path.join(os.tmpdir(), 'tillpoint-exports'),
    },
    push: {
      // Tests never reach Firebase, whatever the environment holds.
      provider: fcmAccount && e.NODE_ENV !== 'test' ? 'fcm' : 'local',
      fcm: fcmAccount ? { account: fcmAccount } : undefined,
      batchSize: e.PUSH_BATCH_SIZE,
      dueSeconds: PUSH_DUE_SECONDS,
    },
    facebook: {
      // Tests never reach Facebook, whatever the environment holds.
      provider: e.FACEBOOK_PAGE_ID && e.FACEBOOK_PAGE_TOKEN && e.NODE_ENV !== 'test' ? 'graph' : 'local',
      graphUrl: e.FACEBOOK_GRAPH_URL.replace(/\/+$/, ''),
      page:
        e.FACEBOOK_PAGE_ID && e.FACEBOOK_PAGE_TOKEN
          ? { id: e.FACEBOOK_PAGE_ID, token: e.FACEBOOK_PAGE_TOKEN }
          : undefined,
      retry: { ...FACEBOOK_RETRY },
    },
    uploads: {
      storage: storageOf('uploads'),
      maxBytes: e.UPLOAD_MAX_BYTES,
      maxFiles: e.UPLOAD_MAX_FILES,
      maxPixels: e.UPLOAD_MAX_PIXELS,
      concurrency: e.UPLOAD_CONCURRENCY,
      tempDir: path.join(os.tmpdir(), 'tillpoint-uploads'),
    },
    payments: {
      // Tests never reach Stripe, whatever the environment holds.
      provider: e.STRIPE_SECRET_KEY && e.NODE_ENV !== 'test' ? 'stripe' : 'sandbox',
      sandbox: {
        port: e.PAYMENT_SANDBOX_PORT ?? (e.PORT === 0 ? 0 : Math.min(e.PORT + 1, 65535)),
        host: e.PAYMENT_SANDBOX_HOST,
        url: e.PAYMENT_SANDBOX_URL
          ? new URL(e.PAYMENT_SANDBOX_URL).origin
          : e.PAYMENT_SANDBOX_HOST && `http://${e.PAYMENT_SANDBOX_HOST}:${e.PORT}`,
        webhookSecret:
          e.PAYMENT_SANDBOX_WEBHOOK_SECRET ??
          createHmac('sha256', appSecret).update('payment-sandbox-webhooks').digest('base64url'),
        siteOrigins: listedOrigins(e.PAYMENT_SANDBOX_SITE_ORIGINS ?? '').map((origin) => new URL(origin).origin),
      },
      stripe:
        e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: e.STRIPE_SECRET_KEY,
              publishableKey: e.STRIPE_PUBLISHABLE_KEY,
              webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            }
          : undefined,
    },
  };
}

/** Outside production a secret is generated once and kept in the data folder. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
