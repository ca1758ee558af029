import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, envSchema, FACEBOOK_RETRY, loadConfig, MAIL_RETRY, unsharedFilesWarning } from './config.ts';

const SECRET = 'a-test-secret-that-is-long-enough-000000';
/** What a production start needs besides APP_SECRET. */
const ADMIN_PASSWORD = 'Strong-Admin-2026';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tillpoint-config-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** The ConfigError that loading this environment throws. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has a default for everything a local demo needs', () => {
    const config = loadConfig({ APP_SECRET: SECRET });
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      dataDir: path.resolve('data'),
      redisUrl: undefined,
      appSecret: SECRET,
      adminEmail: 'admin@tillpoint.test',
      adminPassword: 'Admin12345',
      demoData: true,
      publicUrl: undefined,
      logLevel: 'info',
      trustProxy: undefined,
    });
  });

  it('reads the environment it is given', () => {
    const config = loadConfig({
      APP_SECRET: SECRET,
      PORT: '8080',
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/tillpoint',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ADMIN_EMAIL: 'Boss@Example.com',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/tillpoint',
      redisUrl: 'redis://127.0.0.1:6379',
      adminEmail: 'boss@example.com',
      demoData: false,
      logLevel: 'warn',
    });
  });

  it('refuses Redis (several instances) on the embedded database, saying why in one line', () => {
    const error = configError({ APP_SECRET: SECRET, REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(
      /^Refusing to start: REDIS_URL is set .* DATABASE_URL is not, and the embedded database serves one instance only/,
    );
  });

  it('names the instance from INSTANCE_NAME, else from the host and the process', () => {
    expect(loadConfig({ APP_SECRET: SECRET, INSTANCE_NAME: 'web-2' }).instanceName).toBe('web-2');
    expect(loadConfig({ APP_SECRET: SECRET }).instanceName).toBe(`${os.hostname()}:${process.pid}`);
    expect(configError({ APP_SECRET: SECRET, INSTANCE_NAME: 'two words' }).message).toMatch(/\n {2}INSTANCE_NAME: \S/);
  });

  it('treats an empty variable as absent', () => {
    expect(loadConfig({ APP_SECRET: SECRET, PORT: '', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
    });
  });

  it('posts to Facebook through the Graph API only with a page and its token, never in tests', () => {
    const page = { FACEBOOK_PAGE_ID: '104220000000001', FACEBOOK_PAGE_TOKEN: 'EAAB-page-token' };
    expect(loadConfig({ APP_SECRET: SECRET }).facebook).toEqual({
      provider: 'local',
      graphUrl: 'https://graph.facebook.com/v21.0',
      page: undefined,
      retry: FACEBOOK_RETRY,
    });
    expect(loadConfig({ APP_SECRET: SECRET, NODE_ENV: 'development', ...page }).facebook).toMatchObject({
      provider: 'graph',
      page: { id: '104220000000001', token: 'EAAB-page-token' },
    });
    expect(loadConfig({ APP_SECRET: SECRET, NODE_ENV: 'test', ...page }).facebook.provider).toBe('local');
    expect(configError({ APP_SECRET: SECRET, FACEBOOK_PAGE_ID: '104220000000001' }).message).toMatch(
      /^Invalid configuration:\n {2}FACEBOOK_PAGE_TOKEN: required/,
    );
    expect(configError({ APP_SECRET: SECRET, ...page, FACEBOOK_PAGE_ID: 'tillpoint' }).message).toMatch(
      /FACEBOOK_PAGE_ID: a Facebook page id is digits/,
    );
  });

  it('accepts port 0 (the system picks a free port)', () => {
    expect(loadConfig({ APP_SECRET: SECRET, PORT: '0' }).port).toBe(0);
  });

  it.each(['abc', '-1', '65536', '80.5'])('refuses PORT=%s with a message naming the variable', (port) => {
    const error = configError({ APP_SECRET: SECRET, PORT: port });
    expect(error.message).toMatch(/^Invalid configuration:\n {2}PORT: \S/);
  });

  it('takes the per-address limits of sign-ins and form submissions from the environment', () => {
    const defaults = loadConfig({ APP_SECRET: SECRET });
    expect(defaults.loginLimits.perIp.points).toBe(30);
    expect(defaults.loginLimits.registrations).toMatchObject({ points: 10, duration: 3600 });
    expect(defaults.formLimit).toMatchObject({ points: 10, duration: 600 });
    const raised = loadConfig({
      APP_SECRET: SECRET,
      LOGIN_ATTEMPTS_PER_IP: '200',
      FORM_SUBMISSIONS_PER_IP: '50',
      REGISTRATIONS_PER_IP: '40',
    });
    expect(raised.loginLimits.perIp.points).toBe(200);
    expect(raised.loginLimits.registrations).toMatchObject({ points: 40, duration: 3600 });
    expect(raised.formLimit).toMatchObject({ points: 50, duration: 600 });
    expect(configError({ APP_SECRET: SECRET, FORM_SUBMISSIONS_PER_IP: '0' }).message).toMatch(
      /\n {2}FORM_SUBMISSIONS_PER_IP: \S/,
    );
    expect(defaults.newsletterLimit).toMatchObject({ points: 20, duration: 600 });
    expect(loadConfig({ APP_SECRET: SECRET, NEWSLETTER_SIGNUPS_PER_IP: '500' }).newsletterLimit).toMatchObject({
      points: 500,
      duration: 600,
    });
    expect(configError({ APP_SECRET: SECRET, NEWSLETTER_SIGNUPS_PER_IP: 'many' }).message).toMatch(
      /\n {2}NEWSLETTER_SIGNUPS_PER_IP: \S/,
    );
    expect(defaults.quoteLimit).toMatchObject({ points: 300, duration: 600 });
    expect(loadConfig({ APP_SECRET: SECRET, QUOTES_PER_IP: '1000' }).quoteLimit).toMatchObject({
      points: 1000,
      duration: 600,
    });
    expect(configError({ APP_SECRET: SECRET, QUOTES_PER_IP: '0' }).message).toMatch(/\n {2}QUOTES_PER_IP: \S/);
  });

  it('names every bad variable at once', () => {
    const error = configError({ APP_SECRET: SECRET, PORT: 'abc', DATABASE_URL: 'mysql://db', LOG_LEVEL: 'loud' });
    expect(error.message).toContain('\n  PORT: ');
    expect(error.message).toContain('\n  DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(error.message).toContain('\n  LOG_LEVEL: ');
  });

  describe('APP_SECRET in production', () => {
    it('is required', () => {
      const error = configError({ NODE_ENV: 'production', PAYMENT_SANDBOX: '1', ADMIN_PASSWORD, DATA_DIR: dataDir });
      expect(error.message).toBe('Invalid configuration:\n  APP_SECRET: required in production (32+ characters)');
      expect(existsSync(path.join(dataDir, 'app-secret'))).toBe(false);
    });

    it('must be at least 32 characters', () => {
      const error = configError({
        NODE_ENV: 'production',
        PAYMENT_SANDBOX: '1',
        APP_SECRET: 'short',
        DATA_DIR: dataDir,
      });
      expect(error.message).toContain('APP_SECRET: must be at least 32 characters');
    });

    it('is used as given and never written to disk', () => {
      const config = loadConfig({
        NODE_ENV: 'production',
        PAYMENT_SANDBOX: '1',
        APP_SECRET: SECRET,
        ADMIN_PASSWORD,
        DATA_DIR: dataDir,
      });
      expect(config.appSecret).toBe(SECRET);
      expect(existsSync(path.join(dataDir, 'app-secret'))).toBe(false);
    });
  });

  describe('the first admin and the demo accounts in production', () => {
    const production = { NODE_ENV: 'production', PAYMENT_SANDBOX: '1', APP_SECRET: SECRET, DATA_DIR: dataDir };
    const RULES = 'minimum 8 characters, at least 1 number, at least 1 lower-case letter, at least 1 upper-case letter';

    it('requires ADMIN_PASSWORD rather than falling back to the published one', () => {
      expect(configError(production).message).toBe(
        `Invalid configuration:\n  ADMIN_PASSWORD: required in production (the first admin's password: ${RULES})`,
      );
    });

    it.each([
      ['Short1a', 'minimum 8 characters'],
      ['adminadmin', 'at least 1 number, at least 1 upper-case letter'],
      ['ADMIN12345', 'at least 1 lower-case letter'],
      ['Administrator', 'at least 1 number'],
    ])('refuses ADMIN_PASSWORD=%s, naming the rules it breaks without echoing it', (password, broken) => {
      const error = configError({ ...production, ADMIN_PASSWORD: password });
      expect(error.message).toBe(`Invalid configuration:\n  ADMIN_PASSWORD: must follow the password rules: ${broken}`);
      expect(error.message).not.toContain(password);
    });

    it('creates no demo accounts when DEMO_DATA is unset, and refuses DEMO_DATA=true', () => {
      const config = loadConfig({ ...production, ADMIN_PASSWORD });
      expect(config).toMatchObject({ adminPassword: ADMIN_PASSWORD, demoData: false });
      expect(loadConfig({ ...production, ADMIN_PASSWORD, DEMO_DATA: 'false' }).demoData).toBe(false);
      expect(configError({ ...production, ADMIN_PASSWORD, DEMO_DATA: 'true' }).message).toBe(
        "Invalid configuration:\n  DEMO_DATA: refused in production (the demo accounts' passwords are published): unset it or set false",
      );
    });

    it('names APP_SECRET, ADMIN_PASSWORD and DEMO_DATA at once', () => {
      const error = configError({ NODE_ENV: 'production', PAYMENT_SANDBOX: '1', DEMO_DATA: 'true', DATA_DIR: dataDir });
      expect(
        error.message
          .split('\n')
          .slice(1)
          .map((line) => line.split(':')[0]?.trim()),
      ).toEqual(['APP_SECRET', 'ADMIN_PASSWORD', 'DEMO_DATA']);
    });
  });

  describe('the first admin and the demo accounts outside production', () => {
    it('keeps the README demo: the published admin password and the demo accounts', () => {
      for (const NODE_ENV of ['development', 'test']) {
        expect(loadConfig({ NODE_ENV, APP_SECRET: SECRET })).toMatchObject({
          adminPassword: 'Admin12345',
          demoData: true,
        });
      }
      expect(loadConfig({ APP_SECRET: SECRET, DEMO_DATA: 'false' }).demoData).toBe(false);
    });

    it('holds ADMIN_PASSWORD to the password rules there too', () => {
      expect(loadConfig({ APP_SECRET: SECRET, ADMIN_PASSWORD }).adminPassword).toBe(ADMIN_PASSWORD);
      expect(configError({ APP_SECRET: SECRET, ADMIN_PASSWORD: 'password' }).message).toBe(
        'Invalid configuration:\n  ADMIN_PASSWORD: must follow the password rules: at least 1 number, at least 1 upper-case letter',
      );
    });
  });

  describe('APP_SECRET outside production', () => {
    it('is generated once and kept in DATA_DIR', () => {
      const first = loadConfig({ DATA_DIR: dataDir });
      expect(first.appSecret).toMatch(/^[\w-]{64}$/);
      const file = path.join(dataDir, 'app-secret');
      expect(readFileSync(file, 'utf8')).toBe(first.appSecret);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(loadConfig({ DATA_DIR: dataDir }).appSecret).toBe(first.appSecret);
    });

    it('creates DATA_DIR when it does not exist', () => {
      const nested = path.join(dataDir, 'not', 'yet');
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: nested });
      expect(readFileSync(path.join(nested, 'app-secret'), 'utf8')).toBe(config.appSecret);
    });

    it('differs between data folders', () => {
      const other = path.join(dataDir, 'other');
      expect(loadConfig({ DATA_DIR: dataDir }).appSecret).not.toBe(loadConfig({ DATA_DIR: other }).appSecret);
    });

    it('prefers APP_SECRET when it is set', () => {
      expect(loadConfig({ APP_SECRET: SECRET, DATA_DIR: dataDir }).appSecret).toBe(SECRET);
      expect(existsSync(path.join(dataDir, 'app-secret'))).toBe(false);
    });
  });

  describe('staff mail: SMTP_URL, MAIL_FROM, STAFF_EMAIL', () => {
    it('defaults to the outbox, the Tillpoint no-reply sender and the sales desk, with the production retries', () => {
      expect(loadConfig({ APP_SECRET: SECRET }).mail).toEqual({
        smtpUrl: undefined,
        from: 'Tillpoint <no-reply@tillpoint.example>',
        staffEmail: 'sales@tillpoint.example',
        ...MAIL_RETRY,
      });
      expect(MAIL_RETRY).toEqual({ retryLimit: 10, retryDelay: 30, retryDelayMax: 3600 });
    });

    it('treats empty values as unset', () => {
      expect(loadConfig({ APP_SECRET: SECRET, SMTP_URL: '', MAIL_FROM: '', STAFF_EMAIL: '' }).mail).toMatchObject({
        smtpUrl: undefined,
        from: 'Tillpoint <no-reply@tillpoint.example>',
        staffEmail: 'sales@tillpoint.example',
      });
    });

    it.each([
      'smtp://127.0.0.1:2525',
      'smtp://mail.example.com',
      'smtps://mailer:s3cret@mail.example.com:465',
      'smtp://mailer%40example.com:p%40ss%20word@mail.example.com:587',
      'smtp://[::1]:25',
    ])('accepts SMTP_URL=%s as given', (url) => {
      expect(loadConfig({ APP_SECRET: SECRET, SMTP_URL: url }).mail.smtpUrl).toBe(url);
    });

    it.each([
      ['another scheme', 'http://mail.example.com'],
      ['no scheme', 'mail.example.com:587'],
      ['no host', 'smtp://'],
      ['no host, only a port', 'smtp://:587'],
      ['a space', 'smtp://mail.example.com :587'],
      ['a port out of range', 'smtp://mail.example.com:99999'],
      ['an unencoded # in the password', 'smtp://mailer:pa#ss@mail.example.com:587'],
    ])('refuses SMTP_URL with %s, naming the variable without echoing its value', (_case, url) => {
      const error = configError({ APP_SECRET: SECRET, SMTP_URL: url });
      expect(error.message).toBe(
        'Invalid configuration:\n  SMTP_URL: must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@mail.example.com:587 (percent-encode special characters)',
      );
    });

    it.each([
      ['no-reply@tillpoint.hk', 'no-reply@tillpoint.hk'],
      ['Tillpoint HK <no-reply@tillpoint.hk>', 'Tillpoint HK <no-reply@tillpoint.hk>'],
      ['"Tillpoint, Sales" <sales@tillpoint.hk>', '"Tillpoint, Sales" <sales@tillpoint.hk>'],
      ['陳記 <hello@chan.hk>', '陳記 <hello@chan.hk>'],
      ['  Tillpoint <no-reply@tillpoint.hk>  ', 'Tillpoint <no-reply@tillpoint.hk>'],
    ])('accepts MAIL_FROM=%s', (from, expected) => {
      expect(loadConfig({ APP_SECRET: SECRET, MAIL_FROM: from }).mail.from).toBe(expected);
    });

    it.each([
      'no-reply',
      'no-reply@tillpoint',
      'Tillpoint no-reply@tillpoint.hk',
      'Tillpoint <no-reply>',
      '<no-reply@tillpoint.hk>',
      'a@b.hk, c@d.hk',
      `${'x'.repeat(81)} <a@b.hk>`,
    ])('refuses MAIL_FROM=%s with a clear message', (from) => {
      expect(configError({ APP_SECRET: SECRET, MAIL_FROM: from }).message).toBe(
        'Invalid configuration:\n  MAIL_FROM: must be an address, or a name and <address>, e.g. Tillpoint <no-reply@example.com>',
      );
    });

    it('takes STAFF_EMAIL in lower case', () => {
      expect(loadConfig({ APP_SECRET: SECRET, STAFF_EMAIL: 'Desk@Tillpoint.HK' }).mail.staffEmail).toBe(
        'desk@tillpoint.hk',
      );
    });

    it.each(['sales', 'sales@', '@tillpoint.hk', 'Sales <sales@tillpoint.hk>', 'a@tillpoint.hk, b@tillpoint.hk'])(
      'refuses STAFF_EMAIL=%s with a clear message',
      (email) => {
        expect(configError({ APP_SECRET: SECRET, STAFF_EMAIL: email }).message).toBe(
          'Invalid configuration:\n  STAFF_EMAIL: must be one email address',
        );
      },
    );

    it('names all three at once', () => {
      const error = configError({
        APP_SECRET: SECRET,
        SMTP_URL: 'mail.example.com',
        MAIL_FROM: 'nobody',
        STAFF_EMAIL: 'desk',
      });
      expect(
        error.message
          .split('\n')
          .slice(1)
          .map((line) => line.split(':')[0]?.trim()),
      ).toEqual(['SMTP_URL', 'MAIL_FROM', 'STAFF_EMAIL']);
    });
  });

  describe('payments: Stripe or the sandbox gateway', () => {
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
    };

    it('uses the sandbox on the next port by default, its webhook secret derived from APP_SECRET', () => {
      const { payments } = loadConfig({ APP_SECRET: SECRET, PORT: '4000' });
      expect(payments).toMatchObject({
        provider: 'sandbox',
        sandbox: { port: 4001, url: undefined, siteOrigins: [] },
        stripe: undefined,
      });
      expect(payments.sandbox.webhookSecret).toHaveLength(43);
      expect(payments.sandbox.webhookSecret).toBe(loadConfig({ APP_SECRET: SECRET }).payments.sandbox.webhookSecret);
      expect(payments.sandbox.webhookSecret).not.toBe(
        loadConfig({ APP_SECRET: `${SECRET}x` }).payments.sandbox.webhookSecret,
      );
      expect(loadConfig({ APP_SECRET: SECRET, PORT: '0' }).payments.sandbox.port).toBe(0);
    });

    it('reads the sandbox settings', () => {
      const { payments } = loadConfig({
        APP_SECRET: SECRET,
        PAYMENT_SANDBOX_PORT: '4555',
        PAYMENT_SANDBOX_URL: 'https://pay-sandbox.example.com/',
        PAYMENT_SANDBOX_WEBHOOK_SECRET: 'w'.repeat(32),
        PAYMENT_SANDBOX_SITE_ORIGINS: 'https://demo.example.com, http://127.0.0.1:4100/',
      });
      expect(payments.sandbox).toEqual({
        port: 4555,
        host: undefined,
        url: 'https://pay-sandbox.example.com',
        webhookSecret: 'w'.repeat(32),
        siteOrigins: ['https://demo.example.com', 'http://127.0.0.1:4100'],
      });
      expect(
        configError({
          APP_SECRET: SECRET,
          PAYMENT_SANDBOX_URL: 'ftp://x.example',
          PAYMENT_SANDBOX_WEBHOOK_SECRET: 'short',
        }).message,
      ).toMatch(
        /PAYMENT_SANDBOX_URL: must be an http:\/\/ or https:\/\/ origin\n {2}PAYMENT_SANDBOX_WEBHOOK_SECRET: must be at least 32 characters/,
      );
      for (const origins of ['https://demo.example.com/shop', 'ftp://x.example', 'https://a.example,not a url']) {
        expect(configError({ APP_SECRET: SECRET, PAYMENT_SANDBOX_SITE_ORIGINS: origins }).message, origins).toMatch(
          /PAYMENT_SANDBOX_SITE_ORIGINS/,
        );
      }
    });

    it("serves the sandbox on the site's port under a host name of its own, when asked", () => {
      const { sandbox } = loadConfig({
        APP_SECRET: SECRET,
        PORT: '4100',
        PAYMENT_SANDBOX_HOST: 'Sandbox-Pay.Localhost',
      }).payments;
      expect(sandbox.host).toBe('sandbox-pay.localhost');
      expect(sandbox.url).toBe('http://sandbox-pay.localhost:4100');
      // Behind a proxy, its public origin is the one configured.
      expect(
        loadConfig({
          APP_SECRET: SECRET,
          PAYMENT_SANDBOX_HOST: 'pay-sandbox.example.com',
          PAYMENT_SANDBOX_URL: 'https://pay-sandbox.example.com',
        }).payments.sandbox.url,
      ).toBe('https://pay-sandbox.example.com');
      expect(configError({ APP_SECRET: SECRET, PAYMENT_SANDBOX_HOST: 'pay_box!' }).message).toMatch(
        /PAYMENT_SANDBOX_HOST: must be a host name, such as sandbox-pay\.localhost/,
      );
      expect(
        configError({ APP_SECRET: SECRET, PAYMENT_SANDBOX_HOST: 'sandbox-pay.localhost', PAYMENT_SANDBOX_PORT: '4555' })
          .message,
      ).toMatch(/PAYMENT_SANDBOX_HOST and PAYMENT_SANDBOX_PORT are both set/);
      expect(
        configError({ APP_SECRET: SECRET, PAYMENT_SANDBOX_HOST: 'sandbox-pay.localhost', PORT: '0' }).message,
      ).toMatch(/PAYMENT_SANDBOX_HOST needs the site's port/);
      for (const own of ['localhost', '127.0.0.1']) {
        expect(configError({ APP_SECRET: SECRET, PAYMENT_SANDBOX_HOST: own }).message, own).toMatch(
          /one of the site's own host names/,
        );
      }
      expect(
        configError({
          APP_SECRET: SECRET,
          PUBLIC_URL: 'https://shop.example.com',
          PAYMENT_SANDBOX_HOST: 'shop.example.com',
        }).message,
      ).toMatch(/one of the site's own host names/);
    });

    it('uses Stripe when its three keys are set, outside tests', () => {
      const { payments } = loadConfig({ APP_SECRET: SECRET, ...stripe });
      expect(payments.provider).toBe('stripe');
      expect(payments.stripe).toEqual({
        secretKey: 'sk_test_abc123',
        publishableKey: 'pk_test_abc123',
        webhookSecret: 'whsec_abc123',
      });
      expect(loadConfig({ APP_SECRET: SECRET, NODE_ENV: 'test', ...stripe }).payments.provider).toBe('sandbox');
    });

    it('refuses some of the Stripe keys without the others, and keys of the wrong kind', () => {
      expect(configError({ APP_SECRET: SECRET, STRIPE_SECRET_KEY: stripe.STRIPE_SECRET_KEY }).message).toBe(
        'Invalid configuration:\n  STRIPE_PUBLISHABLE_KEY: required with the other Stripe keys (set all three or none)\n  STRIPE_WEBHOOK_SECRET: required with the other Stripe keys (set all three or none)',
      );
      expect(configError({ APP_SECRET: SECRET, ...stripe, STRIPE_SECRET_KEY: 'pk_test_abc' }).message).toContain(
        'STRIPE_SECRET_KEY: must look like sk_test_',
      );
    });

    it('refuses to start production without Stripe unless PAYMENT_SANDBOX=1 says the sandbox is meant', () => {
      const production = { NODE_ENV: 'production', APP_SECRET: SECRET, ADMIN_PASSWORD, DATA_DIR: dataDir };
      expect(configError(production).message).toBe(
        'Invalid configuration:\n  STRIPE_SECRET_KEY: required in production (with STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET), or PAYMENT_SANDBOX=1 to take no real payments',
      );
      expect(loadConfig({ ...production, PAYMENT_SANDBOX: '1' }).payments.provider).toBe('sandbox');
      expect(loadConfig({ ...production, ...stripe }).payments.provider).toBe('stripe');
    });
  });
});

describe('the documented configuration', () => {
  const root = path.resolve(import.meta.dirname, '..');
  const variables = Object.keys(envSchema.shape);
  /** README's configuration table: variable, default, meaning. */
  const readmeRows = new Map(
    [...readFileSync(path.join(root, 'README.md'), 'utf8').matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]+) \|/gm)].map(
      (match) => [match[1]!, match[2]!.trim()],
    ),
  );

  it('README lists every variable the server reads', () => {
    expect(variables.filter((name) => !readmeRows.has(name))).toEqual([]);
  });

  it('README gives each variable the default the server uses', () => {
    const defaults = envSchema.parse({}) as Record<string, unknown>;
    for (const name of variables) {
      const shown = readmeRows.get(name) ?? '';
      const quoted = /^`(.*)`$/.exec(shown)?.[1];
      if (quoted === undefined) expect(defaults[name], `${name} has no default in README`).toBeUndefined();
      else expect(String(defaults[name]), `${name}'s default in README`).toBe(quoted);
    }
  });

  it('.env.example lists every variable', () => {
    const example = readFileSync(path.join(root, '.env.example'), 'utf8');
    expect(variables.filter((name) => !new RegExp(`^# ${name}=`, 'm').test(example))).toEqual([]);
  });
});

