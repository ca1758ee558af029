import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '../../domain/locales.ts';
import { hashPassword } from '../../server/auth/passwords.ts';
import { translate } from '../../server/i18n.ts';
import { jobsSchemaOf } from '../../server/jobs/queue.ts';
import {
  PASSWORD_RESET_LIMITS,
  PASSWORD_RESET_RULES,
  resetTokenHash,
} from '../../server/services/password-resets/password-resets.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  createAccount,
  skipReason,
  socketClient,
  startTestServer,
  uniqueEmail,
  type FeathersErrorJSON,
} from './harness.ts';

/**
 * A forgotten password of a user of the company's apps (decision 026, addendum): the members' rules
 * through `appPasswordResets`. The same answer for an address with or without an app account; a
 * link mailed in the app user's language to the apps' reset page, once, for an hour; a new password
 * that ends every session of the app user; the same limits, counted apart from the members'; and a
 * member and an app user with one email each reset only their own account. The server's clock is
 * moved by the tests.
 */

let nextAddress = 1;
const newAddress = () => `10.53.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

interface AppUser {
  _id: string;
  email: string;
  password: string;
}

/** An app user written straight to the database, as signing up stores one. */
async function createAppUser(
  knex: Knex,
  options: { email?: string; password?: string; locale?: Locale; label?: string } = {},
): Promise<AppUser> {
  const appUser = {
    _id: randomBytes(12).toString('hex'),
    email: options.email ?? uniqueEmail(options.label ?? 'app-user'),
    password: options.password ?? 'App-user-1',
  };
  await knex('app_users').insert({
    id: appUser._id,
    name: 'Wong Siu Ming',
    email: appUser.email,
    password: await hashPassword(appUser.password),
    locale: options.locale ?? 'en',
    session_version: 'first',
  });
  return appUser;
}

describe.skipIf(skipReason)('an app user’s password reset by mailed link', () => {
  let server: RunningServer;
  let knex: Knex;
  let offset = 0;

  async function call<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; locale?: Locale; address?: string } = {},
  ) {
    const response = await fetch(`${server.url}/api${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'x-forwarded-for': options.address ?? newAddress(),
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
  const ask = (email: unknown, options: { locale?: Locale; address?: string } = {}) =>
    call<{ requested: true }>('POST', '/appPasswordResets', { body: { email }, ...options });
  const reset = (token: unknown, password: unknown, options: { locale?: Locale; address?: string } = {}) =>
    call<{ reset: true; email: string }>('POST', '/appPasswordResets', { body: { token, password }, ...options });
  const appSignIn = (email: string, password: string) =>
    call<{ accessToken: string }>('POST', '/appAuthentication', { body: { strategy: 'local', email, password } });
  const memberSignIn = (email: string, password: string) =>
    call<{ accessToken: string }>('POST', '/authentication', { body: { strategy: 'local', email, password } });

  /** The mails sent to an address whose link opens a page (`/app/reset-password` or a member's), oldest first. */
  async function mailsTo(
    email: string,
    page: RegExp,
    count = 1,
  ): Promise<{ subject: string; text: string; html: string }[]> {
    for (let i = 0; i < 200; i += 1) {
      const mails = (
        (await knex('outbox')
          .where({ recipient: email })
          .orderBy('created_at', 'asc')
          .select('subject', 'text', 'html')) as { subject: string; text: string; html: string }[]
      ).filter((mail) => page.test(mail.text));
      if (mails.length >= count) return mails;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`fewer than ${count} mails reached ${email}`);
  }
  const APP_PAGE = /\/[a-z-]+\/app\/reset-password\?token=/;
  const MEMBER_PAGE = /\/[a-z-]+\/reset-password\?token=/;

  /** The link of the `count`-th app reset mail to an address. */
  async function linkSentTo(email: string, count = 1) {
    const mail = (await mailsTo(email, APP_PAGE, count))[count - 1]!;
    const link = /(http\S+\/app\/reset-password\?token=\S+)/.exec(mail.text)?.[1];
    if (!link) throw new Error(`no link in ${mail.text}`);
    return {
      link,
      token: new URL(link).searchParams.get('token') ?? '',
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    };
  }
  async function linkFor(appUser: AppUser, count = 1) {
    expect((await ask(appUser.email)).status).toBe(201);
    return linkSentTo(appUser.email, count);
  }
  /** Waits until both reset mail queues have nothing left to work. */
  async function queueDone() {
    const schema = jobsSchemaOf(knex);
    for (let i = 0; i < 200; i += 1) {
      const open = await knex.raw(
        `select count(*)::int as n from ??.job where name in ('app-password-reset-mail', 'password-reset-mail') and state in ('created', 'retry', 'active')`,
        [schema],
      );
      if (open.rows[0].n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the password reset mail jobs did not finish');
  }

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

  describe('asking for a link', () => {
    it('answers the same whether or not an app user has the address, and mails only the app user', async () => {
      const appUser = await createAppUser(knex, { label: 'app-reset-known' });
      const unknown = uniqueEmail('app-reset-unknown');
      const known = await ask(appUser.email.toUpperCase());
      const nobody = await ask(unknown);
      expect(known.status).toBe(201);
      expect(known.body).toEqual({ requested: true });
      expect(nobody.status).toBe(known.status);
      expect(nobody.body).toEqual(known.body);
      expect([...nobody.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
      const { token } = await linkSentTo(appUser.email);
      await queueDone();
      expect(await knex('outbox').where({ recipient: unknown })).toHaveLength(0);
      const rows = await knex('app_password_resets').where({ app_user_id: appUser._id });
      expect(rows).toHaveLength(1);
      expect(rows[0].token_hash).toBe(resetTokenHash(token));
      expect(new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime()).toBe(
        PASSWORD_RESET_RULES.ttlMs,
      );
      // The mail queue tells it apart from the members' mails.
      const deliveries = await knex('mail_deliveries').where({ recipient: appUser.email });
      expect(deliveries.map((row: { kind: string }) => row.kind)).toEqual(['app-password-reset-mail']);
    });

    it('mails the link to the apps’ page in the app user’s language, whatever the asking page’s', async () => {
      for (const locale of ['zh-hk', 'zh-cn', 'en'] as const) {
        const appUser = await createAppUser(knex, { label: `app-reset-${locale}`, locale });
        expect((await ask(appUser.email, { locale: locale === 'en' ? 'zh-hk' : 'en' })).status).toBe(201);
        const mail = await linkSentTo(appUser.email);
        expect(mail.subject).toBe(translate(locale, 'appReset.mail.subject', { brand: 'Tillpoint' }));
        expect(mail.subject).not.toBe(translate(locale, 'reset.mail.subject', { brand: 'Tillpoint' }));
        expect(mail.link).toMatch(
          new RegExp(`^http://localhost:\\d+/${locale}/app/reset-password\\?token=[A-Za-z0-9_-]{43}$`),
        );
        expect(mail.text).toContain(translate(locale, 'appReset.mail.link', { brand: 'Tillpoint' }));
        expect(mail.text).toContain(translate(locale, 'appReset.mail.expiry', { minutes: 60 }));
        expect(mail.html).toContain(`<a href="${mail.link}">`);
      }
    });

    it('refuses what is not an email, or not a request, with 400 in the caller’s language', async () => {
      expect(await ask('not-an-email', { locale: 'zh-hk' })).toMatchObject({
        status: 400,
        body: { errors: { email: translate('zh-hk', 'validation.emailFormat') } },
      });
      expect((await ask({ $ne: null })).status).toBe(400);
      expect((await call('POST', '/appPasswordResets', { body: { email: 'a@example.test', extra: 1 } })).status).toBe(
        400,
      );
      for (const [method, path] of [
        ['GET', '/appPasswordResets'],
        ['GET', '/appPasswordResets/1'],
        ['PATCH', '/appPasswordResets/1'],
        ['DELETE', '/appPasswordResets/1'],
      ] as const) {
        const answer = await call(method, path, method === 'PATCH' ? { body: { used_at: null } } : {});
        expect(answer.status, `${method} ${path}`).toBe(405);
      }
    });
  });

  describe('setting the new password', () => {
    it('sets it once, hashed; the old password and the old app token are refused, the new one signs in', async () => {
      const appUser = await createAppUser(knex, { label: 'app-reset-once', password: 'Old-app-password-1' });
      const before = await appSignIn(appUser.email, appUser.password);
      expect(before.status).toBe(201);
      expect((await call('GET', `/appUsers/${appUser._id}`, { token: before.body.accessToken })).status).toBe(200);
      const { token } = await linkFor(appUser);

      const done = await reset(token, 'New-app-password-26');
      expect(done).toMatchObject({ status: 201, body: { reset: true, email: appUser.email } });
      const stored = (await knex('app_users').where({ id: appUser._id }).first('password', 'session_version')) as {
        password: string;
        session_version: string;
      };
      expect(stored.password).toMatch(/^\$argon2id\$/);
      expect(stored.session_version).not.toBe('first');

      // Every session from before is over; the old password no longer signs in; the new one does.
      expect((await call('GET', `/appUsers/${appUser._id}`, { token: before.body.accessToken })).status).toBe(401);
      expect((await appSignIn(appUser.email, appUser.password)).status).toBe(401);
      const after = await appSignIn(appUser.email, 'New-app-password-26');
      expect(after.status).toBe(201);
      expect((await call('GET', `/appUsers/${appUser._id}`, { token: after.body.accessToken })).status).toBe(200);

      // Used: a second time is 410 in the caller's language, and changes nothing.
      const again = await reset(token, 'Another-password-27', { locale: 'zh-hk' });
      expect(again.status).toBe(410);
      expect(again.body.message).toBe(translate('zh-hk', 'reset.linkUsed'));
      expect(again.body.errors).toEqual({ token: translate('zh-hk', 'reset.linkUsed') });
      expect((await appSignIn(appUser.email, 'Another-password-27')).status).toBe(401);
      expect((await appSignIn(appUser.email, 'New-app-password-26')).status).toBe(201);
    });

    it('closes an app’s socket that was signed in before the reset', async () => {
      const appUser = await createAppUser(knex, { label: 'app-reset-socket' });
      const socket = socketClient(server.url, { 'x-forwarded-for': newAddress() });
      try {
        await socket.client
          .service('appAuthentication')
          .create({ strategy: 'local', email: appUser.email, password: appUser.password });
        expect(((await socket.client.service('appUsers').get(appUser._id)) as { _id: string })._id).toBe(appUser._id);
        const { token } = await linkFor(appUser);
        expect((await reset(token, 'New-app-password-26')).status).toBe(201);
        expect(await socket.closedWithin()).toBe('io server disconnect');
      } finally {
        socket.close();
      }
    });

    it('refuses an expired link with 410, and a link replaced by a newer one', async () => {
      const appUser = await createAppUser(knex, { label: 'app-reset-expired' });
      const first = await linkFor(appUser);
      offset = PASSWORD_RESET_RULES.ttlMs;
      const expired = await reset(first.token, 'New-app-password-26', { locale: 'zh-cn' });
      expect(expired.status).toBe(410);
      expect(expired.body.message).toBe(translate('zh-cn', 'reset.expired'));
      expect(expired.body.errors).toEqual({ token: translate('zh-cn', 'reset.expired') });
      offset = 0;
      const second = await linkFor(appUser, 2);
      const third = await linkFor(appUser, 3);
      expect((await reset(second.token, 'New-app-password-26')).status).toBe(410);
      // The newest link works until its hour is up.
      offset = PASSWORD_RESET_RULES.ttlMs - 60_000;
      expect((await reset(third.token, 'New-app-password-26')).status).toBe(201);
      offset = 0;
      expect((await appSignIn(appUser.email, 'New-app-password-26')).status).toBe(201);
      expect((await appSignIn(appUser.email, appUser.password)).status).toBe(401);
    });

    it('refuses unknown and malformed links with 400 at the token', async () => {
      const unknown = await reset('A'.repeat(43), 'New-app-password-26', { locale: 'zh-hk' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual({ token: translate('zh-hk', 'reset.invalidLink') });
      for (const token of ['short', { $ne: null }, null]) {
        const answer = await reset(token, 'New-app-password-26');
        expect(answer.status, JSON.stringify(token)).toBe(400);
        expect(answer.body.errors).toEqual({ token: translate('en', 'reset.invalidLink') });
      }
    });

    it('refuses a weak or breached password with 400 at the field, and the link still works', async () => {
      const appUser = await createAppUser(knex, { label: 'app-reset-rules' });
      const { token } = await linkFor(appUser);
      const cases: [unknown, string][] = [
        ['', 'validation.required'],
        ['Ab1', 'validation.passwordMin'],
        ['abcdefgh1', 'validation.passwordUpper'],
        ['Password1', 'validation.passwordBreached'],
        [{ $ne: null }, 'validation.invalid'],
      ];
      for (const [password, key] of cases) {
        for (const locale of ['zh-hk', 'en'] as const) {
          const answer = await reset(token, password, { locale });
          expect(answer.status, String(password)).toBe(400);
          expect(answer.body.errors, String(password)).toEqual({ password: translate(locale, key) });
        }
      }
      const row = await knex('app_password_resets')
        .where({ token_hash: resetTokenHash(token) })
        .first('used_at');
      expect(row.used_at).toBeNull();
      expect((await appSignIn(appUser.email, appUser.password)).status).toBe(201);
      expect((await reset(token, 'New-app-password-26')).status).toBe(201);
    });
  });

  describe('limits', () => {
    it('limits the requests from one address (429, Retry-After), apart from the members’ requests', async () => {
      const address = newAddress();
      for (let i = 0; i < PASSWORD_RESET_LIMITS.requestsPerAddress.points; i += 1) {
        expect((await ask(uniqueEmail('app-flood'), { address })).status).toBe(201);
      }
      const refused = await ask(uniqueEmail('app-flood'), { address, locale: 'zh-hk' });
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe(translate('zh-hk', 'reset.tooManyRequests'));
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address is not held back, nor a member's request from this one.
      expect((await ask(uniqueEmail('app-flood'))).status).toBe(201);
      const member = await call('POST', '/passwordResets', { body: { email: uniqueEmail('flood') }, address });
      expect(member.status).toBe(201);
    });

    it('limits the requests for one email from every address together, the same for an address without an app user', async () => {
      const appUser = await createAppUser(knex, { label: 'app-reset-flood' });
      const unknown = uniqueEmail('app-reset-flood-unknown');
      for (const email of [appUser.email, unknown]) {
        for (let i = 0; i < PASSWORD_RESET_LIMITS.requestsPerEmail.points; i += 1)
          expect((await ask(email)).status, email).toBe(201);
      }
      const known = await ask(appUser.email);
      const nobody = await ask(unknown);
      expect(known.status).toBe(429);
      expect(nobody.status).toBe(429);
      expect(nobody.body).toEqual(known.body);
      expect(Number(known.headers.get('retry-after'))).toBeGreaterThan(0);
      await mailsTo(appUser.email, APP_PAGE, PASSWORD_RESET_LIMITS.requestsPerEmail.points);
      await queueDone();
      expect(await knex('outbox').where({ recipient: appUser.email })).toHaveLength(
        PASSWORD_RESET_LIMITS.requestsPerEmail.points,
      );
    });

    it('limits the resets from one address (429)', async () => {
      const address = newAddress();
      for (let i = 0; i < PASSWORD_RESET_LIMITS.resetsPerAddress.points; i += 1) {
        expect((await reset('B'.repeat(43), 'New-app-password-26', { address })).status).toBe(400);
      }
      const refused = await reset('B'.repeat(43), 'New-app-password-26', { address });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('a member and an app user with the same email', () => {
    it('each reset touches only its own account, and a link of one is unknown to the other', async () => {
      const member = await createAccount(knex, { label: 'both', password: 'Member-password-1' });
      const appUser = await createAppUser(knex, { email: member.email, password: 'App-password-1', locale: 'zh-hk' });

      // The app user asks: one mail, to the apps' page; no member's link is made.
      expect((await ask(member.email)).status).toBe(201);
      const appLink = await linkSentTo(member.email);
      await queueDone();
      expect(await knex('password_resets').where({ user_id: member._id })).toHaveLength(0);
      expect(await knex('outbox').where({ recipient: member.email })).toHaveLength(1);

      // The member asks: a member's link, to the members' page; the app user's link stays open.
      expect((await call('POST', '/passwordResets', { body: { email: member.email } })).status).toBe(201);
      const memberMail = (await mailsTo(member.email, /\/en\/reset-password\?token=/))[0]!;
      expect(MEMBER_PAGE.test(memberMail.text) && !APP_PAGE.test(memberMail.text)).toBe(true);
      const memberToken = new URL(/(http\S+\/reset-password\?token=\S+)/.exec(memberMail.text)![1]!).searchParams.get(
        'token',
      )!;
      await queueDone();
      expect(
        await knex('app_password_resets').where({ app_user_id: appUser._id }).whereNull('replaced_at'),
      ).toHaveLength(1);

      // A link sent to the wrong service is no link at all.
      expect(await reset(memberToken, 'Crossed-password-1')).toMatchObject({
        status: 400,
        body: { errors: { token: translate('en', 'reset.invalidLink') } },
      });
      const crossed = await call('POST', '/passwordResets', {
        body: { token: appLink.token, password: 'Crossed-password-1' },
      });
      expect(crossed.status).toBe(400);
      expect(crossed.body.errors).toEqual({ token: translate('en', 'reset.invalidLink') });

      // The app user's reset changes the app user's password alone.
      expect((await reset(appLink.token, 'App-new-password-2')).status).toBe(201);
      expect((await appSignIn(member.email, 'App-new-password-2')).status).toBe(201);
      expect((await memberSignIn(member.email, 'App-new-password-2')).status).toBe(401);
      expect((await memberSignIn(member.email, 'Member-password-1')).status).toBe(201);

      // The member's reset changes the member's password alone.
      const memberReset = await call('POST', '/passwordResets', {
        body: { token: memberToken, password: 'Member-new-password-3' },
      });
      expect(memberReset.status).toBe(201);
      expect((await memberSignIn(member.email, 'Member-new-password-3')).status).toBe(201);
      expect((await appSignIn(member.email, 'Member-new-password-3')).status).toBe(401);
      expect((await appSignIn(member.email, 'App-new-password-2')).status).toBe(201);
    });
  });
});
