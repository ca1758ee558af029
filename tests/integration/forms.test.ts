import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asRest,
  createAccount,
  createTestApp,
  rejectionOf,
  skipReason,
  type TestAccount,
  type TestApp,
  typedService,
  validEnquiry,
} from './harness.ts';

type Caller = { _id: string; role: string };
const caller = (account: TestAccount): Caller => ({ _id: account._id, role: account.role });
const zhHk = (user?: Caller) => ({ ...asRest(user), headers: { 'x-locale': 'zh-hk' } });

/** Waits until `check` answers something truthy (jobs are worked in the background). */
async function eventually<T>(check: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(skipReason)('the enquiries and contactForms services', () => {
  let app: TestApp;
  let admin: Caller;
  let editor: Caller;
  let member: Caller;
  let ip = 0;
  // Each call from its own address, so the per-address limit stays out of the way.
  const anon = (locale = 'en') => ({ ...asRest(), ip: `10.0.0.${++ip}`, headers: { 'x-locale': locale } });

  beforeAll(async () => {
    app = await createTestApp({ formLimit: { points: 3, duration: 60 } });
    const knex = app.database.knex;
    const accounts = await Promise.all([
      createAccount(knex, { role: 'admin' }),
      createAccount(knex, { role: 'editor' }),
      createAccount(knex),
    ]);
    [admin, editor, member] = [caller(accounts[0]), caller(accounts[1]), caller(accounts[2])];
  });
  afterAll(async () => {
    await app?.close();
  });

  it('stores an enquiry from anyone and mails staff once through the outbox', async () => {
    const created = await typedService(app.api, 'enquiries').create(validEnquiry('one@example.test'), anon());
    expect(created).toMatchObject({ firstName: 'Mei', contactMethods: ['email', 'phone'], personalDataConsent: true });
    const mail = await eventually(async () => {
      const page = await typedService(app.api, 'outbox').find(
        asRest(admin, { subject: { $regex: 'Mei Chan', $options: 'i' } }),
      );
      return page.data[0];
    });
    expect(mail.to).toBe('sales@tillpoint.example');
    expect(mail.text).toContain('Free demonstration');
    expect(mail.text).toContain('one@example.test');
    expect(mail.html).toContain('<table');
  });

  it('answers every rule with translated field errors and the spec message', async () => {
    const error = await rejectionOf(
      app.api
        .service('enquiries')
        .create(
          { ...validEnquiry(), firstName: '', email: 'nope', phone: '12', personalDataConsent: false },
          anon('zh-hk'),
        ),
    );
    expect(error.name).toBe('BadRequest');
    expect(error.message).toBe('請先填妥查詢表格再提交。');
    expect(error.errors).toEqual({
      firstName: '必填',
      email: '電郵格式無效。',
      phone: '電話號碼格式無效。',
      personalDataConsent: '提交前請先同意《收集個人資料聲明》。',
    });
    const consent = await rejectionOf(
      app.api.service('enquiries').create({ ...validEnquiry(), personalDataConsent: false }, anon()),
    );
    expect(consent.message).toBe('Please agree to the Personal Information Collection Statement before submitting.');
  });

  it('lets only staff read submissions and only admins remove them', async () => {
    const created = await typedService(app.api, 'contactForms').create(
      { name: 'Ken', phone: '+65 8123 4567', email: 'ken@example.test', companyName: 'Ken Co' },
      anon(),
    );
    expect((await rejectionOf(app.api.service('contactForms').find(asRest()))).name).toBe('NotAuthenticated');
    expect((await rejectionOf(app.api.service('contactForms').get(created._id, zhHk(member)))).name).toBe('Forbidden');
    expect(await app.api.service('contactForms').get(created._id, asRest(editor))).toMatchObject({ name: 'Ken' });
    expect((await rejectionOf(app.api.service('contactForms').remove(created._id, asRest(editor)))).name).toBe(
      'Forbidden',
    );
    expect((await rejectionOf(app.api.service('outbox').find(asRest(member)))).name).toBe('Forbidden');
    await app.api.service('contactForms').remove(created._id, asRest(admin));
  });

  it('merges the same submission within a minute and stores nothing for a filled honeypot', async () => {
    const data = { name: 'Twice', phone: '91234567', email: 'twice@example.test', companyName: 'Twice Ltd' };
    const contactForms = typedService(app.api, 'contactForms');
    const first = await contactForms.create(data, anon());
    const second = await contactForms.create(data, anon());
    expect(second._id).toBe(first._id);
    const other = await contactForms.create({ ...data, companyName: 'Other Ltd' }, anon());
    expect(other._id).not.toBe(first._id);
    const robot = await contactForms.create(
      { ...data, email: 'robot@example.test', website_url: 'http://spam.test' },
      anon(),
    );
    expect(robot._id).toBeTruthy();
    const stored = await contactForms.find(
      asRest(admin, { email: { $in: ['twice@example.test', 'robot@example.test'] } }),
    );
    expect(stored.total).toBe(2);
  });

  it('limits submissions per address with a 429 that says when to retry', async () => {
    const params = { ...asRest(), ip: '10.9.9.9' };
    for (let i = 0; i < 3; i += 1) await rejectionOf(app.api.service('contactForms').create({}, params));
    const limited = await rejectionOf(app.api.service('contactForms').create({}, params));
    expect(limited).toMatchObject({ name: 'TooManyRequests', code: 429 });
    expect(Number(limited.data?.retryAfter)).toBeGreaterThan(0);
  });

  it('refuses submissions with a translated 403 while the contact-form feature is off', async () => {
    await app.api.service('features').patch(null, { contactForm: false }, asRest(admin));
    try {
      const closed = await rejectionOf(app.api.service('enquiries').create(validEnquiry(), anon('zh-cn')));
      expect(closed).toMatchObject({
        name: 'Forbidden',
        message: '表格暂时停止接收，请通过在线聊天联系我们的销售团队。',
      });
    } finally {
      await app.api.service('features').patch(null, { contactForm: true }, asRest(admin));
    }
  });
});
