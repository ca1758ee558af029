import type { Application } from '@feathersjs/feathers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { safeErrorText } from '../../server/mail/deliveries.ts';
import type { RunningServer } from '../../server/server.ts';
import { startServer } from '../../server/server.ts';
import { STAFF_MAIL_JOB } from '../../server/services/forms/forms.ts';
import {
  asRest,
  createAccount,
  createTestDatabase,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  type SocketClient,
  TEST_MAIL_RETRY,
  testConfig,
  type TestAccount,
  uniqueEmail,
  untypedService,
} from './harness.ts';
import { TestSmtpServer } from './smtp.ts';

/**
 * The mail queue (issue 21, decision 035): a row per mail job that follows it to `sent` or
 * `failed`, read by staff, written by nobody from outside; an admin sends a failed mail again.
 */

const STAFF_EMAIL = 'desk@tillpoint.test';
const SMTP_USER = { user: 'queue-mailer', password: 'queue secret' };

type Delivery = {
  _id: string;
  kind: string;
  recipient: string | null;
  subject: string | null;
  locale: string | null;
  state: string;
  attempts: number;
  lastError: string | null;
  jobId: string;
  sentAt: Date | string | null;
  createdAt: Date | string;
};
type LogLine = { level: number; msg: string; queue?: string; job?: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe.skipIf(skipReason)('mail queue', () => {
  let smtp: TestSmtpServer;
  let server: RunningServer;
  let admin: TestAccount;
  let editor: TestAccount;
  let member: TestAccount;
  const lines: LogLine[] = [];
  const sockets: SocketClient[] = [];
  let ip = 0;

  const deliveries = () => untypedService(server.api, 'mailDeliveries');
  const signedIn = async (account: TestAccount, transport: 'rest' | 'socket' = 'rest'): Promise<Application> => {
    let client: Application;
    if (transport === 'rest') client = restClient(server.url);
    else {
      const s = socketClient(server.url);
      sockets.push(s);
      client = s.client;
    }
    await client.authenticate({ strategy: 'local', email: account.email, password: account.password });
    return client;
  };

  /** Sends a contact form as a visitor; answers its record id and its mail's delivery row. */
  async function submit(name: string): Promise<{ id: string; delivery: () => Promise<Delivery | undefined> }> {
    const params = { ...asRest(), ip: `10.21.0.${++ip}` };
    const created = (await untypedService(server.api, 'contactForms').create(
      { name, phone: '91234567', email: uniqueEmail('queue'), companyName: `${name} Ltd` },
      params,
    )) as {
      _id: string;
    };
    const [job] = await server.api.jobs.find(STAFF_MAIL_JOB, { id: created._id });
    expect(job).toBeDefined();
    const jobId = job?.id ?? '';
    return {
      id: created._id,
      delivery: async () =>
        ((await deliveries().find({ paginate: false, query: { jobId } })) as unknown as Delivery[])[0],
    };
  }
  const inState = (get: () => Promise<Delivery | undefined>, state: string) =>
    eventually(async () => {
      const row = await get();
      return row?.state === state && row;
    }, `the delivery to be ${state}`);

  beforeAll(async () => {
    smtp = await TestSmtpServer.start(SMTP_USER);
    const env = loadConfig({
      APP_SECRET: 'test-secret-that-is-long-enough-for-hs256-000',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Tillpoint <forms@tillpoint.test>',
      STAFF_EMAIL,
    });
    const config = testConfig({ mail: { ...env.mail, ...TEST_MAIL_RETRY, retryLimit: 2 }, logLevel: 'warn' });
    const database = await createTestDatabase();
    server = await startServer(config, {
      database,
      pages: false,
      logDestination: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
    });
    const { knex } = server.database;
    admin = await createAccount(knex, { role: 'admin' });
    editor = await createAccount(knex, { role: 'editor' });
    member = await createAccount(knex, { role: 'member' });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
    await smtp?.stop();
  });

  it('shows a delivered mail as sent, with its recipient, subject, language, attempts and time', async () => {
    const form = await submit('Queue Sent');
    const row = await inState(form.delivery, 'sent');
    expect(row).toMatchObject({
      kind: STAFF_MAIL_JOB,
      recipient: STAFF_EMAIL,
      subject: 'Tillpoint: Contact form from Queue Sent (Queue Sent Ltd)',
      locale: 'en',
      attempts: 1,
      lastError: null,
    });
    expect(row.sentAt).not.toBeNull();
    expect(smtp.about(form.id)).toHaveLength(1);
    // Staff read it from outside, the job's data never.
    const read = (await (await signedIn(editor)).service('mailDeliveries').get(row._id)) as Record<string, unknown>;
    expect(read).toMatchObject({ _id: row._id, state: 'sent' });
    expect(Object.keys(read)).not.toContain('jobData');
    expect(JSON.stringify(read)).not.toContain(form.id);
  });

  it('ends a mail the server always refuses as failed, with its attempts and last error, and still logs it', async () => {
    smtp.refuse(Number.POSITIVE_INFINITY);
    try {
      const form = await submit('Queue Failed');
      const row = await inState(form.delivery, 'failed');
      expect(row).toMatchObject({ attempts: 3, recipient: STAFF_EMAIL, sentAt: null });
      expect(row.lastError).toMatch(/451/);
      expect(row.lastError).not.toContain(SMTP_USER.password);
      expect(row.lastError).not.toMatch(/\n|at .*\.js/);
      expect(smtp.about(form.id)).toEqual([]);
      const last = lines.filter(
        (line) =>
          line.level === 50 &&
          line.msg === 'job failed on its last attempt; it will not be retried' &&
          line.job === row.jobId,
      );
      expect(last).toHaveLength(1);
      expect(lines.filter((line) => line.msg === 'job observer failed')).toEqual([]);
    } finally {
      smtp.refuse(0);
    }
  });

  it('sends a failed mail again when an admin asks, as a new job that is delivered once', async () => {
    smtp.refuse(Number.POSITIVE_INFINITY);
    const form = await submit('Queue Retried');
    const failed = await inState(form.delivery, 'failed');
    smtp.refuse(0);
    const client = await signedIn(admin);
    const answer = (await client.service('mailRetries').create({ delivery: failed._id })) as Delivery;
    expect(answer).toMatchObject({ _id: failed._id, state: 'queued', kind: STAFF_MAIL_JOB });
    expect(answer.jobId).not.toBe(failed.jobId);
    const sent = await inState(async () => (await deliveries().get(failed._id)) as unknown as Delivery, 'sent');
    expect(sent).toMatchObject({ jobId: answer.jobId, attempts: 4 });
    expect(sent.sentAt).not.toBeNull();
    expect(smtp.about(form.id)).toHaveLength(1);
    // One row for the mail, not one per job; and the admin's retry is in the audit log.
    expect(
      ((await deliveries().find({ paginate: false, query: { kind: STAFF_MAIL_JOB } })) as unknown as Delivery[]).filter(
        (row) => row.subject?.includes('Queue Retried'),
      ),
    ).toHaveLength(1);
    const audit = (await untypedService(server.api, 'auditLogs').find({
      paginate: false,
      query: { recordId: failed._id },
    })) as unknown as Record<string, unknown>[];
    expect(audit).toEqual([
      expect.objectContaining({
        user: admin._id,
        service: 'mailDeliveries',
        method: 'patch',
        changes: { state: { before: 'failed', after: 'queued' }, jobId: { before: failed.jobId, after: answer.jobId } },
      }),
    ]);
  });

  it('refuses to send again a mail that did not fail (409), and names a missing one (404)', async () => {
    const form = await submit('Queue Not Failed');
    const row = await inState(form.delivery, 'sent');
    const client = await signedIn(admin);
    const refused = await rejectionOf(client.service('mailRetries').create({ delivery: row._id }));
    expect(refused).toMatchObject({
      code: 409,
      message: 'Only a mail that failed can be sent again.',
      errors: { delivery: 'Only a mail that failed can be sent again.' },
    });
    expect(await rejectionOf(client.service('mailRetries').create({ delivery: 'nothing-here' }))).toMatchObject({
      code: 404,
    });
    expect(
      await rejectionOf(client.service('mailRetries').create({ delivery: row._id, state: 'queued' })),
    ).toMatchObject({ code: 400 });
    expect(((await deliveries().get(row._id)) as unknown as Delivery).state).toBe('sent');
    expect(smtp.about(form.id)).toHaveLength(1);
  });

  it('lets only admins retry: editors and members 403, signed-out callers 401', async () => {
    smtp.refuse(Number.POSITIVE_INFINITY);
    let failed: Delivery;
    try {
      failed = await inState((await submit('Queue Forbidden')).delivery, 'failed');
    } finally {
      smtp.refuse(0);
    }
    for (const account of [editor, member]) {
      expect(
        await rejectionOf((await signedIn(account)).service('mailRetries').create({ delivery: failed._id })),
      ).toMatchObject({ code: 403 });
      expect(
        await rejectionOf((await signedIn(account, 'socket')).service('mailRetries').create({ delivery: failed._id })),
      ).toMatchObject({ code: 403 });
    }
    expect(
      await rejectionOf(restClient(server.url).service('mailRetries').create({ delivery: failed._id })),
    ).toMatchObject({ code: 401 });
    expect((await deliveries().get(failed._id)) as unknown as Delivery).toMatchObject({
      state: 'failed',
      jobId: failed.jobId,
    });
  });

  it('lets staff read the queue, members not, and nobody write it from outside (REST and socket)', async () => {
    const row = await inState((await submit('Queue Locked')).delivery, 'sent');
    expect(await rejectionOf((await signedIn(member)).service('mailDeliveries').find({}))).toMatchObject({ code: 403 });
    for (const transport of ['rest', 'socket'] as const) {
      const client = await signedIn(admin, transport);
      const service = client.service('mailDeliveries');
      expect((await service.find({ query: { state: 'sent', $limit: 100 } })) as { data: unknown[] }).toMatchObject({
        data: expect.arrayContaining([expect.objectContaining({ _id: row._id })]),
      });
      expect(await rejectionOf(service.create({ kind: STAFF_MAIL_JOB, state: 'queued', jobId: 'x' }))).toMatchObject({
        code: 403,
      });
      expect(await rejectionOf(service.patch(row._id, { state: 'failed' }))).toMatchObject({ code: 403 });
      expect(await rejectionOf(service.remove(row._id))).toMatchObject({ code: 403 });
    }
    expect(((await deliveries().get(row._id)) as unknown as Delivery).state).toBe('sent');
  });

  it('shows a mail that had nothing to send as skipped, without a recipient (a reset for an unknown address)', async () => {
    const before = new Set(
      (
        (await deliveries().find({ paginate: false, query: { kind: 'password-reset-mail' } })) as unknown as Delivery[]
      ).map((row) => row._id),
    );
    await server.api.service('passwordResets').create({ email: uniqueEmail('nobody') });
    const row = await eventually(async () => {
      const rows = (await deliveries().find({
        paginate: false,
        query: { kind: 'password-reset-mail' },
      })) as unknown as Delivery[];
      return rows.find((found) => !before.has(found._id) && found.state === 'skipped');
    }, 'the reset mail to be skipped');
    expect(row).toMatchObject({ attempts: 1, recipient: null, subject: null, sentAt: null, lastError: null });
  });

  it('keeps an error short and free of credentials and stacks', () => {
    const error = Object.assign(
      new Error('Invalid login for smtp://queue-mailer:hunter2@mail.example:587\n    at Foo (x.js:1:1)'),
      { code: 'EAUTH' },
    );
    expect(safeErrorText(error)).toBe('EAUTH: Invalid login for smtp://***@mail.example:587');
    expect(safeErrorText(new Error('x'.repeat(1000)))).toHaveLength(300);
  });
});
