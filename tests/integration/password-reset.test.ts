import type { Knex } from 'knex';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '../../domain/locales.ts';
import { translate } from '../../server/i18n.ts';
import { jobsSchemaOf } from '../../server/jobs/queue.ts';
import {
  PASSWORD_RESET_LIMITS,
  PASSWORD_RESET_RULES,
  resetTokenHash,
} from '../../server/services/password-resets/password-resets.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  clientService,
  createAccount,
  rejectionOf,
  skipReason,
  socketClient,
  startTestServer,
  uniqueEmail,
  type FeathersErrorJSON,
  type TestAccount,
} from './harness.ts';

/**
 * A forgotten password (decision 026), as an attacker would try it: the same answer for an address
 * with or without an account, a link mailed in the account's language that works once for an hour,
 * is stored only hashed, ends every session and every other link, and limits per address and per
 * email. Over REST and socket.io. The server's clock is moved by the tests.
 */

let nextAddress = 1;
const newAddress = () => `10.26.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

describe.skipIf(skipReason)('password reset by mailed link', () => {
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
    call<{ requested: true }>('POST', '/passwordResets', { body: { email }, ...options });
  const reset = (
    token: unknown,
    password: unknown,
    options: { locale?: Locale; address?: string; jwt?: string } = {},
  ) =>
    call<{ reset: true; email: string }>('POST', '/passwordResets', {
      body: { token, password },
      ...options,
      ...(options.jwt ? { token: options.jwt } : {}),
    });
  const signIn = (email: string, password: string) =>
    call<{ accessToken: string }>('POST', '/authentication', { body: { strategy: 'local', email, password } });

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
  /** The link of the `count`-th mail to an address. */
  async function linkSentTo(
    email: string,
    count = 1,
  ): Promise<{ link: string; token: string; subject: string; text: string }> {
    const mail = (await mailsTo(email, count))[count - 1]!;
    const link = /(http\S+\/reset-password\?token=\S+)/.exec(mail.text)?.[1];
    if (!link) throw new Error(`no link in ${mail.text}`);
    return { link, token: new URL(link).searchParams.get('token') ?? '', subject: mail.subject, text: mail.text };
  }
  /** Asks for a link for an account and reads it from the outbox. */
  async function linkFor(account: TestAccount, count = 1) {
    expect((await ask(account.email)).status).toBe(201);
    return linkSentTo(account.email, count);
  }
  /** Waits until the mail queue has nothing left to work. */
  async function queueDone() {
    const schema = jobsSchemaOf(knex);
    for (let i = 0; i < 200; i += 1) {
      const open = await knex.raw(
        `select count(*)::int as n from ??.job where name = 'password-reset-mail' and state in ('created', 'retry', 'active')`,
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
    it('answers the same, with the same status, whether or not an account uses the address, and mails only the account', async () => {
      const account = await createAccount(knex, { label: 'reset-known' });
      const unknown = uniqueEmail('reset-unknown');
      const known = await ask(account.email.toUpperCase());
      const nobody = await ask(unknown);
      expect(known.status).toBe(201);
      expect(nobody.status).toBe(known.status);
      expect(nobody.body).toEqual(known.body);
      expect(known.body).toEqual({ requested: true });
      expect([...nobody.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
      await linkSentTo(account.email);
      await queueDone();
      expect(await knex('outbox').where({ recipient: unknown })).toHaveLength(0);
      expect(await knex('password_resets').where({ user_id: account._id })).toHaveLength(1);
    });

    it('mails the link in the account’s language, whatever the page’s, and in the page’s when the account has none', async () => {
      const account = await createAccount(knex, { label: 'reset-zh' });
      await knex('users').where({ id: account._id }).update({ locale: 'zh-hk' });
      expect((await ask(account.email, { locale: 'en' })).status).toBe(201);
      const mail = await linkSentTo(account.email);
      expect(mail.subject).toBe(translate('zh-hk', 'reset.mail.subject', { brand: 'Tillpoint' }));
      expect(mail.link).toMatch(/^http:\/\/localhost:\d+\/zh-hk\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
      expect(mail.text).toContain(translate('zh-hk', 'reset.mail.expiry', { minutes: 60 }));

      const other = await createAccount(knex, { label: 'reset-nolocale' });
      await knex('users').where({ id: other._id }).update({ locale: null });
      expect((await ask(other.email, { locale: 'zh-cn' })).status).toBe(201);
      expect((await linkSentTo(other.email)).link).toContain('/zh-cn/reset-password?token=');
    });

    it('keeps only the token’s SHA-256: no table but the outbox holds the token', async () => {
      const account = await createAccount(knex, { label: 'reset-hash' });
      const { token } = await linkFor(account);
      const rows = await knex('password_resets').where({ user_id: account._id });
      expect(rows).toHaveLength(1);
      expect(rows[0].token_hash).toBe(resetTokenHash(token));
      expect(new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime()).toBe(
        PASSWORD_RESET_RULES.ttlMs,
      );
      const schemas = [String((await knex.raw('select current_schema() as s')).rows[0].s), jobsSchemaOf(knex)];
      const tables = (
        await knex.raw(
          'select table_schema, table_name from information_schema.tables where table_schema = any(?) and table_type = ?',
          [schemas, 'BASE TABLE'],
        )
      ).rows as { table_schema: string; table_name: string }[];
      expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['password_resets', 'users', 'outbox']));
      const holding: string[] = [];
      for (const { table_schema: schema, table_name: table } of tables) {
        if (table === 'outbox') continue;
        const found = await knex.raw('select count(*)::int as n from ??.?? t where t::text like ?', [
          schema,
          table,
          `%${token}%`,
        ]);
        if (found.rows[0].n > 0) holding.push(`${schema}.${table}`);
      }
      expect(holding).toEqual([]);
    });

    it('refuses what is not an email, or not a request, with 400 in the caller’s language', async () => {
      expect(await ask('not-an-email', { locale: 'zh-hk' })).toMatchObject({
        status: 400,
        body: { errors: { email: translate('zh-hk', 'validation.emailFormat') } },
      });
      expect(await ask('', { locale: 'zh-cn' })).toMatchObject({
        status: 400,
        body: { errors: { email: translate('zh-cn', 'validation.required') } },
      });
      expect((await ask({ $ne: null })).status).toBe(400);
      expect((await ask(['a@example.test'])).status).toBe(400);
      expect((await call('POST', '/passwordResets', { body: { email: 'a@example.test', extra: 1 } })).status).toBe(400);
      expect((await call('POST', '/passwordResets', { body: [] })).status).toBe(400);
    });

    it('does nothing but create: no list, no record, no change, no removal', async () => {
      for (const [method, path] of [
        ['GET', '/passwordResets'],
        ['GET', '/passwordResets/1'],
        ['PATCH', '/passwordResets/1'],
        ['PUT', '/passwordResets/1'],
        ['DELETE', '/passwordResets/1'],
      ] as const) {
        const answer = await call(
          method,
          path,
          method === 'PATCH' || method === 'PUT' ? { body: { used_at: null } } : {},
        );
        expect(answer.status, `${method} ${path}`).toBe(405);
      }
    });

    it('limits the requests from one address, whether or not the emails have accounts (429, Retry-After)', async () => {
      const address = newAddress();
      for (let i = 0; i < PASSWORD_RESET_LIMITS.requestsPerAddress.points; i += 1) {
        expect((await ask(uniqueEmail('flood'), { address })).status).toBe(201);
      }
      const refused = await ask(uniqueEmail('flood'), { address, locale: 'zh-hk' });
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe(translate('zh-hk', 'reset.tooManyRequests'));
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address is not held back.
      expect((await ask(uniqueEmail('flood'))).status).toBe(201);
    });

    it('limits the requests for one email from every address together, the same for an address without an account', async () => {
      const account = await createAccount(knex, { label: 'reset-flood' });
      const unknown = uniqueEmail('reset-flood-unknown');
      for (const email of [account.email, unknown]) {
        for (let i = 0; i < PASSWORD_RESET_LIMITS.requestsPerEmail.points; i += 1)
          expect((await ask(email)).status, email).toBe(201);
      }
      const known = await ask(account.email);
      const nobody = await ask(unknown);
      expect(known.status).toBe(429);
      expect(nobody.status).toBe(429);
      expect(nobody.body).toEqual(known.body);
      await mailsTo(account.email, PASSWORD_RESET_LIMITS.requestsPerEmail.points);
      await queueDone();
      expect(await knex('outbox').where({ recipient: account.email })).toHaveLength(
        PASSWORD_RESET_LIMITS.requestsPerEmail.points,
      );
    });

    it('drops a request its mail could not follow within a link’s life', async () => {
      const account = await createAccount(knex, { label: 'reset-late' });
      const job = {
        email: account.email,
        locale: 'en',
        requestedAt: new Date(Date.now() - PASSWORD_RESET_RULES.ttlMs - 1000).toISOString(),
      };
      await server.api.jobs.send('password-reset-mail', job);
      server.api.jobs.wake('password-reset-mail');
      await queueDone();
      expect(await knex('password_resets').where({ user_id: account._id })).toHaveLength(0);
      expect(await knex('outbox').where({ recipient: account.email })).toHaveLength(0);
    });
  });

  describe('setting the new password', () => {
    it('sets it once, ends every session of the account, and the old password no longer signs in', async () => {
      const account = await createAccount(knex, { label: 'reset-once', password: 'Old-password-1' });
      const before = await signIn(account.email, account.password);
      expect(before.status).toBe(201);
      const { token } = await linkFor(account);

      const done = await reset(token, 'New-password-26');
      expect(done).toMatchObject({ status: 201, body: { reset: true, email: account.email } });
      const stored = (await knex('users').where({ id: account._id }).first('password')) as { password: string };
      expect(stored.password).toMatch(/^\$argon2id\$/);

      // The session from before the reset is over, on REST.
      expect((await call('GET', `/users/${account._id}`, { token: before.body.accessToken })).status).toBe(401);
      expect((await signIn(account.email, account.password)).status).toBe(401);
      const after = await signIn(account.email, 'New-password-26');
      expect(after.status).toBe(201);
      expect((await call('GET', `/users/${account._id}`, { token: after.body.accessToken })).status).toBe(200);

      // Used: a second time is 410 in the caller's language, and changes nothing.
      const again = await reset(token, 'Another-password-27', { locale: 'zh-hk' });
      expect(again.status).toBe(410);
      expect(again.body.message).toBe(translate('zh-hk', 'reset.linkUsed'));
      expect(again.body.errors).toEqual({ token: translate('zh-hk', 'reset.linkUsed') });
      expect((await signIn(account.email, 'New-password-26')).status).toBe(201);
    });

    it('closes a socket that was signed in before the reset', async () => {
      const account = await createAccount(knex, { label: 'reset-socket', password: 'Old-password-1' });
      const socket = socketClient(server.url, { 'x-forwarded-for': newAddress() });
      try {
        await socket.client.authenticate({ strategy: 'local', email: account.email, password: account.password });
        const users = clientService(socket.client, 'users');
        expect((await users.get(account._id))._id).toBe(account._id);
        const { token } = await linkFor(account);
        expect((await reset(token, 'New-password-26')).status).toBe(201);
        expect(await socket.closedWithin()).toBe('io server disconnect');
      } finally {
        socket.close();
      }
    });

    it('refuses an expired link with 410, and a link replaced by a newer one', async () => {
      const account = await createAccount(knex, { label: 'reset-expired' });
      const first = await linkFor(account);
      offset = PASSWORD_RESET_RULES.ttlMs;
      const expired = await reset(first.token, 'New-password-26', { locale: 'zh-cn' });
      expect(expired.status).toBe(410);
      expect(expired.body.message).toBe(translate('zh-cn', 'reset.expired'));
      offset = 0;

      const second = await linkFor(account, 2);
      const third = await linkFor(account, 3);
      expect((await reset(second.token, 'New-password-26')).status).toBe(410);
      expect((await reset(third.token, 'New-password-26')).status).toBe(201);
      expect((await signIn(account.email, 'New-password-26')).status).toBe(201);
    });

    it('ends the account’s other open links when it is used', async () => {
      const account = await createAccount(knex, { label: 'reset-others' });
      const { token } = await linkFor(account);
      // Another open link of the account (as a mail still on its way would leave).
      const other = 'x'.repeat(43);
      await knex('password_resets').insert({
        id: 'other-open-link',
        user_id: account._id,
        token_hash: resetTokenHash(other),
        created_at: new Date(),
        expires_at: new Date(Date.now() + 60_000),
      });
      expect((await reset(token, 'New-password-26')).status).toBe(201);
      expect((await reset(other, 'Other-password-27')).status).toBe(410);
      expect(
        (await knex('password_resets').where({ id: 'other-open-link' }).first('replaced_at')).replaced_at,
      ).not.toBeNull();
    });

    it('sets the password of the link’s account only, whoever sends it', async () => {
      const owner = await createAccount(knex, { label: 'reset-owner' });
      const attacker = await createAccount(knex, { label: 'reset-attacker', password: 'Attacker-1' });
      const attackerSession = await signIn(attacker.email, attacker.password);
      const { token } = await linkFor(owner);
      const done = await reset(token, 'New-password-26', { jwt: attackerSession.body.accessToken });
      expect(done.body).toEqual({ reset: true, email: owner.email });
      expect((await signIn(owner.email, 'New-password-26')).status).toBe(201);
      expect((await signIn(attacker.email, 'New-password-26')).status).toBe(401);
      expect((await signIn(attacker.email, attacker.password)).status).toBe(201);
      // The caller's own session is not the one reset: it goes on.
      expect((await call('GET', `/users/${attacker._id}`, { token: attackerSession.body.accessToken })).status).toBe(
        200,
      );
    });

    it('refuses unknown and malformed links with 400, and query operators as tokens', async () => {
      const unknown = await reset('A'.repeat(43), 'New-password-26', { locale: 'zh-hk' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe(translate('zh-hk', 'reset.invalidLink'));
      expect(unknown.body.errors).toEqual({ token: translate('zh-hk', 'reset.invalidLink') });
      for (const token of ['short', '', { $ne: null }, ['x'.repeat(43)], null, 'a'.repeat(201)]) {
        const answer = await reset(token, 'New-password-26');
        expect(answer.status, JSON.stringify(token)).toBe(400);
        expect(answer.body.errors).toEqual({ token: translate('en', 'reset.invalidLink') });
      }
      expect((await call('POST', '/passwordResets', { body: { token: 'A'.repeat(43) } })).status).toBe(400);
      expect(
        (
          await call('POST', '/passwordResets', {
            body: { token: 'A'.repeat(43), password: 'New-password-26', email: 'a@example.test' },
          })
        ).status,
      ).toBe(400);
    });

    it('refuses a password against the rules or breached with 400 at the field, and the link still works', async () => {
      const account = await createAccount(knex, { label: 'reset-rules' });
      const { token } = await linkFor(account);
      const cases: [unknown, string][] = [
        ['', 'validation.required'],
        ['Ab1', 'validation.passwordMin'],
        ['abcdefgh1', 'validation.passwordUpper'],
        ['Noodles\t2024', 'validation.passwordInvalid'],
        ['Password1', 'validation.passwordBreached'],
        [{ $ne: null }, 'validation.invalid'],
      ];
      for (const [password, key] of cases) {
        const answer = await reset(token, password, { locale: 'zh-hk' });
        expect(answer.status, String(password)).toBe(400);
        expect(answer.body.errors, String(password)).toEqual({ password: translate('zh-hk', key) });
      }
      const row = await knex('password_resets')
        .where({ token_hash: resetTokenHash(token) })
        .first('used_at');
      expect(row.used_at).toBeNull();
      expect((await signIn(account.email, account.password)).status).toBe(201);
      expect((await reset(token, 'New-password-26')).status).toBe(201);
    });

    it('takes one of two resets sent at once with the same link', async () => {
      const account = await createAccount(knex, { label: 'reset-race' });
      const { token } = await linkFor(account);
      const answers = await Promise.all([reset(token, 'First-password-1'), reset(token, 'Second-password-2')]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 410]);
      const won = answers[0]!.status === 201 ? 'First-password-1' : 'Second-password-2';
      expect((await signIn(account.email, won)).status).toBe(201);
    });

    it('limits the resets from one address (429)', async () => {
      const address = newAddress();
      for (let i = 0; i < PASSWORD_RESET_LIMITS.resetsPerAddress.points; i += 1) {
        expect((await reset('B'.repeat(43), 'New-password-26', { address })).status).toBe(400);
      }
      const refused = await reset('B'.repeat(43), 'New-password-26', { address });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('over socket.io', () => {
    it('asks and resets as over REST, errors in the socket’s language', async () => {
      const account = await createAccount(knex, { label: 'reset-over-socket', password: 'Old-password-1' });
      const socket = socketClient(server.url, { 'x-locale': 'zh-hk', 'x-forwarded-for': newAddress() });
      try {
        const resets = clientService(socket.client, 'passwordResets');
        expect(await resets.create({ email: account.email })).toEqual({ requested: true });
        expect(await resets.create({ email: uniqueEmail('socket-unknown') })).toEqual({ requested: true });
        const { token } = await linkSentTo(account.email);
        const weak = await rejectionOf(resets.create({ token, password: 'weak' }));
        expect(weak).toMatchObject({ code: 400, errors: { password: translate('zh-hk', 'validation.passwordMin') } });
        expect(await resets.create({ token, password: 'New-password-26' })).toEqual({
          reset: true,
          email: account.email,
        });
        const used = await rejectionOf(resets.create({ token, password: 'New-password-26' }));
        expect(used).toMatchObject({ code: 410, message: translate('zh-hk', 'reset.linkUsed') });
        expect((await signIn(account.email, 'New-password-26')).status).toBe(201);
      } finally {
        socket.close();
      }
    });
  });
});
