import pino, { type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../server/config.ts';
import { JOB_HEARTBEAT_SECONDS, loadConfig, MAIL_RETRY } from '../../server/config.ts';
import { JOB_EXPIRY_SECONDS, jobsSchemaOf } from '../../server/jobs/queue.ts';
import type { Database } from '../../server/database.ts';
import { STAFF_MAIL_JOB } from '../../server/services/forms/forms.ts';
import {
  asRest,
  createTestApp,
  createTestDatabase,
  skipReason,
  TEST_MAIL_RETRY,
  type TestApp,
  uniqueEmail,
  validEnquiry,
  untypedService,
} from './harness.ts';
import { type ReceivedMail, TestSmtpServer } from './smtp.ts';

/**
 * Issue 5: every enquiry and contact form reaches staff by mail through a real SMTP server, once,
 * even when the server refuses or is down for a while, and across a restart of the app.
 */

const MAIL_FROM = 'Tillpoint Forms <forms@tillpoint.test>';
const STAFF_EMAIL = 'desk@tillpoint.test';
const SMTP_USER = { user: 'staff-mailer', password: 'p@ss word' };

type Submission = { _id: string; [key: string]: unknown };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` answers something truthy. */
async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe.skipIf(skipReason)('staff mail over SMTP', () => {
  let smtp: TestSmtpServer;
  let database: Database;
  let app: TestApp;
  let config: Partial<Config>;
  let ip = 0;

  /** The app as configured from the environment: SMTP_URL, MAIL_FROM and STAFF_EMAIL. */
  const startApp = (logger?: Logger) => createTestApp(config, { database, logger });
  /** Stops the app (as a server stops: jobs being worked are finished) and starts a new one on the same database. */
  async function restart(): Promise<void> {
    await app.close();
    app = await startApp();
  }

  async function submit(service: 'contactForms' | 'enquiries', data: object): Promise<Submission> {
    const params = { ...asRest(), ip: `10.5.0.${++ip}` };
    return (await untypedService(app.api, service).create(data, params)) as Submission;
  }
  const jobOf = async (record: Submission) => (await app.api.jobs.find(STAFF_MAIL_JOB, { id: record._id }))[0];

  /**
   * The one mail about a record: its job has completed (so no attempt is left to come) and the
   * server holds exactly one mail naming the record.
   */
  async function deliveredOnce(record: Submission): Promise<ReceivedMail> {
    const job = await eventually(async () => {
      const found = await jobOf(record);
      return found?.state === 'completed' && found;
    }, 'the mail job to complete');
    const mails = smtp.about(`Record id: ${record._id}`);
    expect(mails, `mails about ${record._id} (job retried ${job.retryCount} times)`).toHaveLength(1);
    return mails[0]!;
  }

  beforeAll(async () => {
    smtp = await TestSmtpServer.start(SMTP_USER);
    const env = loadConfig({
      APP_SECRET: 'test-secret-that-is-long-enough-for-hs256-000',
      SMTP_URL: smtp.url,
      MAIL_FROM,
      STAFF_EMAIL,
    });
    config = { mail: { ...env.mail, ...TEST_MAIL_RETRY } };
    database = await createTestDatabase();
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await smtp?.stop();
  });

  it('mails a contact form to STAFF_EMAIL from MAIL_FROM, signed in as SMTP_URL says, once', async () => {
    const email = uniqueEmail('ken');
    const created = await submit('contactForms', {
      name: 'Ken Lee',
      phone: '+65 8123 4567',
      email,
      companyName: 'Lee Hardware',
    });
    const mail = await deliveredOnce(created);
    expect(mail).toMatchObject({ from: 'forms@tillpoint.test', to: [STAFF_EMAIL], user: SMTP_USER.user });
    expect(mail.headers).toMatchObject({
      from: MAIL_FROM,
      to: STAFF_EMAIL,
      subject: 'Tillpoint: Contact form from Ken Lee (Lee Hardware)',
    });
    for (const line of [
      'Name: Ken Lee',
      'Phone number: +65 8123 4567',
      `Email: ${email}`,
      'Company name: Lee Hardware',
    ])
      expect(mail.text).toContain(line);
    expect(mail.html).toContain('<td style="white-space:pre-wrap">Lee Hardware</td>');
    // With SMTP_URL set nothing is kept in the outbox.
    expect(Number(((await app.database.knex('outbox').count({ n: '*' }).first()) as { n: unknown }).n)).toBe(0);
  });

  it('mails an enquiry with every answer, in UTF-8, once', async () => {
    const email = uniqueEmail('mei');
    const created = await submit('enquiries', {
      ...validEnquiry(email),
      companyName: '陳記麵家',
      companyWebsite: 'https://chan-noodles.example',
      customFeatures: 'Split bills by seat',
    });
    const mail = await deliveredOnce(created);
    expect(mail).toMatchObject({ from: 'forms@tillpoint.test', to: [STAFF_EMAIL] });
    expect(mail.headers.subject).toBe('Tillpoint: Enquiry from Mei Chan (陳記麵家)');
    for (const line of [
      'Salutation: Ms.',
      'First name: Mei',
      'Last name: Chan',
      'Company name: 陳記麵家',
      'Are you an existing customer?: New customer',
      'Business type: Restaurant',
      'Plan needed: restaurant-flexi',
      'Company website: https://chan-noodles.example',
      'How may we contact you?: Email, Phone',
      `Email: ${email}`,
      'Country code: +852',
      'Phone number: 9123 4567',
      'Tell us what you need: Two shops, one kitchen display each.',
      'Custom features you would like: Split bills by seat',
      'Advanced features of interest: kds',
      'What would you like?: Free demonstration',
      'I have read and agree to the Personal Information Collection Statement.: Yes',
    ]) {
      expect(mail.text).toContain(line);
    }
    expect(mail.html).toContain('陳記麵家');
  });

  it('retries when the SMTP server refuses (451), and the mail arrives once', async () => {
    smtp.refuse(2);
    const before = smtp.attempts;
    const created = await submit('contactForms', {
      name: 'Refused Twice',
      phone: '91234567',
      email: uniqueEmail('refused'),
      companyName: 'Slow Mail Ltd',
    });
    await deliveredOnce(created);
    expect(smtp.attempts - before).toBe(3);
    expect((await jobOf(created))?.retryCount).toBe(2);
  });

  it('retries while the SMTP server is down, and the mail arrives once it is back', async () => {
    await smtp.stop();
    try {
      const created = await submit('contactForms', {
        name: 'Server Down',
        phone: '91234567',
        email: uniqueEmail('down'),
        companyName: 'Down Ltd',
      });
      const failed = await eventually(async () => {
        const job = await jobOf(created);
        return job && job.retryCount >= 1 && job;
      }, 'a failed attempt');
      expect(failed.state).not.toBe('completed');
      expect(smtp.about(created._id)).toEqual([]);
      await smtp.listen();
      await deliveredOnce(created);
    } finally {
      await smtp.listen();
    }
  });

  it('sends the mail of a submission made just before the app stopped, once (by the stopped app or the next)', async () => {
    const created = await submit('enquiries', validEnquiry(uniqueEmail('stopped')));
    await restart();
    await deliveredOnce(created);
  });

  it('sends a mail refused before a restart from the next app on the same database, once', async () => {
    smtp.refuse(Number.POSITIVE_INFINITY);
    try {
      const created = await submit('contactForms', {
        name: 'Across Restart',
        phone: '91234567',
        email: uniqueEmail('restart'),
        companyName: 'Restart Ltd',
      });
      await eventually(async () => ((await jobOf(created))?.retryCount ?? 0) >= 1, 'a refused attempt');
      await app.close();
      smtp.refuse(0);
      app = await startApp();
      await deliveredOnce(created);
    } finally {
      smtp.refuse(0);
    }
  });

  it('finishes a delivery under way when the app stops, and the next app does not send it again', async () => {
    smtp.hold(1_000);
    try {
      const before = smtp.attempts;
      const created = await submit('contactForms', {
        name: 'Mid Delivery',
        phone: '91234567',
        email: uniqueEmail('mid'),
        companyName: 'Mid Ltd',
      });
      await eventually(() => smtp.attempts > before, 'the delivery to start');
      await restart();
      await deliveredOnce(created);
      // The next app polls at least once in this time; the completed job stays completed.
      await sleep(1_100);
      expect(smtp.about(created._id)).toHaveLength(1);
    } finally {
      smtp.hold(0);
    }
  });

  it('gives up after the last retry and logs an error naming the record, once', async () => {
    const testing = config;
    const lines: { level: number; msg: string; data?: { id?: string }; attempts?: number }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    config = { mail: { ...testing.mail!, retryLimit: 2 } };
    try {
      await app.close();
      app = await startApp(logger);
      smtp.refuse(3);
      const created = await submit('contactForms', {
        name: 'Never Delivered',
        phone: '91234567',
        email: uniqueEmail('never'),
        companyName: 'Lost Mail Ltd',
      });
      const job = await eventually(async () => {
        const found = await jobOf(created);
        return found?.state === 'failed' && found;
      }, 'the mail job to fail');
      expect(job.retryCount).toBe(2);
      expect(smtp.about(created._id)).toEqual([]);
      expect(lines.filter((line) => line.level === 40 && line.msg === 'job failed; it will be retried')).toHaveLength(
        2,
      );
      const errors = lines.filter((line) => line.level === 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        msg: 'job failed on its last attempt; it will not be retried',
        data: { id: created._id },
        attempts: 3,
      });
    } finally {
      config = testing;
      await restart();
    }
  });

  it('keeps the retry settings of the configuration in the queue, also when they change', async () => {
    const queue = async () =>
      (await app.database
        .knex(`${jobsSchemaOf(app.database.knex)}.queue`)
        .where({ name: STAFF_MAIL_JOB })
        .first(
          'retry_limit',
          'retry_delay',
          'retry_delay_max',
          'retry_backoff',
          'expire_seconds',
          'heartbeat_seconds',
        )) as Record<string, unknown>;
    expect(await queue()).toEqual({
      retry_limit: 10,
      retry_delay: 0,
      retry_delay_max: 0,
      retry_backoff: true,
      expire_seconds: JOB_EXPIRY_SECONDS,
      heartbeat_seconds: JOB_HEARTBEAT_SECONDS,
    });
    const testing = config;
    config = { mail: { ...testing.mail!, ...MAIL_RETRY } };
    try {
      await restart();
      expect(await queue()).toEqual({
        retry_limit: 10,
        retry_delay: 30,
        retry_delay_max: 3600,
        retry_backoff: true,
        expire_seconds: JOB_EXPIRY_SECONDS,
        heartbeat_seconds: JOB_HEARTBEAT_SECONDS,
      });
    } finally {
      config = testing;
      await restart();
    }
  });
});
