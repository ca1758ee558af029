import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWSLETTER_LIMIT } from '../../server/config.ts';
import { asRest, createAccount, createTestApp, rejectionOf, skipReason, type TestApp, testConfig } from './harness.ts';

describe.skipIf(skipReason)('the subscribers service', () => {
  let app: TestApp;
  let editor: { _id: string; role: string };
  let admin: { _id: string; role: string };
  const service = () => app.api.service('subscribers');
  const count = async () =>
    Number(((await app.database.knex('subscribers').count({ n: '*' }).first()) as { n: string | number }).n);

  let ip = 0;
  // Each call from its own address, so the per-address limit stays out of the way.
  const anon = (locale = 'en') => ({ ...asRest(), ip: `10.1.0.${++ip}`, headers: { 'x-locale': locale } });

  beforeAll(async () => {
    app = await createTestApp({ newsletterLimit: { points: 3, duration: 60 } });
    const account = await createAccount(app.database.knex, { role: 'editor' });
    editor = { _id: account._id, role: account.role };
    const adminAccount = await createAccount(app.database.knex, { role: 'admin' });
    admin = { _id: adminAccount._id, role: adminAccount.role };
  });
  afterAll(async () => {
    await app?.close();
  });

  it('takes a Singapore subscription once, and tells anyone who subscribes that address nothing stored', async () => {
    const first = await service().create(
      {
        campaign: 'sg23',
        name: 'Ann Tan',
        companyName: 'Kopi Co',
        phone: '+65 9123 4567',
        email: 'Ann@Kopi.sg',
        locale: 'en',
      },
      anon(),
    );
    expect(first).toEqual({ subscribed: true });
    // Someone else subscribing the same address learns neither the name, the company, the phone, nor that it was there.
    const again = await service().create(
      { campaign: 'sg23', name: 'Someone', companyName: 'Other Co', phone: '+65 8123 4567', email: 'ann@kopi.sg' },
      anon(),
    );
    expect(again).toEqual({ subscribed: true });
    expect(await count()).toBe(1);
    const stored = await app.database.knex('subscribers').first('email', 'name', 'phone');
    expect(stored).toEqual({ email: 'ann@kopi.sg', name: 'Ann Tan', phone: '+65 9123 4567' });
    // Staff adding a subscriber are answered the record.
    const byStaff = (await service().create(
      { campaign: '23hkrace', email: 'staff-added@shop.hk' },
      asRest(editor),
    )) as { _id: string; email: string };
    expect(byStaff).toMatchObject({ _id: expect.any(String), email: 'staff-added@shop.hk' });
    await app.database.knex('subscribers').where({ id: byStaff._id }).delete();
  });

  it("holds an admin's patch to the campaign's rules, read on the record the patch leaves", async () => {
    const created = await service().create(
      { campaign: 'sg23', name: 'Ben Lim', companyName: 'Lim Hardware', email: 'ben@lim.sg' },
      asRest(admin),
    );
    try {
      expect(await rejectionOf(service().patch(created._id, { name: null }, asRest(admin)))).toMatchObject({
        name: 'BadRequest',
        errors: { name: 'Required' },
      });
      const phone = await rejectionOf(
        service().patch(
          created._id,
          { name: '', phone: '71234567' },
          { ...asRest(admin), headers: { 'x-locale': 'zh-hk' } },
        ),
      );
      expect(phone.errors).toEqual({ name: '必填', phone: '請輸入正確的 +65 電話號碼！' });
      expect(await service().patch(created._id, { phone: '+65 8123 4567' }, asRest(admin))).toMatchObject({
        name: 'Ben Lim',
        phone: '+65 8123 4567',
      });
    } finally {
      await app.database.knex('subscribers').where({ id: created._id }).delete();
    }
  });

  it('refuses query operators in the data instead of looking them up', async () => {
    await service().create(
      { campaign: '23hkrace', name: 'Secret Name', companyName: 'Secret Co', email: 'victim@shop.hk' },
      anon(),
    );
    const before = await count();
    for (const data of [
      { campaign: { $ne: null }, email: 'victim@shop.hk' },
      { campaign: '23hkrace', email: { $ne: null } },
      { campaign: '23hkrace', email: { $regex: 'victim' } },
      { campaign: ['23hkrace'], email: 'victim@shop.hk' },
    ]) {
      const error = await rejectionOf(service().create(data, anon()));
      expect(error).toMatchObject({ name: 'BadRequest', code: 400 });
      expect(JSON.stringify(error)).not.toContain('Secret');
    }
    expect(await count()).toBe(before);
    await app.database.knex('subscribers').where({ email: 'victim@shop.hk' }).delete();
  });

  it("applies the Singapore form rules on the server, in the caller's language", async () => {
    const error = await rejectionOf(
      service().create({ campaign: 'sg23', name: 'Ann', companyName: 'Kopi Co', email: 'ann@kopi' }, anon('en')),
    );
    expect(error).toMatchObject({ name: 'BadRequest', errors: { email: 'Please Input Correct Email !' } });
    const phone = await rejectionOf(
      service().create(
        { campaign: 'sg23', name: '', companyName: 'Kopi Co', phone: '71234567', email: 'ann@kopi.sg' },
        anon('zh-hk'),
      ),
    );
    expect(phone.errors).toEqual({ name: '必填', phone: '請輸入正確的 +65 電話號碼！' });
    expect(await count()).toBe(1);
  });

  it('answers a filled honeypot as if it worked and stores nothing', async () => {
    const answer = await service().create(
      { campaign: '23hkrace', email: 'bot@spam.example', website_url: 'http://spam.example' },
      anon(),
    );
    expect(answer).toEqual({ subscribed: true });
    expect(await count()).toBe(1);
  });

  it('refuses an unknown campaign and shows the list to staff only', async () => {
    expect((await rejectionOf(service().create({ campaign: 'other', email: 'a@b.hk' }, anon()))).name).toBe(
      'BadRequest',
    );
    expect((await rejectionOf(service().find(asRest()))).name).toBe('NotAuthenticated');
    const list = (await service().find(asRest(editor))) as { total: number };
    expect(list.total).toBe(1);
  });

  it('limits subscriptions per address with a translated 429 that says when to retry', async () => {
    const from = (address: string, locale = 'en') => ({ ...asRest(), ip: address, headers: { 'x-locale': locale } });
    const subscribe = (email: string, params: object) => service().create({ campaign: '23hkrace', email }, params);
    await subscribe('one@shop.hk', from('10.9.9.9'));
    await subscribe('two@shop.hk', from('10.9.9.9'));
    // A robot's filled honeypot counts too.
    await service().create(
      { campaign: '23hkrace', email: 'bot@shop.hk', website_url: 'http://spam.example' },
      from('10.9.9.9'),
    );
    const before = await count();

    const limited = await rejectionOf(subscribe('three@shop.hk', from('10.9.9.9', 'zh-hk')));
    expect(limited).toMatchObject({
      name: 'TooManyRequests',
      code: 429,
      message: '你的網絡訂閱次數太多，請稍後再試。',
    });
    expect(Number(limited.data?.retryAfter)).toBeGreaterThan(0);
    expect(await rejectionOf(subscribe('three@shop.hk', from('10.9.9.9', 'zh-cn')))).toMatchObject({
      code: 429,
      message: '你的网络订阅次数太多，请稍后再试。',
    });
    expect(await rejectionOf(subscribe('three@shop.hk', from('10.9.9.9')))).toMatchObject({
      code: 429,
      message: 'Too many sign-ups from your network. Please try again later.',
    });
    expect(await count()).toBe(before);

    // Another address, and the server's own calls, are not held back.
    await subscribe('three@shop.hk', from('10.9.9.10'));
    await service().create({ campaign: '23hkrace', email: 'four@shop.hk' });
    expect(await count()).toBe(before + 2);
  });

  it('keeps the production limit outside tests', () => {
    expect(testConfig().newsletterLimit).toEqual(NEWSLETTER_LIMIT);
  });
});