describe('files with several instances', () => {
  const postgres = { APP_SECRET: SECRET, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' };
  it('warns that the data folder must be shared when REDIS_URL is set and files are kept in folders', () => {
    const config = loadConfig({ ...postgres, REDIS_URL: 'redis://127.0.0.1:6379', DATA_DIR: dataDir });
    const warning = unsharedFilesWarning(config);
    expect(warning).toContain(
      `files are kept in ${path.join(dataDir, 'uploads')} and ${path.join(dataDir, 'exports')}`,
    );
    expect(warning).toContain('every instance must share this folder');
    expect(warning).toContain('S3_BUCKET');
  });
  it('says nothing for one instance, or with a bucket', () => {
    expect(unsharedFilesWarning(loadConfig({ ...postgres, DATA_DIR: dataDir }))).toBeNull();
    expect(
      unsharedFilesWarning(
        loadConfig({
          ...postgres,
          REDIS_URL: 'redis://127.0.0.1:6379',
          DATA_DIR: dataDir,
          S3_BUCKET: 'tillpoint-files',
        }),
      ),
    ).toBeNull();
  });
});

describe('upload settings', () => {
  // dataDir is made before each test.
  const base = () => ({ APP_SECRET: SECRET, DATA_DIR: dataDir });

  it('keeps uploads in DATA_DIR/uploads by default, with the documented limits', () => {
    const { uploads } = loadConfig(base());
    expect(uploads.storage).toEqual({ kind: 'folder', root: path.join(dataDir, 'uploads') });
    expect(uploads).toMatchObject({ maxBytes: 20 * 1024 * 1024, maxFiles: 10, maxPixels: 50_000_000, concurrency: 2 });
  });

  it('keeps exports in DATA_DIR/exports by default, and in the bucket when one is named', () => {
    expect(loadConfig(base()).exports.storage).toEqual({ kind: 'folder', root: path.join(dataDir, 'exports') });
    expect(loadConfig({ ...base(), S3_BUCKET: 'tillpoint-files' }).exports.storage).toMatchObject({
      kind: 's3',
      bucket: 'tillpoint-files',
    });
  });

  it('uses a bucket when one is named', () => {
    const { uploads } = loadConfig({
      ...base(),
      S3_BUCKET: 'tillpoint-files',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(uploads.storage).toEqual({
      kind: 's3',
      bucket: 'tillpoint-files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
  });

  it('refuses S3 settings without a bucket, one key without the other, and a bad bucket name, naming each', () => {
    expect(configError({ ...base(), S3_ENDPOINT: 'http://127.0.0.1:9000' }).message).toContain(
      'S3_BUCKET: required with the other S3_ settings',
    );
    expect(configError({ ...base(), S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'key' }).message).toContain(
      'S3_SECRET_ACCESS_KEY: required with the other S3 key',
    );
    expect(configError({ ...base(), S3_BUCKET: 'Not A Bucket' }).message).toContain(
      'S3_BUCKET: must be an S3 bucket name',
    );
    expect(configError({ ...base(), UPLOAD_MAX_FILES: '0' }).message).toContain('UPLOAD_MAX_FILES');
    // The secret is never echoed.
    expect(
      configError({ ...base(), S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 'hunter2-secret' }).message,
    ).not.toContain('hunter2');
  });
});
