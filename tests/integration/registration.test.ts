import type { Knex } from 'knex';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '../../domain/locales.ts';
import { jobsSchemaOf } from '../../server/jobs/queue.ts';
import { translate } from '../../server/i18n.ts';
import { VERIFICATION_RULES } from '../../server/services/email-verifications/verifications.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  clientService,
  createAccount,
  rejectionOf,
  skipReason,
  socketClient,
  startTestServer,
  typedService,
  uniqueEmail,
  type FeathersErrorJSON,
} from './harness.ts';

/**
 * Registration and email verification over REST (decision 020): every message of the registration
 * form in three languages, the account made unverified with a code mailed (read from the outbox),
 * and every rule of the code and the link: bound to the account, hashed, 15 minutes, single use,
 * 5 attempts, resend after 60 s and 5 an hour. The server's clock is moved by the tests.
 */

interface Registered {
  user: {
    _id: string;
    email: string;
    role: string;
    emailVerifiedAt: string | null;
    companyName: string;
    phone: string;
    locale: string;
  };
  verification: { expiresAt: string; resendAfter: string };
}

let nextAddress = 1;
const newAddress = () => `10.2.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

const answers = (over: Record<string, unknown> = {}) => ({
  email: uniqueEmail('owner'),
  name: 'Mei Chan',
  companyName: 'Chan Noodles',
  companyAddress: '12 Nathan Road, Kowloon',
  phone: '+852 9123 4567',
  phoneConfirm: '+852 9123 4567',
  password: 'Noodles-2024',
  passwordConfirm: 'Noodles-2024',
  locale: 'en',
  ...over,
});

describe.skipIf(skipReason)('registration and email verification', () => {
  let server: RunningServer;
  let knex: Knex;
  let offset = 0;

  async function call<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; locale?: Locale } = {},
  ) {
    const response = await fetch(`${server.url}/api${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'x-forwarded-for': newAddress(),
        'x-locale': options.locale ?? 'en',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as T & FeathersErrorJSON,
    };
  }
  const register = (body: Record<string, unknown>, locale?: Locale) =>
    call<Registered>('POST', '/registrations', { body, ...(locale ? { locale } : {}) });
  const verify = (body: Record<string, unknown>, token?: string) =>
    call<{ verified: boolean; resendAfter?: string; expiresAt?: string }>('POST', '/emailVerifications', {
      body,
      ...(token ? { token } : {}),
    });
  const signIn = async (email: string, password: string) => {
    const answer = await call<{ accessToken: string }>('POST', '/authentication', {
      body: { strategy: 'local', email, password },
    });
    expect(answer.status).toBe(201);
    return answer.body.accessToken;
  };
  const userRow = (id: string) =>
    knex('users').where({ id }).first('email', 'email_verified_at') as Promise<{
      email: string;
      email_verified_at: Date | null;
    }>;

  /** The mails sent to an address, oldest first, once at least `count` have arrived. */
  async function mailsTo(email: string, count = 1): Promise<{ subject: string; text: string; html: string }[]> {
    for (let i = 0; i < 200; i += 1) {
      const mails = (await knex('outbox')
        .where({ recipient: email })
        .orderBy('created_at', 'asc')
        .select('subject', 'text', 'html')) as { subject: string; text: string; html: string }[];
      if (mails.length >= count) return mails;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`fewer than ${count} mails reached ${email}`);
  }
  /** The code and the link's token of the latest mail to an address. */
  async function codeSentTo(
    email: string,
    count = 1,
  ): Promise<{ code: string; linkToken: string; link: string; subject: string; text: string }> {
    const mails = await mailsTo(email, count);
    const mail = mails[count - 1]!;
    const code = /(\d{6})/.exec(mail.subject)?.[1];
    const link = /(http\S+\/verify\?token=\S+)/.exec(mail.text)?.[1];
    if (!code || !link) throw new Error(`no code or link in ${mail.text}`);
    return {
      code,
      link,
      linkToken: new URL(link).searchParams.get('token') ?? '',
      subject: mail.subject,
      text: mail.text,
    };
  }
  /** Registers, signs in and reads the code sent. */
  async function newOwner(over: Record<string, unknown> = {}) {
    const body = answers(over);
    const registered = await register(body);
    expect(registered.status).toBe(201);
    const jwt = await signIn(String(body.email), String(body.password));
    return {
      ...registered.body.user,
      password: String(body.password),
      jwt,
      ...(await codeSentTo(registered.body.user.email)),
    };
  }
  const moveClock = (ms: number) => {
    offset += ms;
  };

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    knex = server.database.knex;
    server.api.set('clock', () => new Date(Date.now() + offset));
  });
  afterEach(() => {
    offset = 0;
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('registering', () => {
    const cases: [string, Record<string, unknown>, Record<string, string>][] = [
      [
        'every answer missing',
        {
          email: '',
          name: '',
          companyName: '',
          companyAddress: '',
          phone: '',
          phoneConfirm: '',
          password: '',
          passwordConfirm: '',
        },
        {
          email: 'validation.required',
          name: 'validation.required',
          companyName: 'validation.required',
          companyAddress: 'validation.required',
          phone: 'validation.required',
          phoneConfirm: 'validation.required',
          password: 'validation.required',
          passwordConfirm: 'validation.required',
        },
      ],
      ['an invalid email', { email: 'mei.chan.hk' }, { email: 'validation.emailFormat' }],
      ['an invalid phone', { phone: 'call me', phoneConfirm: 'call me' }, { phone: 'validation.phoneFormat' }],
      ['phones inconsistent', { phoneConfirm: '+852 9123 4568' }, { phoneConfirm: 'validation.phoneMismatch' }],
      [
        'an invalid password',
        { password: 'Noodles\t2024', passwordConfirm: 'Noodles\t2024' },
        { password: 'validation.passwordInvalid' },
      ],
      [
        'a password over 200 characters',
        { password: `Aa1${'x'.repeat(198)}`, passwordConfirm: `Aa1${'x'.repeat(198)}` },
        { password: 'validation.passwordInvalid' },
      ],
      [
        'a password under 8 characters',
        { password: 'Ab1', passwordConfirm: 'Ab1' },
        { password: 'validation.passwordMin' },
      ],
      [
        'a password without a number',
        { password: 'Abcdefghi', passwordConfirm: 'Abcdefghi' },
        { password: 'validation.passwordDigit' },
      ],
      [
        'a password without a lower-case letter',
        { password: 'ABCDEFG12', passwordConfirm: 'ABCDEFG12' },
        { password: 'validation.passwordLower' },
      ],
      [
        'a password without an upper-case letter',
        { password: 'abcdefg12', passwordConfirm: 'abcdefg12' },
        { password: 'validation.passwordUpper' },
      ],
      [
        'passwords inconsistent',
        { passwordConfirm: 'Noodles-2025' },
        { passwordConfirm: 'validation.passwordMismatch' },
      ],
      [
        'a common breached password',
        { password: 'Password1', passwordConfirm: 'Password1' },
        { password: 'validation.passwordBreached' },
      ],
      [
        'a breached password in other letter cases',
        { password: 'qWERTY123', passwordConfirm: 'qWERTY123' },
        { password: 'validation.passwordBreached' },
      ],
    ];
    const locales: Locale[] = ['en', 'zh-hk', 'zh-cn'];

    it.each(cases)(
      'refuses %s with 400 and each field’s message, in every language',
      async (_label, change, expected) => {
        for (const locale of locales) {
          const body = answers(change);
          const { status, body: error } = await register(body, locale);
          expect(status, locale).toBe(400);
          expect(error).toMatchObject({ name: 'BadRequest', code: 400 });
          const missing = Object.values(expected).includes('validation.required');
          expect(error.message, locale).toBe(
            translate(locale, missing ? 'registration.incomplete' : Object.values(expected)[0]!),
          );
          expect(error.errors, locale).toEqual(
            Object.fromEntries(Object.entries(expected).map(([field, key]) => [field, translate(locale, key)])),
          );
          expect(
            await knex('users')
              .where({ email: String(body.email).toLowerCase() })
              .first('id'),
            locale,
          ).toBeUndefined();
        }
        expect(translate('en', 'registration.incomplete')).toBe('Please fill in the blanks.');
      },
    );

    it('makes an unverified member of a valid registration, with a 64-character passphrase, and mails the code in the account’s language', async () => {
      const passphrase = 'Correct horse battery staple, 42 bowls of wonton noodles in Mong Kok';
      expect(passphrase.length).toBeGreaterThanOrEqual(64);
      const body = answers({
        email: uniqueEmail('Long').replace('long', 'LONG'),
        password: passphrase,
        passwordConfirm: passphrase,
        locale: 'zh-hk',
        role: 'admin',
      });
      const before = Date.now();
      const { status, body: answer, headers } = await register(body);
      expect(status).toBe(201);
      expect(answer.user).toMatchObject({
        email: String(body.email).toLowerCase(),
        role: 'member',
        emailVerifiedAt: null,
        companyName: 'Chan Noodles',
        phone: '+852 9123 4567',
        locale: 'zh-hk',
      });
      expect(JSON.stringify(answer)).not.toMatch(/password|accessToken|sessionVersion/);
      expect(headers.get('set-cookie')).toBeNull();
      const expiresAt = new Date(answer.verification.expiresAt).getTime();
      const resendAfter = new Date(answer.verification.resendAfter).getTime();
      expect(expiresAt - before).toBeGreaterThanOrEqual(VERIFICATION_RULES.ttlMs - 1000);
      expect(expiresAt - Date.now()).toBeLessThanOrEqual(VERIFICATION_RULES.ttlMs);
      expect(resendAfter - before).toBeGreaterThanOrEqual(59_000);
      expect(resendAfter - Date.now()).toBeLessThanOrEqual(60_000);
      const row = await userRow(answer.user._id);
      expect(row.email_verified_at).toBeNull();
      // The mail: Traditional Chinese, the code in the subject and the body, the link to the verify page.
      const mail = await codeSentTo(answer.user.email);
      expect(mail.subject).toBe(`${mail.code} 是你的 Tillpoint 驗證碼`);
      expect(mail.text).toContain(`：${mail.code}`);
      expect(mail.link).toMatch(/^http:\/\/localhost:\d+\/zh-hk\/verify\?token=[\w-]{43}$/);
      // The passphrase signs in.
      expect(await signIn(answer.user.email, passphrase)).toEqual(expect.any(String));
    });

    it(
      'answers 409 "Account already exist" for an email that has an account, in any letter case',
      { timeout: 120_000 },
      async () => {
        const body = answers();
        expect((await register(body)).status).toBe(201);
        for (const email of [String(body.email).toUpperCase(), ` ${String(body.email)} `, 'owner@tillpoint.test']) {
          for (const locale of ['en', 'zh-hk', 'zh-cn'] as const) {
            const { status, body: error } = await register(answers({ email }), locale);
            expect(status).toBe(409);
            expect(error).toMatchObject({
              name: 'Conflict',
              code: 409,
              message: translate(locale, 'registration.accountExists'),
            });
            expect(error.errors?.email).toBe(translate(locale, 'registration.accountExists'));
          }
        }
        expect(translate('en', 'registration.accountExists')).toBe('Account already exist');
        expect(
          Number(
            (
              await knex('users')
                .whereRaw('lower(email) = ?', [String(body.email)])
                .count({ n: '*' })
                .first()
            )?.n,
          ),
        ).toBe(1);
      },
    );
  });

  describe('the code', () => {
    it('verifies its own account, signed in; the answer is no session', async () => {
      const owner = await newOwner();
      expect((await verify({ code: owner.code })).status).toBe(401);
      const answer = await verify({ code: owner.code }, owner.jwt);
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({ verified: true });
      expect(answer.headers.get('set-cookie')).toBeNull();
      expect((await userRow(owner._id)).email_verified_at).toBeInstanceOf(Date);
      const me = await call<{ emailVerifiedAt: string | null }>('GET', `/users/${owner._id}`, { token: owner.jwt });
      expect(me.body.emailVerifiedAt).toEqual(expect.any(String));
    });

    it('says how many attempts are left, and is dead after 5 wrong ones (429 with Retry-After)', async () => {
      const owner = await newOwner();
      const wrong = owner.code === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= VERIFICATION_RULES.maxAttempts; attempt += 1) {
        const answer = await verify({ code: wrong }, owner.jwt);
        expect(answer.status).toBe(400);
        const left = VERIFICATION_RULES.maxAttempts - attempt;
        expect(answer.body).toMatchObject({ name: 'BadRequest', data: { attemptsLeft: left } });
        expect(answer.body.message).toBe(`That code is not correct. Attempts left: ${left}.`);
        expect(answer.body.errors?.code).toBe(`That code is not correct. Attempts left: ${left}.`);
      }
      const dead = await verify({ code: owner.code }, owner.jwt);
      expect(dead.status).toBe(429);
      expect(dead.body.message).toBe(translate('en', 'verification.tooManyAttempts'));
      expect(Number(dead.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(dead.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect((await userRow(owner._id)).email_verified_at).toBeNull();
      // A new code works.
      moveClock(VERIFICATION_RULES.resendAfterMs + 1000);
      expect((await verify({ resend: true }, owner.jwt)).status).toBe(201);
      const fresh = await codeSentTo(owner.email, 2);
      expect((await verify({ code: fresh.code }, owner.jwt)).body).toEqual({ verified: true });
    });

    it('expires after 15 minutes (410)', async () => {
      const owner = await newOwner();
      moveClock(VERIFICATION_RULES.ttlMs + 1000);
      for (const locale of ['en', 'zh-hk', 'zh-cn'] as const) {
        const answer = await call('POST', '/emailVerifications', {
          body: { code: owner.code },
          token: owner.jwt,
          locale,
        });
        expect(answer.status).toBe(410);
        expect(answer.body.message).toBe(translate(locale, 'verification.expired'));
      }
      expect((await verify({ token: owner.linkToken })).status).toBe(410);
      expect((await verify({ token: owner.linkToken.slice(0, 10) })).status).toBe(400);
      expect((await userRow(owner._id)).email_verified_at).toBeNull();
    });

    it('is bound to its account: account A’s code does not verify account B', async () => {
      const a = await newOwner();
      const b = await newOwner();
      const answer = await verify({ code: a.code }, b.jwt);
      if (a.code === b.code) return; // one chance in a million: nothing to tell apart
      expect(answer.status).toBe(400);
      expect((await userRow(b._id)).email_verified_at).toBeNull();
      expect((await userRow(a._id)).email_verified_at).toBeNull();
      expect((await verify({ code: a.code }, a.jwt)).body).toEqual({ verified: true });
      expect((await userRow(b._id)).email_verified_at).toBeNull();
    });

    it('is kept hashed: no table but the outbox holds the code or the link’s token', async () => {
      const owner = await newOwner();
      const rows = await knex('email_verifications').where({ user_id: owner._id });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ email: owner.email, reason: 'registration', attempts: 0 });
      expect(rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
      const schemas = [String((await knex.raw('select current_schema() as s')).rows[0].s), jobsSchemaOf(knex)];
      const tables = (
        await knex.raw(
          'select table_schema, table_name from information_schema.tables where table_schema = any(?) and table_type = ?',
          [schemas, 'BASE TABLE'],
        )
      ).rows as { table_schema: string; table_name: string }[];
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(['email_verifications', 'users', 'outbox']),
      );
      const holding: string[] = [];
      for (const { table_schema: schema, table_name: table } of tables) {
        if (table === 'outbox') continue;
        const token = await knex.raw('select count(*)::int as n from ??.?? t where t::text like ?', [
          schema,
          table,
          `%${owner.linkToken}%`,
        ]);
        if (token.rows[0].n > 0) holding.push(`${schema}.${table}`);
      }
      // The code's six digits could turn up by chance in an id or a hash elsewhere: its own row is what counts.
      for (const row of rows)
        expect(JSON.stringify(row)).not.toMatch(new RegExp(`(^|[^0-9a-f])${owner.code}([^0-9a-f]|$)`));
      expect(holding).toEqual([]);
      // The job that mailed it holds only an encrypted copy.
      const jobs = (
        await knex.raw(`select data::text as data from ??.job where name = 'verification-mail'`, [jobsSchemaOf(knex)])
      ).rows as { data: string }[];
      expect(jobs.length).toBeGreaterThan(0);
      for (const job of jobs) expect(job.data).not.toContain(owner.code);
    });
  });

  describe('the link', () => {
    it('verifies without signing in, once; the answer is no session', async () => {
      const owner = await newOwner();
      const answer = await verify({ token: owner.linkToken });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({ verified: true });
      expect(answer.headers.get('set-cookie')).toBeNull();
      expect((await userRow(owner._id)).email_verified_at).toBeInstanceOf(Date);
      const again = await verify({ token: owner.linkToken });
      expect(again.status).toBe(410);
      expect(again.body.message).toBe('This verification link has already been used.');
    });

    it('verifies signed in too, and a stranger’s made-up token is refused', async () => {
      const owner = await newOwner();
      expect((await verify({ token: 'A'.repeat(43) }, owner.jwt)).status).toBe(400);
      const answer = await verify({ token: owner.linkToken }, owner.jwt);
      expect(answer.body).toEqual({ verified: true });
    });

    it('expires after 15 minutes, and with a newer code', async () => {
      const owner = await newOwner();
      moveClock(VERIFICATION_RULES.resendAfterMs + 1000);
      expect((await verify({ resend: true }, owner.jwt)).status).toBe(201);
      const replaced = await verify({ token: owner.linkToken });
      expect(replaced.status).toBe(410);
      const fresh = await codeSentTo(owner.email, 2);
      moveClock(VERIFICATION_RULES.ttlMs);
      expect((await verify({ token: fresh.linkToken })).status).toBe(410);
      expect((await userRow(owner._id)).email_verified_at).toBeNull();
    });
  });

  describe('sending again', () => {
    it('waits 60 s between sends and allows 5 resends an hour', { timeout: 60_000 }, async () => {
      const owner = await newOwner();
      expect((await call('POST', '/emailVerifications', { body: { resend: true } })).status).toBe(401);
      const soon = await verify({ resend: true }, owner.jwt);
      expect(soon.status).toBe(429);
      expect(soon.body.message).toBe(translate('en', 'verification.resendTooSoon'));
      expect(Number(soon.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(soon.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      for (let resend = 1; resend <= VERIFICATION_RULES.resendsPerHour; resend += 1) {
        moveClock(VERIFICATION_RULES.resendAfterMs + 1000);
        const answer = await verify({ resend: true }, owner.jwt);
        expect(answer.status, `resend ${resend}`).toBe(201);
        expect(answer.body).toMatchObject({
          verified: false,
          expiresAt: expect.any(String),
          resendAfter: expect.any(String),
        });
        // Each code is mailed before the next replaces it (a replaced code's mail is not sent).
        await mailsTo(owner.email, 1 + resend);
      }
      moveClock(VERIFICATION_RULES.resendAfterMs + 1000);
      const sixth = await verify({ resend: true }, owner.jwt);
      expect(sixth.status).toBe(429);
      expect(sixth.body.message).toBe(translate('en', 'verification.tooManyResends'));
      const wait = Number(sixth.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(60 * 60 - 6 * 61);
      expect(wait).toBeLessThanOrEqual(60 * 60);
      // Only the latest code works.
      const mails = await mailsTo(owner.email, 1 + VERIFICATION_RULES.resendsPerHour);
      expect(mails).toHaveLength(1 + VERIFICATION_RULES.resendsPerHour);
      const latest = await codeSentTo(owner.email, mails.length);
      if (latest.code !== owner.code) expect((await verify({ code: owner.code }, owner.jwt)).status).toBe(400);
      expect((await verify({ code: latest.code }, owner.jwt)).body).toEqual({ verified: true });
      // Verified: nothing more to send.
      expect((await verify({ resend: true }, owner.jwt)).body).toEqual({ verified: true });
    });
  });

  describe('a changed email', () => {
    it('makes the account unverified again and sends a code to the new address; the old code is spent', async () => {
      const owner = await newOwner();
      expect((await verify({ code: owner.code }, owner.jwt)).body).toEqual({ verified: true });
      const email = uniqueEmail('moved');
      const patched = await call<{ email: string; emailVerifiedAt: string | null }>('PATCH', `/users/${owner._id}`, {
        body: { email, currentPassword: owner.password },
        token: owner.jwt,
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ email, emailVerifiedAt: null });
      expect((await userRow(owner._id)).email_verified_at).toBeNull();
      const sent = await codeSentTo(email);
      if (sent.code !== owner.code) expect((await verify({ code: owner.code }, owner.jwt)).status).toBe(400);
      expect((await verify({ code: sent.code }, owner.jwt)).body).toEqual({ verified: true });
      // A patch that leaves the email as it is changes nothing.
      const same = await call<{ emailVerifiedAt: string | null }>('PATCH', `/users/${owner._id}`, {
        body: { email: email.toUpperCase(), currentPassword: owner.password },
        token: owner.jwt,
      });
      expect(same.body.emailVerifiedAt).toEqual(expect.any(String));
    });

    it('an account made before verification, changed by an admin, is unverified too', async () => {
      const member = await createAccount(knex, { label: 'verified' });
      expect((await userRow(member._id)).email_verified_at).toBeInstanceOf(Date);
      const adminToken = await signIn('admin@tillpoint.test', 'Admin12345');
      const email = uniqueEmail('staff-moved');
      const patched = await call<{ emailVerifiedAt: string | null }>('PATCH', `/users/${member._id}`, {
        body: { email },
        token: adminToken,
      });
      expect(patched.status).toBe(200);
      expect(patched.body.emailVerifiedAt).toBeNull();
      expect((await codeSentTo(email)).code).toMatch(/^\d{6}$/);
    });
  });

  describe('other transports', () => {
    it('registers in-process for a visitor (as a page does), with the same rules', async () => {
      const registrations = typedService(server.api, 'registrations');
      const params = { provider: 'ssr', ip: newAddress(), headers: { 'x-locale': 'zh-cn' } };
      const refused = await rejectionOf(
        registrations.create(
          answers({ phoneConfirm: '+852 0000 0000', password: 'Trustno1!', passwordConfirm: 'Trustno1!' }),
          params,
        ),
      );
      expect(refused.errors).toEqual({ phoneConfirm: translate('zh-cn', 'validation.phoneMismatch') });
      const breached = await rejectionOf(
        registrations.create(answers({ password: 'Trustno1', passwordConfirm: 'Trustno1' }), params),
      );
      expect(breached.errors).toEqual({ password: translate('zh-cn', 'validation.passwordBreached') });
      const body = answers({ locale: 'zh-cn' });
      const { user, verification } = await registrations.create(body, params);
      expect(user).toMatchObject({ email: body.email, role: 'member', emailVerifiedAt: null, locale: 'zh-cn' });
      expect(verification.expiresAt).toBeInstanceOf(Date);
      expect((await codeSentTo(user.email)).subject).toMatch(/^\d{6} 是你的 Tillpoint 验证码$/);
    });

    it('verifies a code over socket.io, signed in on the socket; a wrong one says the attempts left', async () => {
      const owner = await newOwner();
      const socket = socketClient(server.url, { 'x-locale': 'zh-hk' });
      try {
        await socket.client.authenticate({ strategy: 'jwt', accessToken: owner.jwt });
        const verifications = clientService(socket.client, 'emailVerifications');
        const wrong = await rejectionOf(verifications.create({ code: owner.code === '123456' ? '654321' : '123456' }));
        expect(wrong).toMatchObject({
          code: 400,
          message: '驗證碼不正確。尚餘嘗試次數：4。',
          data: { attemptsLeft: 4 },
        });
        expect(await verifications.create({ code: owner.code })).toEqual({ verified: true });
      } finally {
        socket.close();
      }
      expect((await userRow(owner._id)).email_verified_at).toBeInstanceOf(Date);
    });
  });

  it('the seed’s demo accounts are verified', async () => {
    const rows = (await knex('users')
      .whereIn('email', ['owner@tillpoint.test', 'editor@tillpoint.test', 'admin@tillpoint.test'])
      .select('email_verified_at')) as { email_verified_at: Date | null }[];
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.email_verified_at).toBeInstanceOf(Date);
  });
});
